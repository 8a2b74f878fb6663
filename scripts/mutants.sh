#!/usr/bin/env bash
# Mutation testing with cargo-mutants (`cargo install cargo-mutants --locked`) in the whole
# crate: the batch driver's compaction and the parse, where a wrong operator or constant
# gives a wrong result for rare inputs only. See doc/reliability.md, "Mutation testing",
# for the counts and the survivors.
#
#   scripts/mutants.sh                    src/batch/lanes8.rs and src/recover.rs
#   scripts/mutants.sh FILE...            those files (their tests: MUTANTS_TESTS below)
#   scripts/mutants.sh --in-diff DIFF     only the mutants in lines a change touches
#                                         (git diff main... > DIFF), anywhere in src/
#   scripts/mutants.sh --p256 [FILE...]   the P-256 files (P256VERIFY's parse, the scalar
#                                         core, the batch, the 8-lane engine) or some of
#                                         them, judged by their unit tests and the
#                                         P256VERIFY suite (tests/p256verify.rs)
#   scripts/mutants.sh --lanes [FILE...]  the 8-lane engine's files that issue 39 split out
#                                         (its records, table layout, recovery fields and
#                                         the hybrid experiment) or some of them, judged by
#                                         the secp256k1 lane tests
#
# The GLV split, the recodings, the scalars and the lane schedule have a faster way,
# scripts/mutants_harness.sh (seconds a mutant).
#
# The files: at the `mutants` profile (Cargo.toml: no optimisation, incremental builds), a
# mutant rebuilds the library twice (as the test support's dependency and as the unit-test
# binary) in well under a minute, where the test profile's opt-level 3 took 5 to 16
# minutes for the functions the engines inline. Judged by the unit tests named in
# $MUTANTS_TESTS (default: `recover::tests` and `batch::lanes8::tests`, which include the
# compaction against a scalar stand-in engine and the engines on the portable backend and,
# on this CPU's AVX-512, natively): about 35 s unoptimised. RUST_MIN_STACK: unoptimised,
# the engines' frames are large; BXRUN is unset: the emulator's stack does not hold an
# unoptimised engine (the emulated tests skip).
#
# `run_emulated` (lanes8.rs: the emulator's read-back, for the tests and the `emu` tools)
# runs only under the emulator, so its mutants are left out of that pass and run in a
# second one when lanes8.rs is among the files: the test profile (optimised, so that the
# engines fit the emulator's stack), BXRUN set (from ../shared/emu/setup.sh unless it is
# set already), judged by the emulated engine test; its results go to $out/emulated/.
#
# --in-diff: the test profile (opt-level 3) and all the library's unit tests, which include
# the boundary tests of src/boundary_tests.rs and src/lane_bounds_tests.rs; incremental
# builds on.
#
# Results go to mutants.out/mutants.out/ (or $MUTANTS_OUT/mutants.out/); a surviving mutant
# is listed in missed.txt. Extra arguments for cargo-mutants go in $MUTANTS_ARGS (e.g.
# "-j 2").
set -euo pipefail
cd "$(dirname "$0")/.."

out=${MUTANTS_OUT:-mutants.out}
# Exit status 2 (mutants missed) and 3 (timeouts) are findings, reported below.
findings() {
    case $1 in
        0 | 2 | 3) ;;
        *) echo "cargo mutants failed (exit status $1)" >&2; exit "$1" ;;
    esac
}
if [ "${1:-}" = "--in-diff" ]; then
    export CARGO_PROFILE_TEST_INCREMENTAL=true
    exec cargo mutants --in-diff "$2" -o "$out" -C --lib --minimum-test-timeout 60 \
        ${MUTANTS_ARGS:-}
fi
# The files, the tests that judge them and the test targets those live in.
FILES=(src/batch/lanes8.rs src/recover.rs)
read -r -a tests <<<"${MUTANTS_TESTS:-recover::tests batch::lanes8::tests}"
targets=(-C --lib)
if [ "${1:-}" = "--p256" ]; then
    # The P-256 files' unit tests (`p256::`, which also matches `lanes::p256::`) and
    # tests/p256verify.rs but its 10,000 seeded cases (86 s unoptimised: the vectors, the
    # error order and the batch lengths catch what they catch); about 12 s a mutant. The
    # oracles are optimised ([profile.mutants.package."*"]).
    shift
    FILES=(src/p256verify.rs src/batch/p256.rs src/p256/scalar.rs src/p256/field.rs
        src/p256/field_adx.rs src/p256/field_x86.rs src/p256/group.rs src/p256/ecmult.rs
        src/lanes/p256/field.rs src/lanes/p256/point.rs src/lanes/p256/verify.rs)
    tests=(p256:: published_precompile_vectors wycheproof_vectors batch_equals batch_lanes
        lengths_other each_error --skip secp256k1)
    targets=(-C --lib -C --test=p256verify)
fi
if [ "${1:-}" = "--lanes" ]; then
    # The secp256k1 lanes' unit tests (`lanes::` but the P-256 ones), with recover.rs's
    # and the batch driver's, which run the engines on the portable backend and, on a CPU
    # with AVX-512, natively: about 25 s a mutant unoptimised.
    shift
    FILES=(src/lanes/records.rs src/lanes/table.rs src/lanes/recovery_field.rs
        src/lanes/hybrid.rs)
    tests=(recover::tests batch::lanes8::tests lanes:: --skip lanes::p256)
fi
[ $# -gt 0 ] && FILES=("$@")
emulated_re='lanes8\.rs:.*run_emulated'
args=()
emulated=no
for f in "${FILES[@]}"; do
    args+=(-f "$f")
    [ "$f" = src/batch/lanes8.rs ] && emulated=yes
done
[ $emulated = yes ] && args+=(-E "$emulated_re")
echo "== cargo mutants ${args[*]} --profile mutants ${targets[*]} -- -- ${tests[*]}"
rc=0
env -u BXRUN RUST_MIN_STACK=268435456 cargo mutants "${args[@]}" -o "$out" --profile mutants \
    "${targets[@]}" --minimum-test-timeout 120 ${MUTANTS_ARGS:-} -- -- "${tests[@]}" || rc=$?
findings $rc
. scripts/mutants_counts.sh
mutant_counts "$out/mutants.out" "${FILES[@]}"

if [ $emulated = yes ]; then
    bx=${BXRUN:-}
    [ -n "$bx" ] || [ ! -x ../shared/emu/setup.sh ] || bx=$(../shared/emu/setup.sh)
    if [ -z "$bx" ]; then
        echo "== run_emulated's mutants not run: no emulator (set BXRUN)"
        exit 0
    fi
    test=batch::lanes8::tests::avx512_engines_emulated_match_scalar_core
    echo "== run_emulated under the emulator: cargo mutants --re '$emulated_re' -C --lib -- -- $test"
    rc=0
    BXRUN=$bx CARGO_PROFILE_TEST_INCREMENTAL=true cargo mutants -f src/batch/lanes8.rs \
        --re "$emulated_re" -o "$out/emulated" -C --lib --minimum-test-timeout 300 \
        ${MUTANTS_ARGS:-} -- -- "$test" || rc=$?
    findings $rc
    echo "run_emulated, under the emulator:"
    mutant_counts "$out/emulated/mutants.out" src/batch/lanes8.rs
fi

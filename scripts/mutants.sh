#!/usr/bin/env bash
# Mutation testing with cargo-mutants (`cargo install cargo-mutants --locked`) of the code
# where a wrong operator or digit gives a wrong sender for rare inputs only; see
# doc/reliability.md, "Mutation testing", for the counts and the survivors.
#
#   scripts/mutants.sh                    every file of FILES below (one cargo-mutants run)
#   scripts/mutants.sh FILE...            those files
#   scripts/mutants.sh --in-diff DIFF     only the mutants in lines a change touches
#                                         (git diff main... > DIFF), anywhere in src/
#
# Each mutant is built (an incremental rebuild of the library, twice: as the test support's
# dependency and as the unit-test binary; seconds for a function the engines do not
# inline, 5 to 16 minutes for one they do, measured on two cores) and judged by the
# library's unit tests (`cargo test --lib`, 2 to 5 s),
# which include the boundary tests of src/boundary_tests.rs and src/lane_bounds_tests.rs.
# For the GLV split, the recodings, the scalars and the lane schedule,
# scripts/mutants_harness.sh is the faster way (seconds a mutant).
# Results go to mutants.out/mutants.out/ (or $MUTANTS_OUT/mutants.out/); a surviving mutant
# is listed in missed.txt. Extra arguments for cargo-mutants go in $MUTANTS_ARGS (e.g.
# "-j 2").
set -euo pipefail
cd "$(dirname "$0")/.."

FILES=(
    src/secp256k1/glv.rs
    src/secp256k1/eisenstein.rs
    src/secp256k1/recode.rs
    src/lanes/schedule.rs
    src/lanes/scalar.rs
    src/batch/lanes8.rs
    src/recover.rs
    src/secp256k1/scalar.rs
)
out=${MUTANTS_OUT:-mutants.out}
# Incremental builds for the mutants (the test profile turns them off for CI's clean
# builds): each mutant changes one function, and an incremental rebuild recompiles only
# what that touches.
export CARGO_PROFILE_TEST_INCREMENTAL=true
# `-C --lib`: build and run only the library's unit tests (the default would build every
# test target of the package for each mutant, several minutes).
common=(-C --lib --minimum-test-timeout 60 ${MUTANTS_ARGS:-})

if [ "${1:-}" = "--in-diff" ]; then
    exec cargo mutants --in-diff "$2" -o "$out" "${common[@]}"
fi
[ $# -gt 0 ] && FILES=("$@")
# One run over all the files: one baseline build.
args=()
for f in "${FILES[@]}"; do
    args+=(-f "$f")
done
echo "== cargo mutants ${args[*]} ${common[*]}"
cargo mutants "${args[@]}" -o "$out" "${common[@]}" || true
# Counts per file.
. scripts/mutants_counts.sh
mutant_counts "$out/mutants.out" "${FILES[@]}"

#!/usr/bin/env bash
# Mutation testing with cargo-mutants (`cargo install cargo-mutants --locked`) of the code
# where a wrong operator or digit gives a wrong sender for rare inputs only; see
# doc/reliability.md, "Mutation testing", for the counts and the survivors.
#
#   scripts/mutants.sh                    every file of FILES below, one after the other
#   scripts/mutants.sh FILE...            those files
#   scripts/mutants.sh --in-diff DIFF     only the mutants in lines a change touches
#                                         (git diff main... > DIFF), anywhere in src/
#
# Each mutant is built (an incremental rebuild of the library and the unit-test binary,
# about 10 s) and judged by the library's unit tests (`cargo test --lib`, about 4 s),
# which include the boundary tests of src/boundary_tests.rs and src/lane_bounds_tests.rs.
# Results go to mutants.out/ (or $MUTANTS_OUT/NAME/ per file); a surviving mutant is
# listed in its missed.txt. Extra arguments for cargo-mutants go in $MUTANTS_ARGS (e.g.
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
# The copy cargo-mutants builds in starts from this tree's target/ (the dependencies are
# built once, not per run).
common=(--copy-target true --minimum-test-timeout 60 ${MUTANTS_ARGS:-})

if [ "${1:-}" = "--in-diff" ]; then
    exec cargo mutants --in-diff "$2" -o "$out" "${common[@]}" -- --lib
fi
[ $# -gt 0 ] && FILES=("$@")
for f in "${FILES[@]}"; do
    name=$(basename "$f" .rs)
    [ "$f" = src/lanes/scalar.rs ] && name=lanes_scalar
    echo "== cargo mutants -f $f"
    cargo mutants -f "$f" -o "$out/$name" "${common[@]}" -- --lib || true
done
for f in "${FILES[@]}"; do
    name=$(basename "$f" .rs)
    [ "$f" = src/lanes/scalar.rs ] && name=lanes_scalar
    d="$out/$name/mutants.out"
    [ -d "$d" ] || continue
    printf '%-30s caught %4d  missed %4d  unviable %4d  timeout %4d\n' "$f" \
        "$(wc -l <"$d/caught.txt")" "$(wc -l <"$d/missed.txt")" \
        "$(wc -l <"$d/unviable.txt")" "$(wc -l <"$d/timeout.txt")"
done

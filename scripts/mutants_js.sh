#!/usr/bin/env bash
# Mutation testing of the npm package's Rust (js/src/: the Node-API addon and the
# WebAssembly module), judged by the package's own JavaScript tests. See
# doc/reliability.md, "Mutation testing".
#
#   scripts/mutants_js.sh              every mutant cargo-mutants finds in js/src/
#   scripts/mutants_js.sh FILE...      those in some files (paths as in js/, e.g. src/wasm.rs)
#   MUTANTS_ARGS="--re NAME" scripts/mutants_js.sh   those cargo-mutants' filter keeps
#
# Why not `cargo mutants` itself: it judges a mutant by `cargo test`, and the judges here are
# `node --test`'s suites over the built addon and module. So cargo-mutants lists the mutants
# (`--list --json`: each one's file, span and replacement) and this script runs each one:
# the replacement written into a copy of the tree, the addon and the WebAssembly module
# rebuilt (the `mutants` profile of js/Cargo.toml: optimised, no LTO, incremental), the
# tests run, the file put back. A mutant is
#   caught     when a test fails,
#   missed     when every test passes,
#   unviable   when it does not build (for the addon or for wasm32, whichever holds it),
#   timeout    when a test run does not end (below).
# The tests: js/test/*.test.mjs but the browser test (Chromium runs the same module that
# module.test.mjs runs in Node), the quick files first and the differential suites only for
# a mutant those pass.
#
# The copy: the repository's files (tracked and not ignored) in a temporary directory, its
# test dependencies from js/package-lock.json (`npm ci --ignore-scripts`). Results go to
# $MUTANTS_OUT (default mutants-js.out/): caught.txt, missed.txt, unviable.txt,
# timeout.txt, and a log per mutant under log/.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
out=$(cd "$OLDPWD" && realpath -m "${MUTANTS_OUT:-$repo/mutants-js.out}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== a copy of the tree in $work"
git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$work"
cd "$work/js"
npm ci --ignore-scripts --no-audit --no-fund >/dev/null

filters=()
for f in "$@"; do filters+=(-f "$f"); done
# shellcheck disable=SC2086 # $MUTANTS_ARGS: extra arguments, split on spaces
cargo mutants --list --json "${filters[@]}" ${MUTANTS_ARGS:-} >"$work/mutants.json"

rm -rf "$out"
mkdir -p "$out/log"
: >"$out/caught.txt"
: >"$out/missed.txt"
: >"$out/unviable.txt"
: >"$out/timeout.txt"

export CARGO_TARGET_DIR="$work/target"
# The tests in two tiers, the quick files first: a mutant they catch skips the differential
# suites (a minute and more against @noble/curves and viem).
quick=(test/api.test.mjs test/async.test.mjs test/module.test.mjs test/readme.test.mjs)
slow=()
for t in test/*.test.mjs; do
    case " ${quick[*]} test/browser.test.mjs " in
        *" $t "*) ;;
        *) slow+=("$t") ;;
    esac
done
# A mutant can leave a test file's process running after its tests failed (a timer or other
# handle that a failed test did not close keeps the event loop alive): each node run is
# stopped after $MUTANTS_JS_TIMEOUT seconds (default 600; the slow tier takes about two
# minutes on two busy cores). A stopped run that reported a failing test ("not ok") counts
# as caught, one that did not as a timeout.
limit=${MUTANTS_JS_TIMEOUT:-600}
judge() {
    timeout "$limit" node --test "${quick[@]}" && timeout "$limit" node --test "${slow[@]}"
}

# Builds the addon and the module into place; fails when either does not build.
build() {
    cargo build --profile mutants --locked &&
        cp "$CARGO_TARGET_DIR/mutants/libasmcrypto_js.so" asmcrypto.node &&
        cargo build --profile mutants --locked --target wasm32-unknown-unknown &&
        mkdir -p wasm &&
        cp "$CARGO_TARGET_DIR/wasm32-unknown-unknown/mutants/asmcrypto_js.wasm" wasm/asmcrypto.wasm
}

echo "== the unmutated tree: build and tests"
build >"$out/log/baseline.log" 2>&1 || { cat "$out/log/baseline.log"; exit 1; }
judge >>"$out/log/baseline.log" 2>&1 || {
    echo "the tests fail on the unmutated tree: see $out/log/baseline.log" >&2
    exit 1
}

count=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))))' "$work/mutants.json")
echo "== $count mutants"
for i in $(seq 0 $((count - 1))); do
    # Writes mutant i into its file (kept in $work/original) and prints its name.
    name=$(python3 - "$work/mutants.json" "$i" "$work/original" <<'EOF'
import json, shutil, sys
m = json.load(open(sys.argv[1]))[int(sys.argv[2])]
path = m["file"]
shutil.copyfile(path, sys.argv[3])
lines = open(path, encoding="utf-8").read().split("\n")
def offset(pos):
    # cargo-mutants' spans: lines and columns from 1, the end exclusive, columns in chars.
    return sum(len(l) + 1 for l in lines[: pos["line"] - 1]) + pos["column"] - 1
text = "\n".join(lines)
start, end = offset(m["span"]["start"]), offset(m["span"]["end"])
open(path, "w", encoding="utf-8").write(text[:start] + m["replacement"] + text[end:])
print(m["name"])
EOF
)
    file=${name%%:*}
    log="$out/log/$(printf '%03d' "$i").log"
    echo "$name" >"$log"
    rc=0
    if ! build >>"$log" 2>&1; then
        verdict=unviable
    elif judge >>"$log" 2>&1 || rc=$?; [ $rc = 0 ]; then
        verdict=missed
    elif [ $rc = 124 ] && ! grep -q '^not ok' "$log"; then
        verdict=timeout
    else
        verdict=caught
    fi
    cp "$work/original" "$file"
    echo "$name" >>"$out/$verdict.txt"
    printf '%-9s %s\n' "$verdict" "$name"
done
echo "== js/src: $count mutants, $(wc -l <"$out/caught.txt") caught, $(wc -l <"$out/missed.txt") missed, $(wc -l <"$out/unviable.txt") unviable, $(wc -l <"$out/timeout.txt") timeouts"
[ -s "$out/missed.txt" ] && { echo "missed:"; cat "$out/missed.txt"; }
exit 0

#!/usr/bin/env bash
# Mutation testing of the GLV split, the recodings, the scalars, the lane schedule and the
# shared-inversion tables in small crates of their own: their files as they are in src/,
# with the modules they need, judged by the unit tests those crates hold. See
# doc/reliability.md, "Mutation testing".
#
#   scripts/mutants_harness.sh                 the seven files below
#   scripts/mutants_harness.sh FILE...         some of them (paths as in src/)
#
# Why a harness: in the whole crate a mutant in these files is inlined into the 8-lane
# engines and the batch paths, so it rebuilds the library twice (once for the test support
# crate, which depends on it, once as the unit-test binary): 5 to 16 minutes a mutant on
# two cores. Here a mutant rebuilds a few thousand lines in seconds. What is lost: the
# library's other unit tests (the engines', the boundary suites'), so a mutant a harness
# misses may still be caught in the crate (`scripts/mutants.sh FILE`). What is kept: each
# file's own tests, and those of the modules beside it.
#
# Two harnesses: `scalar` (the scalar core's files with the modules they use) and `lanes`
# (the lanes' files with the lane fields, points and backends, and the scalar core's field
# and group, which those use; `affine_tables.rs` runs here too, for its field and group).
# Each file runs in the one that holds it.
#
# Results go to $MUTANTS_OUT/{scalar,lanes}/mutants.out/ (default mutants-harness.out/),
# the harness crates to a temporary directory ($MUTANTS_HARNESS to keep them somewhere);
# $MUTANTS_JOBS builds at once (default 2), extra cargo-mutants arguments in $MUTANTS_ARGS.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
. scripts/mutants_counts.sh

FILES=(
    src/secp256k1/glv.rs
    src/secp256k1/eisenstein.rs
    src/secp256k1/recode.rs
    src/secp256k1/scalar.rs
    src/lanes/scalar.rs
    src/lanes/schedule.rs
    src/secp256k1/affine_tables.rs
)
[ $# -gt 0 ] && FILES=("$@")
# (Relative paths in MUTANTS_OUT and MUTANTS_HARNESS are taken from the caller's
# directory.)
out=$(cd "$OLDPWD" && realpath -m "${MUTANTS_OUT:-$repo/mutants-harness.out}")
if [ -n "${MUTANTS_HARNESS:-}" ]; then
    base=$(cd "$OLDPWD" && realpath -m "$MUTANTS_HARNESS")
else
    base=$(mktemp -d)
    trap 'rm -rf "$base"' EXIT
fi

scalar_files=()
lane_files=()
for f in "${FILES[@]}"; do
    case "$f" in
        # The shared-inversion tables need the field and the group: the lanes harness has them.
        src/secp256k1/affine_tables.rs) lane_files+=("$f") ;;
        src/secp256k1/*) scalar_files+=("$f") ;;
        src/lanes/*) lane_files+=("$f") ;;
        *) echo "not a file of the harnesses: $f" >&2; exit 2 ;;
    esac
done

# The module files of a harness: the same tree, without the engines, the batch paths and
# the tables that build.rs generates. For `scalar`, from secp256k1/field.rs only
# `words_from_be` (the scalars' parse); for `lanes`, from lanes/recover.rs only the input
# record and `load4`, which the lane fields read, and from lanes/mod.rs its backend traits.
MODULES_PY='
import re, sys
repo, dir, kind = sys.argv[1:]

def item(text, start):
    """The item whose line starts with `start`, with the docs and attributes above it, up
    to its closing brace at column 0."""
    i = text.index("\n" + start) + 1
    head = text.rfind("\n\n", 0, i) + 2
    end = text.index("\n}\n", i) + 3
    return text[head:end]

def indent(text):
    return re.sub(r"(?m)^(?=.)", "    ", text)

def mods(names):
    return "".join(f"pub(crate) mod {m};\n" for m in names)

tables = "pub(crate) mod tables {\n    pub(crate) mod layout;\n    pub(crate) use layout::*;\n}\n"
top = ("// A harness of scripts/mutants_harness.sh: modules of asmcrypto without the rest.\n"
       "#![allow(dead_code, unused_imports)]\n")
rng = "#[cfg(test)]\npub mod test_support {\n    pub mod rng;\n}\n"
if kind == "scalar":
    field = open(f"{repo}/src/secp256k1/field.rs").read()
    open(f"{dir}/src/secp256k1/mod.rs", "w").write(
        mods(["eisenstein", "glv", "modinv", "recode", "scalar"]) + tables
        + "pub(crate) mod field {\n" + indent(item(field, "pub(crate) fn words_from_be"))
        + "}\n")
    open(f"{dir}/src/lib.rs", "w").write(top + "pub mod secp256k1;\n" + rng)
else:
    recover = open(f"{repo}/src/lanes/recover.rs").read()
    lanes = open(f"{repo}/src/lanes/mod.rs").read()
    traits = lanes[lanes.index("/// Number of lanes."):]
    stub = item(recover, "pub struct Input8 {") + "\n" + item(recover, "pub(crate) fn load4")
    open(f"{dir}/src/lanes/mod.rs", "w").write(
        mods(["field", "field29", "lane_field", "point", "portable", "scalar", "schedule"])
        + "pub(crate) mod recover {\n    use super::{Backend, LANES};\n\n"
        + indent(stub) + "}\n\n" + traits)
    open(f"{dir}/src/secp256k1/mod.rs", "w").write(
        mods(["affine_tables", "batch_inv", "eisenstein", "field", "glv", "group", "modinv",
              "recode", "scalar"])
        + "#[cfg(target_arch = \"x86_64\")]\npub(crate) mod field_adx;\n"
        + "#[cfg(target_arch = \"aarch64\")]\npub(crate) mod field_arm64;\n" + tables)
    open(f"{dir}/src/lib.rs", "w").write(
        top + "pub mod dispatch;\npub mod lanes;\npub mod secp256k1;\n" + rng)
'

# The manifest: the dev-dependencies the files' tests use (versions from the crate's lock
# file, copied beside it), and the crate's test profile with incremental builds.
MANIFEST='[package]
name = "asmcrypto-mutants-harness"
version = "0.0.0"
edition = "2024"
publish = false

[dev-dependencies]
num-bigint = "0.5"
k256 = { version = "0.14", features = ["ecdsa"] }
secp256k1 = { version = "0.33", features = ["recovery"] }

[profile.test]
opt-level = 3
incremental = true
debug-assertions = true
overflow-checks = true

[workspace]
'

# harness KIND DIR: writes the harness crate of KIND into DIR.
harness() {
    local kind=$1 dir=$2 f
    rm -rf "$dir/src"
    mkdir -p "$dir/src"
    copy() {
        mkdir -p "$dir/$(dirname "$1")"
        cp "$repo/$1" "$dir/$1"
    }
    for f in scalar modinv glv eisenstein recode; do
        copy "src/secp256k1/$f.rs"
    done
    copy src/secp256k1/tables/layout.rs
    copy src/test_support/rng.rs
    if [ "$kind" = lanes ]; then
        for f in affine_tables batch_inv field field_adx field_arm64 group; do
            copy "src/secp256k1/$f.rs"
        done
        copy src/dispatch.rs
        for f in portable scalar field field29 lane_field point schedule; do
            copy "src/lanes/$f.rs"
        done
    fi
    python3 -c "$MODULES_PY" "$repo" "$dir" "$kind"
    printf '%s' "$MANIFEST" > "$dir/Cargo.toml"
    cp "$repo/Cargo.lock" "$dir/Cargo.lock"
}

# run KIND FILE...: the harness of KIND, its tests, then cargo-mutants on the files.
run() {
    local kind=$1 f
    shift
    local dir="$base/$kind"
    mkdir -p "$out/$kind"
    harness "$kind" "$dir"
    echo "== the $kind harness in $dir: its unit tests"
    (cd "$dir" && cargo test --lib --quiet)
    local args=()
    for f in "$@"; do
        args+=(-f "$f")
    done
    echo "== cargo mutants ${args[*]} (in $dir)"
    # `-C --lib`: the unit tests (the copied files' doc examples name the real crate).
    # Exit status 2 (mutants missed) and 3 (timeouts) are findings, reported below; any
    # other failure (a usage error, the unmutated tree failing its tests) stops here.
    local rc=0
    (cd "$dir" && cargo mutants "${args[@]}" -C --lib -j "${MUTANTS_JOBS:-2}" \
        --minimum-test-timeout 20 -o "$out/$kind" ${MUTANTS_ARGS:-}) || rc=$?
    case $rc in
        0 | 2 | 3) ;;
        *) echo "cargo mutants failed (exit status $rc)" >&2; exit "$rc" ;;
    esac
    mutant_counts "$out/$kind/mutants.out" "$@"
}
if [ ${#scalar_files[@]} -gt 0 ]; then run scalar "${scalar_files[@]}"; fi
if [ ${#lane_files[@]} -gt 0 ]; then run lanes "${lane_files[@]}"; fi
echo "results: $out/{scalar,lanes}/mutants.out/"

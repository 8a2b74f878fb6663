#!/usr/bin/env bash
# The 8-lane AVX-512 engines' emulated instructions per signature, by phase, a table per
# engine (avx512-ifma, then avx512f): the tool
# `avx512_instructions` (one group of eight real signatures) run under the BochsCPU
# emulator with a runner that counts every executed address (scripts/engine_profile.py),
# then each address attributed through its inlined source frames (addr2line) to a phase
# of `lanes::recover` (its numbered steps, the lift, the kinds of step in the Strauss loop).
# Exact and repeatable, like the total it adds up to (doc/benchmarks.md).
#
# Usage: scripts/engine_profile.sh   (needs ../shared/emu, python3, gcc, binutils)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bxrun=$(../shared/emu/setup.sh)
# The runner's python (the emulator's venv) and shim, from the runner script setup.sh wrote.
py=$(sed -n 's/.* exec "\([^"]*python\)".*/\1/p' "$bxrun")
shim=$(sed -n 's/^BX_SHIM="\([^"]*\)".*/\1/p' "$bxrun")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# ENGINE_PROFILE_KEEP=FILE keeps the address histogram (to report again without a rerun:
# scripts/engine_profile.py report ELF FILE .).
cat > "$out/runner" <<RUNNER
#!/bin/sh
BX_SHIM="$shim" BX_EMU_DIR="$(cd ../shared/emu && pwd)" BX_PROFILE_OUT="$out/hist.jsonl" exec "$py" "$root/scripts/engine_profile.py" run "\$@"
RUNNER
chmod +x "$out/runner"
# Line tables in the release build (its own target directory, so the tools' usual build
# stays as it is).
export CARGO_TARGET_DIR=target/profile-lines
CARGO_PROFILE_RELEASE_DEBUG=line-tables-only \
    cargo build --release --quiet -p asmcrypto-tools --features emu --bin avx512_instructions
BXRUN="$out/runner" "$CARGO_TARGET_DIR/release/avx512_instructions"
"$py" "$root/scripts/engine_profile.py" report "$CARGO_TARGET_DIR/release/avx512_instructions" "$out/hist.jsonl" "$root"
if [ -n "${ENGINE_PROFILE_KEEP:-}" ]; then
    cp "$out/hist.jsonl" "$ENGINE_PROFILE_KEEP"
fi

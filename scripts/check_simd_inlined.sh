#!/usr/bin/env bash
# Fails if a release binary that runs the 8-lane engine and the AVX2 Keccak keeps any
# core::arch AVX-512 or AVX2 intrinsic as a function of its own. An intrinsic inlines
# only into code compiled with its target features; one left out of line means some code
# on the SIMD path (a closure, a generic helper) was compiled without them, and every
# call then passes its vectors through memory (see doc/internals.md, "target features").
# Usage: scripts/check_simd_inlined.sh [BINARY]   (default: the main job, built if needed)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-}
if [ -z "$bin" ]; then
    cargo build --release --quiet --features alloy,parallel --example compare
    bin=target/release/examples/compare
fi
command -v nm >/dev/null || { echo "nm (binutils) is needed"; exit 2; }
left=$(nm --demangle "$bin" | grep -E 'core::core_arch::x86(_64)?::(avx512[a-z0-9_]*|avx2|avx)::' || true)
if [ -n "$left" ]; then
    echo "out-of-line SIMD intrinsics in $bin:"
    echo "$left" | awk '{$1=""; $2=""; print}' | sed 's/::h[0-9a-f]*$//' | sort | uniq -c
    exit 1
fi
echo "no out-of-line AVX-512 or AVX2 intrinsic in $bin"

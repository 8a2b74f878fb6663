#!/usr/bin/env bash
# Static throughput estimate of the AVX-512 field multiply and point doubling kernels with
# llvm-mca (Debian package llvm-19), for Zen 4, Zen 5 and Sapphire Rapids; and of issue 39's
# hybrid kernels: a lane doubling with one or two scalar-core (MULX/ADX) doublings interleaved a
# field operation at a time (src/lanes/hybrid.rs). The scalar doubling alone is timed natively
# by tools/src/bin/hybrid_double.rs: its kernel here modelled the dispatch and loads only.
# Usage: scripts/mca.sh   (prints, per kernel and CPU, cycles per call and per lane, and the
#        kernel's instructions, multiplies among them: vpmadd52, or vpmuludq and vpmuldq, and
#        mulx)
# The kernels' C-ABI entries (src/lanes/abi.rs) are compiled only for the tests and with the
# feature `emu`, so the library is built with it.
set -euo pipefail
cd "$(dirname "$0")/.."
MCA=${MCA:-llvm-mca-19}
command -v "$MCA" >/dev/null || MCA=/usr/lib/llvm-19/bin/llvm-mca
if ! command -v "$MCA" >/dev/null; then
    # An older llvm-mca knows neither Zen 4 nor Zen 5: ask for 19 rather than print nothing.
    echo "mca.sh: llvm-mca 19 not found (Debian's llvm-19, or MCA=/path/to/llvm-mca)" >&2
    exit 1
fi
out=$(mktemp -d)
CARGO_PROFILE_RELEASE_LTO=false CARGO_TARGET_DIR="$out/t" \
    cargo rustc --release --lib --features emu --quiet -- --emit asm
asm=$(ls "$out"/t/release/deps/asmcrypto-*.s | head -1)
for sym in asmcrypto_avx512_fe_mul asmcrypto_avx512_point_double asmcrypto_avx512f_fe_mul \
    asmcrypto_avx512f_point_double asmcrypto_avx512_hybrid_point_double \
    asmcrypto_avx512_hybrid2_point_double asmcrypto_avx512_pair_point_double \
    asmcrypto_avx512f_hybrid_point_double; do
    # The function body: from its label to the end marker, instructions only.
    awk -v s="$sym:" '$1 == s {on=1; next} on && /^\.Lfunc_end/ {exit} on' "$asm" \
        | grep -vE '^\s*(\.|#|$)|^\.?L[A-Za-z0-9_]+:|\bretq?\b' > "$out/$sym.s"
    n=$(wc -l < "$out/$sym.s")
    muls=$(grep -cE 'vpmadd52|vpmuldq|vpmuludq' "$out/$sym.s" || true)
    mulx=$(grep -cE '\bmulx' "$out/$sym.s" || true)
    for cpu in znver4 znver5 sapphirerapids; do
        cyc=$("$MCA" -mcpu="$cpu" -iterations=200 "$out/$sym.s" 2>/dev/null \
              | awk '/^Total Cycles:/ {print $3}')
        if [ -z "$cyc" ]; then
            echo "mca.sh: $MCA gave no cycle count for $sym on $cpu" >&2
            exit 1
        fi
        per=$(python3 -c "print(f'{$cyc/200:.1f} cycles/call, {$cyc/200/8:.1f} cycles/lane')")
        echo "$sym ($n instructions, $muls vector multiplies, $mulx mulx) on $cpu: $per"
    done
done
rm -rf "$out"

#!/usr/bin/env bash
# Modelled cycles of one single-signature recovery on other cores (doc/benchmarks.md, issue 20).
# Steps one call of asmcrypto's recover_public_key, or of libsecp256k1's
# secp256k1_ecdsa_recover, through gdb (scripts/trace_step.py: the executed instructions,
# branches resolved, rare paths absent), then runs llvm-mca over that trace once per -mcpu
# and prints the total cycles, the instruction count and the busiest execution port.
#
# Usage: scripts/trace_mca.sh [asmcrypto|libsecp256k1] [CPU...]
#        (defaults: asmcrypto; sapphirerapids znver3 znver4 znver5)
# Needs gdb and llvm-mca 19 (Debian packages gdb, llvm-19); on x86-64 with BMI2/ADX the
# trace is of the MULX/ADX field. llvm-mca takes every load as independent of earlier
# stores, so a dependency that passes through memory costs nothing in the model: compare
# figures with each other and with the calibration in doc/benchmarks.md, not with clocks.
set -euo pipefail
cd "$(dirname "$0")/.."
lib=${1:-asmcrypto}
shift || true
cpus=${*:-sapphirerapids znver3 znver4 znver5}
MCA=${MCA:-llvm-mca-19}
command -v "$MCA" >/dev/null || MCA=/usr/lib/llvm-19/bin/llvm-mca
cargo build --release --quiet -p asmcrypto-tools --bin recover_loop
bin=target/release/recover_loop
case "$lib" in
    asmcrypto) sym=$(nm "$bin" | awk '/recover18recover_public_key/ && !n++ {print $3}') ;;
    libsecp256k1) sym=$(nm "$bin" | awk '$3 ~ /_ecdsa_recover$/ && !n++ {print $3}') ;;
    *) echo "unknown library $lib" >&2; exit 2 ;;
esac
out=$(mktemp -d)
TRACE_FUNC="$sym" TRACE_OUT="$out/trace.txt" TRACE_SKIP=3 \
    gdb -q -batch -x scripts/trace_step.py --args "$bin" 1 "$lib" | grep '^traced'
# llvm-mca input: branch and call targets become one label; a `rep stos` that gdb stepped
# once per byte counts once.
{
    echo ".intel_syntax noprefix"
    echo "L0:"
    awk '!(/^rep/ && $0 == prev) {print} {prev = $0}' "$out/trace.txt" |
        sed -E 's/^(j[a-z]+|call|jmp)[[:space:]].*/\1 L0/'
} > "$out/trace.s"
for cpu in $cpus; do
    src="$out/trace.s"
    if [ "$cpu" = znver3 ]; then
        # No AVX-512 there: glibc's AVX-512 memcpy/memset lines as their 256-bit forms.
        sed -E 's/vmovdqu64/vmovdqu/; s/vmovdqa64/vmovdqa/; s/ZMMWORD/YMMWORD/g;
                s/[yz]mm(1[6-9]|2[0-9]|3[01])/ymm0/g; s/zmm/ymm/g' "$src" > "$out/z3.s"
        src="$out/z3.s"
    fi
    "$MCA" -mcpu="$cpu" -iterations=1 "$src" 2>/dev/null | awk -v cpu="$cpu" '
        /^Total Cycles:/ {cycles = $3}
        /^Instructions:/ {insns = $2}
        /Resource pressure per iteration/ {getline; getline;
            for (i = 1; i <= NF; i++) if ($i + 0 > max) max = $i + 0}
        END {printf "%-16s %8d cycles  %7d instructions  busiest port %8d uops\n",
                    cpu, cycles, insns, max}'
done
rm -rf "$out"

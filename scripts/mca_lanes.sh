#!/usr/bin/env bash
# Issue 25's static model: the 32-bit-lane field multiply and square (9x29 and 10x26 limbs,
# on 4 AVX2 lanes and on 8 AVX-512 F lanes; the kernels of tools/src/bin/lane_mul.rs)
# against the scalar MULX/ADX multiply and square, with llvm-mca (Debian package llvm-19),
# for the CPU families that cannot be run here.
# Usage: scripts/mca_lanes.sh [CPU ...]   (default: znver3 znver4 alderlake skylake-avx512
#        cascadelake sapphirerapids). Prints cycles per call (a loop of 200 independent
#        calls: throughput), cycles per lane, and the per-lane ratio to the scalar operation.
# The scalar kernels' rare carry (a branch to a cold section) is left out: the model sees the
# common path, up to that branch. Every kernel starts with its pointer arguments set from the
# stack pointer (three lea), so that the model's loop carries no dependency from one call's
# results to the next call's addresses (the calls are independent, as in the lanes).
# AVX-512 kernels are not modelled on CPUs without AVX-512.
set -euo pipefail
cd "$(dirname "$0")/.."
MCA=${MCA:-llvm-mca-19}
command -v "$MCA" >/dev/null || MCA=/usr/lib/llvm-19/bin/llvm-mca
cpus=("$@")
[ ${#cpus[@]} -gt 0 ] || cpus=(znver3 znver4 alderlake skylake-avx512 cascadelake sapphirerapids)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
CARGO_PROFILE_RELEASE_LTO=false CARGO_TARGET_DIR="$out/t" \
    cargo rustc --release -p asmcrypto-tools --bin lane_mul --quiet -- --emit asm
asm=$(ls "$out"/t/release/deps/lane_mul-*.s | head -1)
body() {
    # The function's instructions: from its label to the end marker, without directives,
    # labels, the return, stack-frame pushes and pops, vzeroupper.
    awk -v s="$1:" '$1 == s {on=1; next} on && /^\.Lfunc_end/ {exit} on' "$asm" \
        | grep -vE '^\s*(\.|#|$)|^\.?L[A-Za-z0-9_]+:|\b(retq?|pushq|popq|vzeroupper)\b'
}
args=$'\tleaq\t(%rsp), %rsi\n\tleaq\t512(%rsp), %rdx\n\tleaq\t1024(%rsp), %rdi'
for k in scalar_mul scalar_sqr; do
    # Up to the first conditional branch (to the cold section).
    { echo "$args"; body "lane_mul_$k" | awk '/^[ \t]*j[a-z]+[ \t]/ && !/jmp/ {exit} {print}'; } > "$out/$k.s"
done
kernels=(scalar_mul scalar_sqr avx2_mul29 avx2_sqr29 avx2_mul26 avx2_sqr26
         avx512f_mul29 avx512f_sqr29 avx512f_mul26 avx512f_sqr26)
for k in "${kernels[@]:2}"; do
    { echo "$args"; body "lane_mul_$k" | grep -vE '^\s*j'; } > "$out/$k.s"
done
lanes() { case $1 in avx2*) echo 4 ;; avx512*) echo 8 ;; *) echo 1 ;; esac; }
printf "%-15s %5s" kernel insns
for c in "${cpus[@]}"; do printf " %26s" "$c"; done
echo
declare -A base
for k in "${kernels[@]}"; do
    printf "%-15s %5s" "$k" "$(($(wc -l < "$out/$k.s") - 3))"
    for c in "${cpus[@]}"; do
        if [[ $k == avx512* && ( $c == znver3 || $c == alderlake ) ]]; then
            printf " %26s" "-"
            continue
        fi
        cyc=$("$MCA" -mcpu="$c" -iterations=200 "$out/$k.s" 2>/dev/null | awk '/^Total Cycles:/ {print $3}')
        per=$(python3 -c "print($cyc / 200 / $(lanes "$k"))")
        op=${k##*_}; op=${op%%[0-9]*}
        [[ $k == scalar_* ]] && base[$c$op]=$per
        ratio=$(python3 -c "print(f'{$per / ${base[$c$op]}:.2f}')")
        printf " %26s" "$(python3 -c "print(f'{$cyc/200:.1f} = {$per:.1f}/lane ({$ratio}x)')")"
    done
    echo
done

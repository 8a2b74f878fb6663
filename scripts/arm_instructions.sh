#!/usr/bin/env bash
# Instructions per signature recovery on aarch64, counted under qemu-aarch64 with the TCG
# plugin scripts/qemu_insn_count.c: asmcrypto's recover_address, its recover_addresses on
# 256 signatures, and libsecp256k1 (the `secp256k1` crate's C library, compiled for aarch64
# by the cross gcc at -O3) with tiny-keccak. The workload is tools' recover_loop on the
# bundled samples; the difference between runs of 10 and 30 rounds cancels start-up and
# the samples' parsing. Then per P-256 verification (issue 40): asmcrypto's
# p256verify_precompile, its p256_verify_batch on 64 inputs, and RustCrypto's p256 crate on
# the same bytes, by tools' p256_loop (runs of 2 and 6 rounds of 64). Counts, not time:
# qemu models no pipeline.
#
# Needs what scripts/test_aarch64.sh installs, a qemu built with plugin support (Debian's
# is) and a host C compiler. Usage: scripts/arm_instructions.sh
set -euo pipefail
cd "$(dirname "$0")/.."

target=aarch64-unknown-linux-gnu
sysroot=/usr/aarch64-linux-gnu
export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc

cargo build --release --target "$target" -p asmcrypto-tools --bin recover_loop --bin p256_loop
target_dir=$(cargo metadata --format-version 1 --no-deps |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
bin="$target_dir/$target/release/recover_loop"
plugin="$target_dir/qemu_insn_count.so"
"${CC:-cc}" -shared -fPIC -O2 -o "$plugin" scripts/qemu_insn_count.c

# count LIB ROUNDS [BINARY]: prints "instructions multiplies" of one run.
count() {
    local log
    log=$(qemu-aarch64 -L "$sysroot" -plugin "$plugin" -d plugin "${3:-$bin}" "$2" "$1" 2>&1 >/dev/null)
    echo "$(sed -n 's/^insns: //p' <<<"$log") $(sed -n 's/^mul64: //p' <<<"$log")"
}

# table BINARY LO HI TITLE LIB:PER_ROUND:NAME...: a row per library, instructions and
# multiplies per item from runs of LO and HI rounds (PER_ROUND items a round).
table() {
    local bin=$1 lo=$2 hi=$3 title=$4 entry lib per_round name ilo mlo ihi mhi n
    shift 4
    printf '%-40s %14s %14s\n' "$title" instructions "64-bit muls"
    for entry in "$@"; do
        IFS=: read -r lib per_round name <<<"$entry"
        read -r ilo mlo < <(count "$lib" "$lo" "$bin")
        read -r ihi mhi < <(count "$lib" "$hi" "$bin")
        n=$(((hi - lo) * per_round))
        printf '%-40s %14d %14d\n' "$name" $(((ihi - ilo) / n)) $(((mhi - mlo) / n))
    done
}

echo "$(qemu-aarch64 --version | head -n1), $(aarch64-linux-gnu-gcc --version | head -n1)"
# recover_loop: 147 signatures a round, or one batch of 256 with `batch`.
table "$bin" 10 30 "per recovered address" \
    "asmcrypto:147:asmcrypto recover_address" \
    "batch:256:asmcrypto recover_addresses (256)" \
    "libsecp256k1:147:libsecp256k1 + tiny-keccak"
# p256_loop: 64 signatures a round, as one batch with `batch`.
table "$target_dir/$target/release/p256_loop" 2 6 "per P-256 verification" \
    "asmcrypto:64:asmcrypto p256verify_precompile" \
    "batch:64:asmcrypto p256_verify_batch (64)" \
    "p256:64:RustCrypto p256 (revm's default)"

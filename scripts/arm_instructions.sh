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

echo "$(qemu-aarch64 --version | head -n1), $(aarch64-linux-gnu-gcc --version | head -n1)"
printf '%-40s %14s %14s\n' "per recovered address" instructions "64-bit muls"
for lib in asmcrypto batch libsecp256k1; do
    read -r i10 m10 < <(count "$lib" 10)
    read -r i30 m30 < <(count "$lib" 30)
    # recover_loop: 147 signatures a round, or one batch of 256 with `batch`.
    per_round=147
    [ "$lib" = batch ] && per_round=256
    n=$((20 * per_round))
    case $lib in
        asmcrypto) name="asmcrypto recover_address" ;;
        batch) name="asmcrypto recover_addresses (256)" ;;
        libsecp256k1) name="libsecp256k1 + tiny-keccak" ;;
    esac
    printf '%-40s %14d %14d\n' "$name" $(((i30 - i10) / n)) $(((m30 - m10) / n))
done

p256_bin="$target_dir/$target/release/p256_loop"
printf '%-40s %14s %14s\n' "per P-256 verification" instructions "64-bit muls"
for lib in asmcrypto batch p256; do
    read -r i2 m2 < <(count "$lib" 2 "$p256_bin")
    read -r i6 m6 < <(count "$lib" 6 "$p256_bin")
    n=$((4 * 64))
    case $lib in
        asmcrypto) name="asmcrypto p256verify_precompile" ;;
        batch) name="asmcrypto p256_verify_batch (64)" ;;
        p256) name="RustCrypto p256 (revm's default)" ;;
    esac
    printf '%-40s %14d %14d\n' "$name" $(((i6 - i2) / n)) $(((m6 - m2) / n))
done

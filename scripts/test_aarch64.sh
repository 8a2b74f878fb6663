#!/usr/bin/env bash
# The crate's tests on aarch64, cross-compiled here and run under qemu's user-mode emulator
# (qemu-aarch64). Called by .ci/run; runs alone too.
#
# On aarch64 only the portable code exists (no AVX-512 engine, no MULX/ADX multiply, no
# AVX2 Keccak): these runs check that code as an Arm CPU runs it, and the build checks
# that every x86-only item is gated. The tests' oracle, libsecp256k1 (the `secp256k1`
# crate's C library), is built for aarch64 too and runs under the same emulator.
#
# Installs what is missing: the Rust target (rustup), Debian's cross compiler and C library
# (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross) and qemu-user.
set -euo pipefail
cd "$(dirname "$0")/.."

target=aarch64-unknown-linux-gnu
sysroot=/usr/aarch64-linux-gnu

missing=()
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || missing+=(gcc-aarch64-linux-gnu)
[ -e "$sysroot/include/stdio.h" ] || missing+=(libc6-dev-arm64-cross)
command -v qemu-aarch64 >/dev/null 2>&1 || missing+=(qemu-user)
if [ ${#missing[@]} -gt 0 ]; then
    echo "== apt-get install -y --no-install-recommends ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if command -v rustup >/dev/null 2>&1 && ! rustup target add "$target" >/dev/null 2>&1; then
    echo "rustup target add $target failed" >&2
    exit 1
fi

# The C code of the tests' dependencies (libsecp256k1) through the cross compiler, the
# link through it too, and every test binary through qemu with the aarch64 C library.
# Rust warnings are errors on this target (the x86 gates must leave nothing unused).
export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L $sysroot"
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUSTFLAGS="-D warnings"
# tests/batch_paths.rs: the portable lane engines (plain Rust, the slowest paths) out of
# its long sweeps of every length and rotation (under qemu those take minutes); its other
# tests still run them (512 signatures against libsecp256k1, the hostile mix, the k256
# property test, 16 groups of its 10,240).
export ASMCRYPTO_TEST_SWEEP_PORTABLE=0

echo "   $(qemu-aarch64 --version | head -n1); $(aarch64-linux-gnu-gcc --version | head -n1)"
cargo test --target "$target" --lib \
    --test vectors --test edge_cases --test differential \
    --test keccak256 --test proptest_laws --test batch_paths --test p256verify

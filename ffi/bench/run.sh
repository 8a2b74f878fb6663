#!/usr/bin/env bash
# The C ABI benchmark (ffi/bench/bench.c): asmcrypto's C functions against the system
# libsecp256k1 (Debian: libsecp256k1-dev) and, if it can be found, the libsecp256k1 that
# the Rust secp256k1 crate vendors, all in one run, from C.
# Usage: ffi/bench/run.sh [ROUNDS]   (default 60; prints markdown tables and the ratios)
# Two runs: every contestant on one thread, then (with more than one CPU) the batch and
# libsecp256k1 each spread over one thread per CPU. Every row states its code path
# (asmcrypto_backend() for the batch rows, set with ASMCRYPTO_BACKEND) and its threads, and every
# ratio is taken against libsecp256k1 on the same number of threads.
set -euo pipefail
cd "$(dirname "$0")/../.."
CC=${CC:-cc}
target=${CARGO_TARGET_DIR:-target}

cargo build --release -p asmcrypto-ffi
# secp256k1-sys (with its recovery module, a dependency of the shared test support) builds
# its vendored C library in release for the repository's tools.
cargo build --release -p asmcrypto-tools --bin recover_loop

# More than one secp256k1-sys may have been built (the tools' optional revm backend brings
# an older one): take the newest, by the version in its symbol prefix.
vendored=()
best=""
for a in "$target"/release/build/secp256k1-sys-*/out/libsecp256k1.a; do
    [ -f "$a" ] || continue
    sym=$(nm -g --defined-only "$a" 2>/dev/null \
          | awk '$3 ~ /^rustsecp256k1_v[0-9_]+_ecdsa_recover$/ && !s {s = $3} END {print s}') || true
    [ -n "$sym" ] || continue
    prefix=${sym%ecdsa_recover}
    if [ -z "$best" ] || [ "$(printf '%s\n%s\n' "$best" "$prefix" | sort -V | tail -1)" = "$prefix" ]; then
        best=$prefix
        vendored=(-DVENDORED_PREFIX="$prefix" "$a")
    fi
done
[ ${#vendored[@]} -eq 0 ] || echo "== vendored libsecp256k1: ${vendored[1]} (${best}*)"
[ ${#vendored[@]} -gt 0 ] || echo "== vendored libsecp256k1 with the recovery module not found: system library only"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Static libraries throughout: the system libsecp256k1.a too, so no side pays for PLT calls.
"$CC" -std=c11 -O2 -Wall -Wextra -Werror -Iffi/include ffi/bench/bench.c \
    "$target"/release/libasmcrypto_ffi.a "${vendored[@]}" \
    -Wl,-Bstatic -lsecp256k1 -Wl,-Bdynamic -lpthread -ldl -lm -o "$out/bench"
echo "== $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //'), $(nproc) CPUs; system libsecp256k1 $(dpkg-query -W -f '${Version}' libsecp256k1-dev 2>/dev/null || echo '(version unknown)')"
rounds=${1:-60}
echo "== one thread"
"$out/bench" "$rounds" 1
threads=$(nproc)
if [ "$threads" -gt 1 ]; then
    echo
    echo "== $threads threads: asmcrypto's pool against libsecp256k1 on as many pthreads"
    "$out/bench" "$rounds" "$threads"
fi

#!/bin/sh
# Builds the asmcrypto C library and installs it under a prefix, as a distribution or a
# program in another language expects to find it:
#
#   LIBDIR/libasmcrypto.so.X.Y.Z           the shared library, soname libasmcrypto.so.X
#   LIBDIR/libasmcrypto.so.X -> .so.X.Y.Z  (the name the dynamic loader looks for)
#   LIBDIR/libasmcrypto.so -> .so.X        (the name the linker looks for: -lasmcrypto)
#   LIBDIR/libasmcrypto.a                  the static library
#   INCLUDEDIR/asmcrypto.h                 the header
#   PKGCONFIGDIR/asmcrypto.pc              pkg-config's description of the above
#
# X.Y.Z is the version of the package asmcrypto-ffi (ffi/Cargo.toml); X, its first
# component, is the ABI version: the soname changes exactly when a release breaks the C
# ABI (see README.md, "Versions and stability").
#
# Usage: ffi/install.sh [--prefix DIR] [--libdir DIR] [--includedir DIR]
#                       [--pkgconfigdir DIR] [--destdir DIR] [-- CARGO_ARGS...]
#   --prefix        default /usr/local
#   --libdir        default PREFIX/lib (Debian's multiarch: PREFIX/lib/x86_64-linux-gnu)
#   --includedir    default PREFIX/include
#   --pkgconfigdir  default LIBDIR/pkgconfig
#   --destdir       a staging directory prepended to every path written, not to the paths
#                   recorded in asmcrypto.pc (also taken from $DESTDIR), for packaging
#   CARGO_ARGS      passed to cargo, e.g. -- --locked --offline
#
# Needs cargo and rustc (the crate's rust-version or newer), and a C toolchain's linker.
# For ELF systems (Linux, the BSDs): the soname is set with the GNU linker option -soname.
#
# Why not cargo-c (`cargo cinstall`): see README.md, "From C, Go and other languages".
set -eu

prefix=/usr/local
libdir=
includedir=
pkgconfigdir=
destdir=${DESTDIR:-}

usage() {
    sed -n '/^# Usage:/,/^#   CARGO_ARGS/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case $1 in
    --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift 2 ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    --libdir) [ $# -ge 2 ] || usage; libdir=$2; shift 2 ;;
    --libdir=*) libdir=${1#*=}; shift ;;
    --includedir) [ $# -ge 2 ] || usage; includedir=$2; shift 2 ;;
    --includedir=*) includedir=${1#*=}; shift ;;
    --pkgconfigdir) [ $# -ge 2 ] || usage; pkgconfigdir=$2; shift 2 ;;
    --pkgconfigdir=*) pkgconfigdir=${1#*=}; shift ;;
    --destdir) [ $# -ge 2 ] || usage; destdir=$2; shift 2 ;;
    --destdir=*) destdir=${1#*=}; shift ;;
    --) shift; break ;;
    -h | --help) usage ;;
    *) echo "install.sh: unknown argument $1" >&2; usage ;;
    esac
done

case $prefix in
/*) ;;
*) echo "install.sh: --prefix must be an absolute path, not $prefix" >&2; exit 2 ;;
esac

# The paths recorded in asmcrypto.pc: relative to ${prefix} where they are the defaults,
# so that the file stays right if the whole prefix is moved (pkg-config expands them).
# shellcheck disable=SC2016
pc_libdir=${libdir:-'${exec_prefix}/lib'}
# shellcheck disable=SC2016
pc_includedir=${includedir:-'${prefix}/include'}
libdir=${libdir:-$prefix/lib}
includedir=${includedir:-$prefix/include}
pkgconfigdir=${pkgconfigdir:-$libdir/pkgconfig}

ffi=$(cd "$(dirname "$0")" && pwd)
version=$(sed -n 's/^version = "\([0-9][0-9.]*\)"$/\1/p' "$ffi/Cargo.toml" | head -n 1)
case $version in
*.*.*) ;;
*) echo "install.sh: no version in $ffi/Cargo.toml" >&2; exit 1 ;;
esac
abi=${version%%.*}
soname=libasmcrypto.so.$abi

# The release build of the static and the shared library, the shared one linked with its
# soname. `cargo rustc` hands the link argument to this package's own compilation only, so
# every dependency is the one `cargo build --release` builds.
echo "== cargo rustc --release -p asmcrypto-ffi (soname $soname)" >&2
messages=$(cargo rustc --release --manifest-path "$ffi/Cargo.toml" -p asmcrypto-ffi --lib \
    --crate-type cdylib,staticlib --message-format=json-render-diagnostics "$@" \
    -- -C "link-arg=-Wl,-soname,$soname")

# The two files, from cargo's report of the artifacts it built (or found fresh).
artifacts=$(printf '%s\n' "$messages" |
    grep '"reason":"compiler-artifact"' | grep '"name":"asmcrypto_ffi"' |
    sed -n 's/.*"filenames":\[\([^]]*\)\].*/\1/p' | tr ',' '\n' | tr -d '"')
so=$(printf '%s\n' "$artifacts" | grep '\.so$' || true)
a=$(printf '%s\n' "$artifacts" | grep '\.a$' || true)
if [ ! -f "$so" ] || [ ! -f "$a" ]; then
    echo "install.sh: cargo reported no libasmcrypto_ffi.so and .a" >&2
    exit 1
fi

# What a program linking the static library needs besides it. asmcrypto-ffi and its
# dependencies link no native library of their own, so this is what Rust's standard
# library needs on this target, as rustc reports it for any static library.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/probe.rs"
native=$(${RUSTC:-rustc} --edition 2021 --crate-type staticlib --crate-name probe \
    --out-dir "$tmp" --print native-static-libs "$tmp/probe.rs" 2>&1 |
    sed -n 's/.*native-static-libs: //p')
if [ -z "$native" ]; then
    echo "install.sh: rustc printed no native-static-libs" >&2
    exit 1
fi

description=$(sed -n 's/^description = "\(.*\)"$/\1/p' "$ffi/Cargo.toml" | head -n 1)
cat >"$tmp/asmcrypto.pc" <<EOF
prefix=$prefix
exec_prefix=\${prefix}
libdir=$pc_libdir
includedir=$pc_includedir
# What the static library needs after it (also Libs.private, for pkg-config --static).
native_libs=$native

Name: asmcrypto
Description: $description
Version: $version
Libs: -L\${libdir} -lasmcrypto
Libs.private: \${native_libs}
Cflags: -I\${includedir}
EOF

install -d "$destdir$libdir" "$destdir$includedir" "$destdir$pkgconfigdir"
install -m 0755 "$so" "$destdir$libdir/libasmcrypto.so.$version"
ln -sf "libasmcrypto.so.$version" "$destdir$libdir/$soname"
ln -sf "$soname" "$destdir$libdir/libasmcrypto.so"
install -m 0644 "$a" "$destdir$libdir/libasmcrypto.a"
install -m 0644 "$ffi/include/asmcrypto.h" "$destdir$includedir/asmcrypto.h"
install -m 0644 "$tmp/asmcrypto.pc" "$destdir$pkgconfigdir/asmcrypto.pc"

for f in "$libdir/libasmcrypto.so.$version" "$libdir/$soname" "$libdir/libasmcrypto.so" \
    "$libdir/libasmcrypto.a" "$includedir/asmcrypto.h" "$pkgconfigdir/asmcrypto.pc"; do
    echo "installed $destdir$f"
done

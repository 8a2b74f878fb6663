// Package asmcrypto calls the asmcrypto C ABI (ffi/include/asmcrypto.h) through cgo:
// Ethereum signature recovery and Keccak-256, and P-256 (secp256r1) ECDSA verification
// by the rules of the EVM's P256VERIFY (EIP-7951).
//
// RecoverPubkey has the semantics of go-ethereum's crypto/secp256k1.RecoverPubkey: the
// same inputs, the same result, and errors with the same messages, checked in the same
// order (message length, signature length, recovery id, then the recovery itself).
//
// The package links the installed C library, which it finds through pkg-config (module
// asmcrypto). Install it first, from the repository root:
//
//	ffi/install.sh --prefix /usr/local
//
// For another prefix, point pkg-config at it (PKG_CONFIG_PATH=PREFIX/lib/pkgconfig), and
// the dynamic loader too, as for any shared library outside its search path
// (LD_LIBRARY_PATH, or CGO_LDFLAGS="-Wl,-rpath,PREFIX/lib" when building). After the
// library moves to another prefix, run `go clean -cache`: Go's build cache can keep the
// link flags pkg-config gave for the old one.
//
// Every function is safe for concurrent use. RecoverAddresses and P256VerifyBatch run long
// batches (at least two chunks: 2 x 64 signatures) on a process-wide pool of worker
// threads (see the header).
package asmcrypto

/*
#cgo pkg-config: asmcrypto
#include "asmcrypto.h"
*/
import "C"

import (
	"errors"
	"unsafe"
)

// The errors of RecoverPubkey and RecoverAddress, with go-ethereum's messages.
var (
	ErrInvalidMsgLen       = errors.New("invalid message length, need 32 bytes")
	ErrInvalidSignatureLen = errors.New("invalid signature length")
	ErrInvalidRecoveryID   = errors.New("invalid signature recovery id")
	ErrRecoverFailed       = errors.New("recovery failed")
)

func cbytes(b []byte) *C.uchar {
	return (*C.uchar)(unsafe.Pointer(&b[0]))
}

// RecoverPubkey returns the uncompressed public key (65 bytes: 0x04, X, Y) that made sig
// over msg. msg is a 32-byte hash; sig is r (32) ‖ s (32) ‖ recid, with recid 0..3
// (libsecp256k1's recovery id: bit 0 is the parity of R's y, bit 1 means R's x is r + n).
func RecoverPubkey(msg, sig []byte) ([]byte, error) {
	if len(msg) != 32 {
		return nil, ErrInvalidMsgLen
	}
	if len(sig) != 65 {
		return nil, ErrInvalidSignatureLen
	}
	if sig[64] > 3 {
		return nil, ErrInvalidRecoveryID
	}
	pub := make([]byte, 65)
	if C.asmcrypto_ecdsa_recover(cbytes(pub), cbytes(sig), cbytes(msg)) != 1 {
		return nil, ErrRecoverFailed
	}
	return pub, nil
}

// RecoverAddress returns the Ethereum address (keccak256(X ‖ Y)[12:]) of the key that
// made sig = r ‖ s ‖ v over msg, where v is 0 or 1 (the parity of R's y), or 27 or 28.
func RecoverAddress(msg, sig []byte) ([20]byte, error) {
	var addr [20]byte
	if len(msg) != 32 {
		return addr, ErrInvalidMsgLen
	}
	if len(sig) != 65 {
		return addr, ErrInvalidSignatureLen
	}
	if v := sig[64]; v != 0 && v != 1 && v != 27 && v != 28 {
		return addr, ErrInvalidRecoveryID
	}
	if C.asmcrypto_recover_address(cbytes(addr[:]), cbytes(msg), cbytes(sig)) != 1 {
		return addr, ErrRecoverFailed
	}
	return addr, nil
}

// RecoverAddresses recovers len(msgs) signatures at once (sigs[i] in RecoverAddress's
// format, over msgs[i]): addrs[i] is the address and ok[i] reports whether entry i was
// recovered (a failed entry has a zero address). msgs and sigs must have the same length.
func RecoverAddresses(msgs [][32]byte, sigs [][65]byte) (addrs [][20]byte, ok []bool, err error) {
	if len(msgs) != len(sigs) {
		return nil, nil, errors.New("asmcrypto: msgs and sigs differ in length")
	}
	n := len(msgs)
	addrs = make([][20]byte, n)
	ok = make([]bool, n)
	if n == 0 {
		return addrs, ok, nil
	}
	flags := make([]byte, n)
	C.asmcrypto_recover_addresses(C.size_t(n), cbytes(msgs[0][:]), cbytes(sigs[0][:]),
		cbytes(addrs[0][:]), cbytes(flags))
	for i, f := range flags {
		ok[i] = f == 1
	}
	return addrs, ok, nil
}

// EcrecoverPrecompile is the EVM precompile at address 0x01: the 32-byte output word for
// the call data input, or nil for the precompile's empty output.
func EcrecoverPrecompile(input []byte) []byte {
	out := make([]byte, 32)
	var in *C.uchar
	if len(input) > 0 {
		in = cbytes(input)
	}
	if C.asmcrypto_ecrecover_precompile(in, C.size_t(len(input)), cbytes(out)) != 32 {
		return nil
	}
	return out
}

// The errors of P256Verify: one per check of EIP-7951 that can fail, with the messages of
// the Rust crate's P256Error, and ErrInvalidKeyLen for a key that is not 64 bytes (a hash
// that is not 32 bytes gives ErrInvalidMsgLen, a signature that is not 64 bytes
// ErrInvalidSignatureLen).
var (
	ErrInvalidKeyLen               = errors.New("invalid public key length, need 64 bytes")
	ErrP256InvalidR                = errors.New("signature r is zero or not below the P-256 group order")
	ErrP256InvalidS                = errors.New("signature s is zero or not below the P-256 group order")
	ErrP256KeyCoordinateOutOfRange = errors.New("public key coordinate is not below the P-256 field prime")
	ErrP256KeyNotOnCurve           = errors.New("public key is not a point on P-256")
	ErrP256Mismatch                = errors.New("signature does not match the hash and public key")
	// ErrP256Failed is a failure that this version of the package does not name (a reason
	// code added to the C library later); it never comes from this version's library.
	ErrP256Failed = errors.New("p256 verification failed")
)

// P256Verify verifies a P-256 (secp256r1) ECDSA signature by the rules of the EVM's
// P256VERIFY precompile (EIP-7951): hash is the 32-byte message hash (taken as an integer
// as it stands, not truncated), sig is r (32) ‖ s (32) and key is qx (32) ‖ qy (32), all
// big-endian (the uncompressed key without its 0x04 prefix). It returns nil for a valid
// signature, else the error of the first check that failed, in EIP-7951's order:
// ErrP256InvalidR, ErrP256InvalidS (r and s must be in [1, n-1]; high s is valid),
// ErrP256KeyCoordinateOutOfRange (qx, qy below p), ErrP256KeyNotOnCurve, ErrP256Mismatch.
// It returns nil exactly when P256VerifyPrecompile(hash ‖ sig ‖ key) is not nil.
func P256Verify(hash, sig, key []byte) error {
	if len(hash) != 32 {
		return ErrInvalidMsgLen
	}
	if len(sig) != 64 {
		return ErrInvalidSignatureLen
	}
	if len(key) != 64 {
		return ErrInvalidKeyLen
	}
	var reason C.int
	if C.asmcrypto_p256_verify(cbytes(hash), cbytes(sig), cbytes(key), &reason) == 1 {
		return nil
	}
	switch reason {
	case C.ASMCRYPTO_P256_INVALID_R:
		return ErrP256InvalidR
	case C.ASMCRYPTO_P256_INVALID_S:
		return ErrP256InvalidS
	case C.ASMCRYPTO_P256_KEY_COORDINATE_OUT_OF_RANGE:
		return ErrP256KeyCoordinateOutOfRange
	case C.ASMCRYPTO_P256_KEY_NOT_ON_CURVE:
		return ErrP256KeyNotOnCurve
	case C.ASMCRYPTO_P256_MISMATCH:
		return ErrP256Mismatch
	}
	return ErrP256Failed
}

// P256VerifyPrecompile is the EVM precompile P256VERIFY at address 0x100 (EIP-7951): the
// 32-byte output word (31 zero bytes, then 1) when input is exactly 160 bytes, hash ‖ r ‖
// s ‖ qx ‖ qy, holding a valid signature; nil, the precompile's empty output, otherwise.
func P256VerifyPrecompile(input []byte) []byte {
	out := make([]byte, 32)
	var in *C.uchar
	if len(input) > 0 {
		in = cbytes(input)
	}
	if C.asmcrypto_p256verify_precompile(in, C.size_t(len(input)), cbytes(out)) != 32 {
		return nil
	}
	return out
}

// P256VerifyBatch verifies len(inputs) P256VERIFY inputs at once (each hash ‖ r ‖ s ‖
// qx ‖ qy, 160 bytes): valid[i] reports whether P256VerifyPrecompile(inputs[i][:]) would
// return the success word.
func P256VerifyBatch(inputs [][160]byte) (valid []bool) {
	n := len(inputs)
	valid = make([]bool, n)
	if n == 0 {
		return valid
	}
	flags := make([]byte, n)
	C.asmcrypto_p256_verify_batch(C.size_t(n), cbytes(inputs[0][:]), cbytes(flags))
	for i, f := range flags {
		valid[i] = f == 1
	}
	return valid
}

// Keccak256 is Ethereum's Keccak-256 of data.
func Keccak256(data []byte) [32]byte {
	var h [32]byte
	var in *C.uchar
	if len(data) > 0 {
		in = cbytes(data)
	}
	C.asmcrypto_keccak256(in, C.size_t(len(data)), cbytes(h[:]))
	return h
}

// Backend names the path the batch call takes on this CPU: "avx512-ifma", "avx512f" or
// "scalar".
func Backend() string {
	return C.GoString(C.asmcrypto_backend())
}

/*
 * asmcrypto.h: the C ABI of asmcrypto, fast Ethereum signature recovery
 * (secp256k1 ECDSA public-key recovery, then Keccak-256 of the key), and the EVM's
 * P256VERIFY (EIP-7951: secp256r1 / P-256 ECDSA verification).
 *
 * Installed with ffi/install.sh (libasmcrypto.so.0, libasmcrypto.a, asmcrypto.pc), link
 * with the shared library:
 *     cc prog.c $(pkg-config --cflags --libs asmcrypto)
 * or with the static one (the archive in pkg-config's libdir, then its native_libs):
 *     cc prog.c $(pkg-config --cflags asmcrypto)
 *        "$(pkg-config --variable=libdir asmcrypto)/libasmcrypto.a"
 *        $(pkg-config --variable=native_libs asmcrypto)
 *
 * Conventions, for every function below:
 * - No context object and no initialisation call. Every function is reentrant and
 *   thread-safe: any number of threads may call any of them at once. The only shared
 *   state is written once on first use (the CPU-feature detection behind
 *   asmcrypto_backend(), and the worker pool of asmcrypto_recover_addresses and
 *   asmcrypto_p256_verify_batch).
 * - Nothing is retained: no pointer is kept after the call returns.
 * - Sizes are in bytes. Buffers need no alignment.
 * - A NULL pointer, or a length whose buffer could not exist (its byte count overflows
 *   size_t or exceeds PTRDIFF_MAX), makes the function fail (return 0) without reading
 *   anything; it never crashes. A NULL input pointer with length 0 is the empty input.
 *   (The one optional pointer: asmcrypto_p256_verify's reason_out may be NULL.)
 * - On failure a single-result function zero-fills its output buffer, if that is not NULL.
 * - No Rust panic and no unwinding ever crosses into the caller.
 * - Names starting with asmcrypto_ are reserved for this library.
 * - Everything runs in variable time: recovery and verification handle only public data.
 *   Do not use this library for anything that involves secrets.
 * - Invalid signatures are ordinary inputs: r or s zero or >= n, r not the x-coordinate
 *   of a curve point, a key at infinity, a bad recovery id all return 0. High s
 *   (s > n/2) is accepted, as by libsecp256k1 and the EVM: the low-s rule of transactions
 *   belongs to the caller.
 */
#ifndef ASMCRYPTO_H
#define ASMCRYPTO_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Public-key recovery with the contract of go-ethereum's secp256k1_ext_ecdsa_recover
 * (libsecp256k1's recoverable_signature_parse_compact + ecdsa_recover +
 * ec_pubkey_serialize, uncompressed).
 *
 *   sig         65 bytes: r (32, big-endian) || s (32, big-endian) || recid (1 byte).
 *               recid is libsecp256k1's recovery id, 0..3: bit 0 is the parity of R's y,
 *               bit 1 means R's x is r + n. recid 4..255 fails.
 *   msg         32 bytes: the message hash, taken mod n.
 *   pubkey_out  65 bytes: 0x04 || X (32) || Y (32). May overlap sig or msg.
 *
 * Returns 1 on success, 0 on any failure (pubkey_out is then zero-filled, if not NULL).
 */
int asmcrypto_ecdsa_recover(unsigned char pubkey_out[65],
                            const unsigned char sig[65], const unsigned char msg[32]);

/*
 * The Ethereum address of the signer: keccak256(X || Y)[12..32].
 *
 *   msg       32 bytes: the signing hash.
 *   sig       65 bytes: r || s || v, where v = sig[64] is 0 or 1 (the parity of R's y),
 *             or 27 or 28 (legacy form, parity + 27). Any other v fails: reduce EIP-155
 *             v = 35 + 2 * chain_id + parity to the parity first.
 *   addr_out  20 bytes. May overlap msg or sig.
 *
 * Returns 1 on success, 0 on any failure (addr_out is then zero-filled, if not NULL).
 */
int asmcrypto_recover_address(unsigned char addr_out[20],
                              const unsigned char msg[32], const unsigned char sig[65]);

/*
 * n signatures at once, any n (0 included). Entry i (0 <= i < n) reads
 * msgs[32i .. 32i+32] and sigs[65i .. 65i+65] (the format of asmcrypto_recover_address),
 * and writes addrs_out[20i .. 20i+20] and ok_out[i]: exactly what
 * asmcrypto_recover_address(addrs_out + 20i, msgs + 32i, sigs + 65i) would write and
 * return (a failed entry gets ok_out[i] = 0 and 20 zero bytes).
 *
 *   msgs       n * 32 bytes      sigs    n * 65 bytes
 *   addrs_out  n * 20 bytes      ok_out  n bytes, each set to 1 or 0
 *   The output buffers must overlap neither each other nor the inputs.
 *
 * Returns the number of entries recovered (the number of 1s in ok_out). If n is 0, a
 * pointer is NULL, or n * 65 overflows size_t or exceeds PTRDIFF_MAX, returns 0 and
 * writes nothing.
 *
 * Threads: this is the fast path (shared inversions between signatures). Long inputs
 * (at least two chunks: 2 x 64 signatures, on a pool of two threads or more) are spread
 * over a process-wide pool of worker threads (rayon's global pool: one thread per CPU,
 * started by the first such call, kept for the life of the process; RAYON_NUM_THREADS in
 * the environment at that first call sets their number, and RAYON_NUM_THREADS=1 keeps all
 * work on a single worker). The call returns when every entry is written. Shorter inputs
 * run on the calling thread.
 */
size_t asmcrypto_recover_addresses(size_t n, const unsigned char *msgs,
                                   const unsigned char *sigs, unsigned char *addrs_out,
                                   unsigned char *ok_out);

/*
 * The EVM precompile at address 0x01 (ecrecover), byte for byte.
 *
 *   input  len bytes of call data, right-padded with zeros to 128 bytes; bytes past 128
 *          are ignored. Layout: hash (32) || v (32-byte big-endian word, exactly 27 or
 *          28) || r (32) || s (32). NULL with len 0 is the empty input.
 *   out    32 bytes: 12 zero bytes, then the 20-byte address. May overlap input.
 *
 * Returns 32 (out filled) or 0: the precompile's empty output (any failure; out is then
 * zero-filled, if not NULL).
 */
size_t asmcrypto_ecrecover_precompile(const unsigned char *input, size_t len,
                                      unsigned char out[32]);

/*
 * P-256 (secp256r1) ECDSA verification, by the rules of the EVM's P256VERIFY (EIP-7951),
 * in its order of checks:
 *   r and s in [1, n-1] (never reduced; high s is valid: no low-s rule), qx and qy below
 *   p (never reduced), (qx, qy) on the curve (so not (0, 0), the encoding of infinity),
 *   R' = (h * s^-1) G + (r * s^-1) Q not at infinity, and x(R') = r (mod n). The hash h
 *   is taken as a 256-bit integer as it stands (no truncation; h >= n is allowed).
 *
 *   hash        32 bytes: the message hash h (big-endian).
 *   sig         64 bytes: r (32, big-endian) || s (32, big-endian).
 *   key         64 bytes: qx (32) || qy (32), big-endian: the uncompressed public key
 *               without its 0x04 prefix.
 *   reason_out  NULL, or one int: set to ASMCRYPTO_P256_OK for a valid signature, else to
 *               the code of the first check that failed (below).
 *
 * Returns 1 if the signature is valid, 0 otherwise (a NULL hash, sig or key included:
 * reason ASMCRYPTO_P256_FAILED). It returns 1 exactly when
 * asmcrypto_p256verify_precompile of hash || sig || key returns 32. The return value is
 * only ever 0 or 1, so that `if (asmcrypto_p256_verify(...))` means "valid"; the reason
 * is a separate output. Later versions may add reason codes (for a check this one does
 * not name): treat any code other than ASMCRYPTO_P256_OK as a failure.
 */
#define ASMCRYPTO_P256_OK 0                          /* valid */
#define ASMCRYPTO_P256_INVALID_R 1                   /* r is 0 or >= n */
#define ASMCRYPTO_P256_INVALID_S 2                   /* s is 0 or >= n */
#define ASMCRYPTO_P256_KEY_COORDINATE_OUT_OF_RANGE 3 /* qx >= p or qy >= p */
#define ASMCRYPTO_P256_KEY_NOT_ON_CURVE 4            /* not on P-256; (0, 0) included */
#define ASMCRYPTO_P256_MISMATCH 5   /* well formed, but R' is at infinity or x(R') != r */
#define ASMCRYPTO_P256_FAILED (-1)  /* a NULL hash, sig or key; an internal error */
int asmcrypto_p256_verify(const unsigned char hash[32], const unsigned char sig[64],
                          const unsigned char key[64], int *reason_out);

/*
 * The EVM precompile at address 0x100 (P256VERIFY, EIP-7951), byte for byte.
 *
 *   input  len bytes of call data: hash (32) || r (32) || s (32) || qx (32) || qy (32).
 *          Any len other than exactly 160 fails (nothing is read then).
 *   out    32 bytes: 31 zero bytes, then 1. May overlap input.
 *
 * Returns 32 (a valid signature: out filled) or 0: the precompile's empty output (any
 * failure; out is then zero-filled, if not NULL).
 */
size_t asmcrypto_p256verify_precompile(const unsigned char *input, size_t len,
                                       unsigned char out[32]);

/*
 * n P256VERIFY inputs at once, any n (0 included). Entry i (0 <= i < n) reads
 * inputs[160i .. 160i+160] (hash || r || s || qx || qy, as asmcrypto_p256verify_precompile)
 * and sets ok_out[i] to 1 if the signature is valid, else 0: exactly whether
 * asmcrypto_p256verify_precompile(inputs + 160i, 160, ...) would return 32.
 *
 *   inputs  n * 160 bytes
 *   ok_out  n bytes, each set to 1 or 0. Must not overlap inputs.
 *
 * Returns the number of valid entries (the number of 1s in ok_out). If n is 0, a pointer
 * is NULL, or n * 160 overflows size_t or exceeds PTRDIFF_MAX, returns 0 and writes
 * nothing.
 *
 * The fast path: the inversions are shared between signatures. Threads as for
 * asmcrypto_recover_addresses: long inputs are spread over the same process-wide pool,
 * shorter ones run on the calling thread.
 */
size_t asmcrypto_p256_verify_batch(size_t n, const unsigned char *inputs,
                                   unsigned char *ok_out);

/*
 * Keccak-256 (Ethereum's, with the original Keccak padding, not SHA3-256) of the len
 * bytes at data, written to out (32 bytes; may overlap data).
 * NULL out: does nothing. NULL data with len 0: the hash of the empty input. NULL data
 * with len > 0, or len > PTRDIFF_MAX: out is zero-filled.
 */
void asmcrypto_keccak256(const unsigned char *data, size_t len, unsigned char out[32]);

/*
 * The path the batch call takes on this CPU: "avx512-ifma" (8 signatures in AVX-512 IFMA
 * registers), "avx512f" (8 signatures in AVX-512 registers without IFMA) or "scalar" (the
 * portable core). A static NUL-terminated string: never free it. Results are identical on
 * every path. The CPU is examined once, at the first call of this function or of
 * asmcrypto_recover_addresses; ASMCRYPTO_BACKEND in the environment at that moment names
 * the path to start from ("avx512-ifma", "avx512f" or "scalar": the first of them, in
 * that order, that the CPU has).
 */
const char *asmcrypto_backend(void);

#ifdef __cplusplus
}
#endif

#endif /* ASMCRYPTO_H */

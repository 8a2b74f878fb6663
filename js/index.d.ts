// asmcrypto: Ethereum signature recovery (secp256k1 ecrecover) and Keccak-256.
// The same declarations serve the main entry (the native addon) and 'asmcrypto/wasm'.

/** Bytes: a Uint8Array (a Buffer is one) or a 0x-prefixed hex string of whole bytes. */
export type BytesLike = Uint8Array | `0x${string}`;

/** The results of a batch: 20 bytes per signature (zeros where recovery failed) and one
 * flag per signature (1 recovered, 0 failed), in input order. */
export interface BatchResult {
  addresses: Uint8Array;
  valid: Uint8Array;
}

export interface BatchOptions {
  /** 1 (the default): the calling thread (in recoverAddressesAsync, one task of libuv's
   * pool); k > 1: k threads (k pool tasks), each taking at least 256 signatures; 0: one
   * per CPU. The WebAssembly build runs on one thread whatever the value. */
  threads?: number;
}

/** The signer's 20-byte address for a 32-byte hash and a 65-byte signature r ‖ s ‖ v,
 * v ∈ {0, 1, 27, 28}. Throws an AsmcryptoError subclass for a signature that cannot be
 * recovered, TypeError / RangeError for an argument of the wrong type / length. */
export function recoverAddress(hash: BytesLike, signature: BytesLike): Uint8Array;

/** The signer's public key, 64 bytes X ‖ Y (uncompressed, without the 0x04 prefix).
 * Arguments and errors as recoverAddress. */
export function recoverPublicKey(hash: BytesLike, signature: BytesLike): Uint8Array;

/** The EVM's ecrecover precompile (address 0x01) on its input, byte for byte: 32 bytes (12
 * zero bytes, then the address) or an empty array, the EVM's empty output, for any input
 * that does not recover. The input is hash ‖ v (a 32-byte word, 27 or 28) ‖ r ‖ s; a shorter
 * one is right-padded with zeros, bytes past the 128th are ignored. */
export function ecrecoverPrecompile(input: BytesLike): Uint8Array;

/** Ethereum's Keccak-256 (the original padding, not SHA3-256's): 32 bytes. */
export function keccak256(data: BytesLike): Uint8Array;

/** A whole batch in one call. Each side is one Uint8Array of n items back to back (n × 32
 * bytes of hashes, n × 65 of signatures) or an array of n items. Each result is exactly
 * recoverAddress's for that signature. RangeError when the sides differ in count. */
export function recoverAddresses(
  hashes: Uint8Array | readonly BytesLike[],
  signatures: Uint8Array | readonly BytesLike[],
  options?: BatchOptions,
): BatchResult;

/** recoverAddresses off the event loop, on libuv's thread pool (the native addon) or in
 * slices between which the event loop runs (WebAssembly). The inputs are copied when the
 * call is made. */
export function recoverAddressesAsync(
  hashes: Uint8Array | readonly BytesLike[],
  signatures: Uint8Array | readonly BytesLike[],
  options?: BatchOptions,
): Promise<BatchResult>;

/** The batch path this CPU takes: "avx512-ifma", "avx512f" or "scalar" ("scalar" in
 * WebAssembly). ASMCRYPTO_BACKEND in the environment, read at the first call, can start
 * lower. */
export function backend(): string;

/** Every choice made from the CPU, as one line: the batch path, the field multiply, the
 * Keccak permutation and the batch Keccak. */
export function backendDetails(): string;

/** A signature that cannot be recovered: the base class of asmcrypto's errors. */
export class AsmcryptoError extends Error {
  /** A stable string naming the kind: ASMCRYPTO_INVALID_RECOVERY_ID, ASMCRYPTO_INVALID_R,
   * ASMCRYPTO_INVALID_S, ASMCRYPTO_NOT_ON_CURVE or ASMCRYPTO_POINT_AT_INFINITY. */
  readonly code: string;
}
/** The recovery id v is not 0, 1, 27 or 28. */
export class InvalidRecoveryIdError extends AsmcryptoError {
  /** The recovery id that was given. */
  readonly v: number;
}
/** r is zero or not below the group order n. */
export class InvalidRError extends AsmcryptoError {}
/** s is zero or not below the group order n. */
export class InvalidSError extends AsmcryptoError {}
/** r is not the x-coordinate of a point on secp256k1. */
export class NotOnCurveError extends AsmcryptoError {}
/** The recovered public key would be the point at infinity. */
export class PointAtInfinityError extends AsmcryptoError {}

// viem's recovery functions with viem's argument types ('asmcrypto/viem' and
// 'asmcrypto/wasm/viem'). The types are written here, so that viem need not be installed.

export type Hex = `0x${string}`;
export type ByteArray = Uint8Array;
/** viem's Signature: r and s as hex, with yParity or v (27, 28, or EIP-155's
 * chainId · 2 + 35 + parity). */
export interface Signature {
  r: Hex;
  s: Hex;
  v?: bigint;
  yParity?: number;
}
/** viem's SignableMessage: text (UTF-8) or raw bytes. */
export type SignableMessage = string | { raw: Hex | ByteArray };

/** viem's recoverAddress: the signer's EIP-55 checksummed address. */
export function recoverAddress(parameters: {
  hash: Hex | ByteArray;
  signature: Hex | ByteArray | Signature;
}): Promise<Hex>;

/** viem's recoverMessageAddress: the signer of an EIP-191 personal message. */
export function recoverMessageAddress(parameters: {
  message: SignableMessage;
  signature: Hex | ByteArray | Signature;
}): Promise<Hex>;

/** viem's recoverPublicKey: the uncompressed key, 0x04 ‖ X ‖ Y in hex. */
export function recoverPublicKey(parameters: {
  hash: Hex | ByteArray;
  signature: Hex | ByteArray | Signature;
}): Promise<Hex>;

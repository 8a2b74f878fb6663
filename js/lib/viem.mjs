// viem's recovery functions, with viem's argument shapes and viem's exact results, over
// this package's functions (`makeViem(api)`, api from lib/api.mjs). Each step below follows
// viem 2's own (utils/signature/recoverPublicKey.js and the files beside it) and
// @noble/curves 1.9's `Signature.recoverPublicKey`, which viem calls.

import { bytesToHex, describe, hexToBytes } from './bytes.mjs';
import { InvalidRError, InvalidRecoveryIdError, InvalidSError } from './errors.mjs';

const utf8 = new TextEncoder();

/** noble's bound on a hash's length (its DoS guard in bits2int). */
const MAX_HASH_BYTES = 8192;

/** viem's `toRecoveryBit`: y parity 0 or 1, or v 27 or 28. */
function toRecoveryBit(yParityOrV) {
  if (yParityOrV === 0 || yParityOrV === 1) return yParityOrV;
  if (yParityOrV === 27) return 0;
  if (yParityOrV === 28) return 1;
  throw new InvalidRecoveryIdError(yParityOrV);
}

/** A hex string or bytes, as viem takes `Hex | ByteArray`. */
function hexOrBytes(value, name) {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string') return hexToBytes(value, name);
  throw new TypeError(
    `${name}: expected a 0x-prefixed hex string or a Uint8Array, got ${describe(value)}`,
  );
}

/** The 32-byte hash noble recovers with: bits2int of the bytes, so a shorter hash is its
 * integer value (zeros on the left) and a longer one its leftmost 256 bits. */
function hash32(hash) {
  const bytes = hexOrBytes(hash, 'hash');
  if (bytes.length === 32) return bytes;
  if (bytes.length > MAX_HASH_BYTES) {
    throw new RangeError(`hash: ${bytes.length} bytes, above ${MAX_HASH_BYTES}`);
  }
  const out = new Uint8Array(32);
  if (bytes.length > 32) out.set(bytes.subarray(0, 32));
  else out.set(bytes, 32 - bytes.length);
  return out;
}

/** r or s of a signature object (viem's `hexToBigInt`: any hex, a bigint too) as 32 bytes;
 * a value that does not fit is out of [1, n − 1], as noble finds it. */
function scalar32(value, ErrorClass, name) {
  if (typeof value !== 'string' && typeof value !== 'bigint') {
    throw new TypeError(`${name}: expected a hex string, got ${describe(value)}`);
  }
  const k = BigInt(value);
  if (k < 0n || k >= 1n << 256n) throw new ErrorClass();
  return hexToBytes(`0x${k.toString(16).padStart(64, '0')}`, name);
}

/** The 65 bytes r ‖ s ‖ y parity of any signature viem takes. */
function signature65(signature) {
  // A signature object: { r, s } with yParity or v (27, 28, or EIP-155's chainId·2 + 35 + parity).
  if (
    signature !== null &&
    typeof signature === 'object' &&
    'r' in signature &&
    's' in signature
  ) {
    const { r, s, v, yParity } = signature;
    const bit =
      yParity === undefined && v !== undefined && v >= 35n
        ? v % 2n === 0n
          ? 1
          : 0
        : toRecoveryBit(Number(yParity ?? v));
    const sig = new Uint8Array(65);
    sig.set(scalar32(r, InvalidRError, 'signature.r'), 0);
    sig.set(scalar32(s, InvalidSError, 'signature.s'), 32);
    sig[64] = bit;
    return sig;
  }
  // Hex or bytes: r ‖ s ‖ v, 65 bytes, v 0, 1, 27 or 28.
  const bytes = hexOrBytes(signature, 'signature');
  if (bytes.length !== 65) throw new RangeError('invalid signature length');
  const sig = bytes.slice();
  sig[64] = toRecoveryBit(bytes[64]);
  return sig;
}

/** EIP-55: the address's hex with each letter upper-case where its nibble of
 * keccak256(lowercase hex) is 8 or more. */
export function checksumAddress(api, address) {
  const lower = bytesToHex(address).slice(2);
  const hash = api.keccak256(utf8.encode(lower));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const nibble = i % 2 === 0 ? hash[i >> 1] >> 4 : hash[i >> 1] & 15;
    out += nibble >= 8 ? lower[i].toUpperCase() : lower[i];
  }
  return out;
}

/** The bytes EIP-191 signs for a viem `SignableMessage`: a string as UTF-8, or `{ raw }`
 * (hex, odd length padded on the left as viem does, or bytes). */
function messageBytes(message) {
  if (typeof message === 'string') return utf8.encode(message);
  if (message !== null && typeof message === 'object' && 'raw' in message) {
    const { raw } = message;
    if (typeof raw === 'string' && raw.length % 2 === 1) {
      return hexToBytes(`0x0${raw.slice(2)}`, 'message.raw');
    }
    return hexOrBytes(raw, 'message.raw');
  }
  throw new TypeError(
    `message: expected a string or { raw: hex or Uint8Array }, got ${describe(message)}`,
  );
}

/** viem's recovery functions over `api` (lib/api.mjs's functions on a backend). */
export function makeViem(api) {
  return {
    /** viem's `recoverPublicKey`: the uncompressed key, `0x04` ‖ X ‖ Y in hex. */
    async recoverPublicKey({ hash, signature }) {
      const key = api.recoverPublicKey(hash32(hash), signature65(signature));
      return `0x04${bytesToHex(key).slice(2)}`;
    },

    /** viem's `recoverAddress`: the signer's EIP-55 checksummed address. */
    async recoverAddress({ hash, signature }) {
      return checksumAddress(api, api.recoverAddress(hash32(hash), signature65(signature)));
    },

    /** viem's `recoverMessageAddress`: the signer of an EIP-191 personal message. */
    async recoverMessageAddress({ message, signature }) {
      const body = messageBytes(message);
      const prefix = utf8.encode(`\x19Ethereum Signed Message:\n${body.length}`);
      const prefixed = new Uint8Array(prefix.length + body.length);
      prefixed.set(prefix);
      prefixed.set(body, prefix.length);
      const hash = api.keccak256(prefixed);
      return checksumAddress(api, api.recoverAddress(hash, signature65(signature)));
    },
  };
}

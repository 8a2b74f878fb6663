// The package's functions over a backend: the Node-API addon (lib/native.mjs) or the
// WebAssembly module (wasm/backend.mjs). This layer checks and converts every argument and
// throws every error; the backend only ever sees byte arrays of the right lengths.
//
// A backend has:
//   recoverAddress(hash, sig), recoverPublicKey(hash, sig)   -> Uint8Array | status
//   ecrecoverPrecompile(input), keccak256(data)              -> Uint8Array
//   recoverAddresses(hashes, sigs, threads)                  -> { addresses, valid } | status
//   recoverAddressesAsync(hashes, sigs, threads)             -> Promise<{ addresses, valid }>
//   backend(), backendDetails()                              -> string
// with hash 32 bytes, sig 65, and a batch's hashes and sigs n items back to back.

import { describe, fixedBytes, toBytes } from './bytes.mjs';
import { recoveryError } from './errors.mjs';

/** One side of a batch, flat: `{ bytes, count }` from a Uint8Array of whole items or an
 * array of items (each a Uint8Array, a Buffer or a hex string). */
function batchSide(value, name, size) {
  if (value instanceof Uint8Array) {
    if (value.length % size !== 0) {
      throw new RangeError(
        `${name}: ${value.length} bytes are not a whole number of ${size}-byte items`,
      );
    }
    return { bytes: unshared(value), count: value.length / size };
  }
  if (Array.isArray(value)) {
    const bytes = new Uint8Array(size * value.length);
    for (let i = 0; i < value.length; i++) {
      bytes.set(fixedBytes(value[i], `${name}[${i}]`, size), size * i);
    }
    return { bytes, count: value.length };
  }
  throw new TypeError(
    `${name}: expected a Uint8Array of ${size}-byte items back to back or an array of items, ` +
      `got ${describe(value)}`,
  );
}

/** A Uint8Array the native side may read while it runs: one over a SharedArrayBuffer, which
 * another thread could write meanwhile, is copied first. */
function unshared(bytes) {
  return typeof SharedArrayBuffer !== 'undefined' && bytes.buffer instanceof SharedArrayBuffer
    ? bytes.slice()
    : bytes;
}

/** The `threads` option: a non-negative integer, 1 by default, 0 for one per CPU. */
function threadsOption(options) {
  if (options === undefined) return 1;
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`options: expected an object, got ${describe(options)}`);
  }
  const { threads = 1 } = options;
  if (typeof threads !== 'number') {
    throw new TypeError(`options.threads: expected a number, got ${describe(threads)}`);
  }
  if (!Number.isSafeInteger(threads) || threads < 0) {
    throw new RangeError(
      `options.threads: expected 0 (one per CPU) or a positive integer, got ${threads}`,
    );
  }
  return Math.min(threads, 0xffff);
}

/** A batch's two sides, checked: the flat bytes of each and the count. */
function batchInputs(hashes, signatures) {
  const h = batchSide(hashes, 'hashes', 32);
  const s = batchSide(signatures, 'signatures', 65);
  if (h.count !== s.count) {
    throw new RangeError(
      `hashes has ${h.count} items and signatures ${s.count}: one hash per signature`,
    );
  }
  return [h.bytes, s.bytes];
}

/** The package's public functions over `backend`. */
export function makeApi(backend) {
  /** A single recovery: the value, or the error its status names. */
  const single = (fn, hash, signature) => {
    const h = unshared(fixedBytes(hash, 'hash', 32));
    const s = unshared(fixedBytes(signature, 'signature', 65));
    const result = fn(h, s);
    if (typeof result === 'number') throw recoveryError(result, s[64]);
    return result;
  };

  return {
    recoverAddress(hash, signature) {
      return single(backend.recoverAddress, hash, signature);
    },

    recoverPublicKey(hash, signature) {
      return single(backend.recoverPublicKey, hash, signature);
    },

    ecrecoverPrecompile(input) {
      return backend.ecrecoverPrecompile(unshared(toBytes(input, 'input')));
    },

    keccak256(data) {
      return backend.keccak256(unshared(toBytes(data, 'data')));
    },

    recoverAddresses(hashes, signatures, options) {
      const threads = threadsOption(options);
      const [h, s] = batchInputs(hashes, signatures);
      const result = backend.recoverAddresses(h, s, threads);
      if (typeof result === 'number') throw recoveryError(result, 0);
      return result;
    },

    async recoverAddressesAsync(hashes, signatures, options) {
      const threads = threadsOption(options);
      const [h, s] = batchInputs(hashes, signatures);
      return backend.recoverAddressesAsync(h, s, threads);
    },

    backend() {
      return backend.backend();
    },

    backendDetails() {
      return backend.backendDetails();
    },
  };
}

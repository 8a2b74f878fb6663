// The WebAssembly module (asmcrypto.wasm, built from js/src/wasm.rs) as a backend of
// lib/api.mjs. The module has no imports; its functions work on one I/O buffer in its
// memory, whose address `io(len)` returns after making it at least len bytes long: inputs
// are written there, outputs read back from its start (js/src/wasm.rs has the table).

/** A batch goes through the module this many signatures at a time, so that the I/O buffer
 * (97 bytes a signature) stays small. */
const SYNC_CHUNK = 4096;
/** recoverAddressesAsync yields to the event loop after each run of this many signatures
 * (about 10 ms of work here). */
const ASYNC_CHUNK = 128;
/** Keccak-256 absorbs long data this many bytes at a time. */
const KECCAK_CHUNK = 1 << 16;

/** Lets the event loop run (timers, I/O, rendering) before going on. */
const yieldToEventLoop =
  typeof setImmediate === 'function'
    ? () => new Promise((resolve) => setImmediate(resolve))
    : () =>
        new Promise((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => {
            channel.port1.close();
            resolve();
          };
          channel.port2.postMessage(null);
        });

/** The backend over an instance's exports. */
export function wasmBackend(wasm) {
  const text = new TextDecoder();

  /** The I/O buffer, at least `len` bytes, as a view (made after the call that sizes it:
   * growing the memory detaches older views). */
  const io = (len) => {
    const at = wasm.io(len);
    return new Uint8Array(wasm.memory.buffer, at, len);
  };
  /** The first `len` bytes of the I/O buffer, copied out. */
  const output = (len) => io(len).slice();

  const single = (fn, size) => (hash, sig) => {
    const buf = io(97);
    buf.set(hash, 0);
    buf.set(sig, 32);
    const status = fn();
    return status === 0 ? output(size) : status;
  };

  /** Signatures [from, to) of a flat batch into the results. */
  const batchRange = (hashes, sigs, from, to, addresses, valid) => {
    const n = to - from;
    const buf = io(97 * n);
    buf.set(hashes.subarray(32 * from, 32 * to), 0);
    buf.set(sigs.subarray(65 * from, 65 * to), 32 * n);
    if (wasm.recover_addresses(n) !== 0) throw new Error('asmcrypto: the batch was refused');
    const out = output(21 * n);
    addresses.set(out.subarray(0, 20 * n), 20 * from);
    valid.set(out.subarray(20 * n), from);
  };

  const backendText = (which) => text.decode(output(wasm.backend(which)));

  return {
    recoverAddress: single(wasm.recover_address, 20),
    recoverPublicKey: single(wasm.recover_public_key, 64),

    ecrecoverPrecompile(input) {
      // The precompile reads the first 128 bytes and ignores the rest.
      const head = input.subarray(0, 128);
      io(Math.max(head.length, 32)).set(head);
      return output(wasm.ecrecover_precompile(head.length));
    },

    keccak256(data) {
      for (let at = 0; at < data.length; at += KECCAK_CHUNK) {
        const piece = data.subarray(at, at + KECCAK_CHUNK);
        io(piece.length).set(piece);
        wasm.keccak_update(piece.length);
      }
      wasm.keccak_finish();
      return output(32);
    },

    // One thread here: `threads` is accepted and has no effect.
    recoverAddresses(hashes, sigs) {
      const n = hashes.length / 32;
      const addresses = new Uint8Array(20 * n);
      const valid = new Uint8Array(n);
      for (let from = 0; from < n; from += SYNC_CHUNK) {
        batchRange(hashes, sigs, from, Math.min(n, from + SYNC_CHUNK), addresses, valid);
      }
      return { addresses, valid };
    },

    // On the calling thread, a run of signatures at a time, the event loop running between
    // runs. The inputs are copied first, as the addon copies them.
    async recoverAddressesAsync(hashes, sigs) {
      const h = hashes.slice();
      const s = sigs.slice();
      const n = h.length / 32;
      const addresses = new Uint8Array(20 * n);
      const valid = new Uint8Array(n);
      for (let from = 0; from < n; from += ASYNC_CHUNK) {
        await yieldToEventLoop();
        batchRange(h, s, from, Math.min(n, from + ASYNC_CHUNK), addresses, valid);
      }
      return { addresses, valid };
    },

    backend: () => backendText(0),
    backendDetails: () => backendText(1),
  };
}

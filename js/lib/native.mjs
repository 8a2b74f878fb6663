// The Node-API addon as a backend of lib/api.mjs: asmcrypto.node, built by
// scripts/build.mjs (`npm install` runs it) from js/src/node.rs.

import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';

/** The fewest signatures one task of a multi-threaded batch gets (the Rust crate's
 * MIN_THREAD_SHARE): below it, a task costs more than its share of the work saves. */
const MIN_THREAD_SHARE = 256;

function load() {
  const require = createRequire(import.meta.url);
  try {
    return require('../asmcrypto.node');
  } catch (err) {
    if (err?.code !== 'MODULE_NOT_FOUND') throw err;
    throw new Error(
      "asmcrypto: the native addon (asmcrypto.node) has not been built. It is built when the " +
        "package is installed, with Rust's cargo: run `npm rebuild asmcrypto` (or `node " +
        'scripts/build.mjs` in the package) with cargo on the PATH. In a browser, import ' +
        "'asmcrypto/wasm' instead.",
      { cause: err },
    );
  }
}

const addon = load();

/** A batch on libuv's thread pool, split into `threads` tasks (0: one per CPU) of whole
 * groups of eight and at least MIN_THREAD_SHARE signatures each. */
async function recoverAddressesAsync(hashes, sigs, threads) {
  const n = hashes.length / 32;
  const wanted = threads === 0 ? availableParallelism() : threads;
  const tasks = Math.max(1, Math.min(wanted, Math.floor(n / MIN_THREAD_SHARE)));
  if (tasks === 1) return addon.recoverAddressesAsync(hashes, sigs);
  const chunk = Math.ceil(n / tasks / 8) * 8;
  const parts = [];
  for (let i = 0; i < n; i += chunk) {
    const end = Math.min(n, i + chunk);
    // Each task copies its inputs when it is made, before this function yields.
    parts.push(
      addon.recoverAddressesAsync(hashes.subarray(32 * i, 32 * end), sigs.subarray(65 * i, 65 * end)),
    );
  }
  const results = await Promise.all(parts);
  const addresses = new Uint8Array(20 * n);
  const valid = new Uint8Array(n);
  results.forEach((part, j) => {
    addresses.set(part.addresses, 20 * chunk * j);
    valid.set(part.valid, chunk * j);
  });
  return { addresses, valid };
}

export default {
  recoverAddress: addon.recoverAddress,
  recoverPublicKey: addon.recoverPublicKey,
  ecrecoverPrecompile: addon.ecrecoverPrecompile,
  keccak256: addon.keccak256,
  recoverAddresses: addon.recoverAddresses,
  recoverAddressesAsync,
  backend: addon.backend,
  backendDetails: addon.backendDetails,
};

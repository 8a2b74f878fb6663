// asmcrypto/wasm in Node: the WebAssembly module, read and instantiated synchronously at
// import (no top-level await, so that require('asmcrypto/wasm') works too). The same
// functions as the package's main entry; the errors are the same classes.

import { readFileSync } from 'node:fs';

import { makeApi } from '../lib/api.mjs';
import { instantiateSync } from './backend.mjs';

export * from '../lib/errors.mjs';

export const {
  recoverAddress,
  recoverPublicKey,
  ecrecoverPrecompile,
  keccak256,
  recoverAddresses,
  recoverAddressesAsync,
  backend,
  backendDetails,
} = makeApi(instantiateSync(moduleBytes()));

function moduleBytes() {
  try {
    return readFileSync(new URL('./asmcrypto.wasm', import.meta.url));
  } catch (err) {
    if (err?.code !== 'ENOENT') throw err;
    throw new Error(
      'asmcrypto/wasm: the WebAssembly module (wasm/asmcrypto.wasm) has not been built. It is ' +
        "built at install with cargo and Rust's wasm32-unknown-unknown target: run `rustup " +
        'target add wasm32-unknown-unknown`, then `npm rebuild asmcrypto`.',
      { cause: err },
    );
  }
}

// The WebAssembly module's exports in Node (package.json maps #wasm-instance here under the
// "node" condition): the file read and instantiated synchronously at import, with no
// top-level await, so that require('asmcrypto/wasm') works too.

import { readFileSync } from 'node:fs';

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

export default new WebAssembly.Instance(new WebAssembly.Module(moduleBytes()), {}).exports;

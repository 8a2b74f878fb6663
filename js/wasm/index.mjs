// asmcrypto/wasm in browsers, workers, Deno, Bun and other runtimes: the WebAssembly module,
// fetched beside this file and instantiated by a top-level await, so the functions are
// ready when the import resolves. The same functions as the package's main entry; the
// errors are the same classes. (Node takes wasm/node.mjs, which reads the file itself.)

import { makeApi } from '../lib/api.mjs';
import { wasmBackend } from './backend.mjs';

export * from '../lib/errors.mjs';

async function instantiate() {
  const url = new URL('./asmcrypto.wasm', import.meta.url);
  const response = fetch(url);
  if (typeof WebAssembly.instantiateStreaming === 'function') {
    try {
      return (await WebAssembly.instantiateStreaming(response, {})).instance;
    } catch {
      // A server that does not send application/wasm: compile from the bytes instead.
    }
  }
  const bytes = await (await fetch(url)).arrayBuffer();
  return (await WebAssembly.instantiate(bytes, {})).instance;
}

export const {
  recoverAddress,
  recoverPublicKey,
  ecrecoverPrecompile,
  keccak256,
  recoverAddresses,
  recoverAddressesAsync,
  backend,
  backendDetails,
} = makeApi(wasmBackend((await instantiate()).exports));

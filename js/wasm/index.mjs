// asmcrypto/wasm: the WebAssembly module, ready when the import resolves, with the same
// functions as the package's main entry; the errors are the same classes. How the module
// is loaded depends on the runtime: #wasm-instance is wasm/instance.node.mjs in Node
// (synchronous, so require() works) and wasm/instance.mjs elsewhere (fetch and await).

import wasm from '#wasm-instance';
import { makeApi } from '../lib/api.mjs';
import { wasmBackend } from './backend.mjs';

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
} = makeApi(wasmBackend(wasm));

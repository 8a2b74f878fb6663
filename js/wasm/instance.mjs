// The WebAssembly module's exports in browsers, workers, Deno, Bun and other runtimes
// (package.json maps #wasm-instance here by default; an import map names it for a page
// without a bundler): fetched beside this file and instantiated by a top-level await,
// since browsers refuse to compile a module this size synchronously on the main thread.

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

export default (await instantiate()).exports;

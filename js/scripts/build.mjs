// Builds the package's two binaries with cargo (npm runs this at install: `npm install
// ./js`, `npm rebuild asmcrypto`, or `npm run build` inside js/):
//
//   asmcrypto.node        the Node-API addon (js/src/node.rs), for this machine, release
//   wasm/asmcrypto.wasm   the WebAssembly module (js/src/wasm.rs), for wasm32-unknown-unknown
//
// The addon is required: without cargo the install fails, saying so. The WebAssembly module
// needs rustup's wasm32-unknown-unknown target, which this adds when rustup is there; if it
// cannot be built the install goes on without it (asmcrypto/wasm then says how to build
// it), unless ASMCRYPTO_REQUIRE_WASM=1. ASMCRYPTO_WASM=0 skips it.

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const targetDir = process.env.CARGO_TARGET_DIR ?? join(root, 'target');
const cargo = process.env.CARGO ?? 'cargo';

function log(message) {
  process.stderr.write(`asmcrypto: ${message}\n`);
}

function run(command, args, what) {
  log(`${what}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.error?.code === 'ENOENT') return { ok: false, missing: true };
  return { ok: result.status === 0 };
}

function buildAddon() {
  const built = run(cargo, ['build', '--release', '--locked'], 'the Node addon');
  if (built.missing) {
    log(
      "cargo was not found: the addon is built from Rust source at install. Install Rust " +
        '(rustup) and run `npm rebuild asmcrypto`.',
    );
    process.exit(1);
  }
  if (!built.ok) process.exit(1);
  const names = {
    win32: 'asmcrypto_js.dll',
    darwin: 'libasmcrypto_js.dylib',
  };
  const library = join(targetDir, 'release', names[process.platform] ?? 'libasmcrypto_js.so');
  copyFileSync(library, join(root, 'asmcrypto.node'));
  log('built asmcrypto.node');
}

function buildWasm() {
  if (process.env.ASMCRYPTO_WASM === '0') {
    log('ASMCRYPTO_WASM=0: the WebAssembly module is not built');
    return;
  }
  const required = process.env.ASMCRYPTO_REQUIRE_WASM === '1';
  const target = 'wasm32-unknown-unknown';
  const installed = spawnSync('rustup', ['target', 'list', '--installed'], { encoding: 'utf8' });
  if (installed.status === 0 && !installed.stdout.split('\n').includes(target)) {
    run('rustup', ['target', 'add', target], 'the WebAssembly target');
  }
  const built = run(cargo, ['build', '--release', '--locked', '--target', target], 'WebAssembly');
  if (!built.ok) {
    const message =
      `the WebAssembly module was not built (it needs the Rust target ${target}: ` +
      '`rustup target add wasm32-unknown-unknown`, then `npm rebuild asmcrypto`)';
    if (required) {
      log(message);
      process.exit(1);
    }
    log(`${message}; the Node addon is installed without it`);
    return;
  }
  mkdirSync(join(root, 'wasm'), { recursive: true });
  copyFileSync(join(targetDir, target, 'release', 'asmcrypto_js.wasm'), join(root, 'wasm', 'asmcrypto.wasm'));
  log('built wasm/asmcrypto.wasm');
}

if (!existsSync(join(root, 'Cargo.toml'))) {
  log('no Cargo.toml beside this script: nothing to build from');
  process.exit(1);
}
buildAddon();
buildWasm();

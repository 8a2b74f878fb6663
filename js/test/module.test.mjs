// The package as its users load it: require() beside import for every entry, the
// TypeScript declarations checked by tsc, and the addon's batch forced onto the path of a
// CPU without AVX-512 (ASMCRYPTO_BACKEND=scalar, read when the process starts).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

import * as native from 'asmcrypto';

import { hex, txSenders } from './fixtures.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

/** Runs a script in a fresh Node process inside the package; returns its output. */
function node(script, env = {}) {
  return execFileSync(process.execPath, ['--input-type=commonjs', '-e', script], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
}

describe('entries', () => {
  it('require() gives every entry with the same functions as import', async () => {
    for (const entry of ['asmcrypto', 'asmcrypto/viem', 'asmcrypto/wasm', 'asmcrypto/wasm/viem']) {
      const imported = await import(entry);
      const required = require(entry);
      assert.deepEqual(Object.keys(required).sort(), Object.keys(imported).sort(), entry);
      for (const key of Object.keys(imported)) assert.equal(typeof required[key], typeof imported[key]);
    }
    assert.equal(require('asmcrypto').recoverAddress, native.recoverAddress, 'one instance for both');
  });

  it('a CommonJS program recovers with every entry', () => {
    const [t] = txSenders();
    const out = node(`
      const a = require('asmcrypto');
      const w = require('asmcrypto/wasm');
      const v = require('asmcrypto/viem');
      const h = '0x${hex(t.hash)}', s = '0x${hex(t.sig)}';
      v.recoverAddress({ hash: h, signature: s }).then((viemAddress) =>
        console.log(Buffer.from(a.recoverAddress(h, s)).toString('hex'),
                    Buffer.from(w.recoverAddress(h, s)).toString('hex'),
                    viemAddress.toLowerCase().slice(2)));
    `);
    assert.equal(out.trim(), `${t.address} ${t.address} ${t.address}`);
  });

  it('the main entry exports exactly the documented functions and errors', () => {
    assert.deepEqual(Object.keys(native).sort(), [
      'AsmcryptoError',
      'InvalidRError',
      'InvalidRecoveryIdError',
      'InvalidSError',
      'NotOnCurveError',
      'PointAtInfinityError',
      'backend',
      'backendDetails',
      'ecrecoverPrecompile',
      'keccak256',
      'recoverAddress',
      'recoverAddresses',
      'recoverAddressesAsync',
      'recoverPublicKey',
    ]);
  });
});

describe('TypeScript', () => {
  it('the declarations type-check as ES module and CommonJS users write them (tsc)', () => {
    const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
    execFileSync(process.execPath, [tsc, '-p', 'test/types/tsconfig.json'], { cwd: root, stdio: 'inherit' });
  });
});

describe('ASMCRYPTO_BACKEND=scalar', () => {
  it('takes the path of a CPU without AVX-512, with the same results', () => {
    const senders = txSenders();
    const out = node(
      `
      const a = require('asmcrypto');
      const fs = require('node:fs');
      const lines = fs.readFileSync('../tests/data/tx_senders.jsonl', 'utf8').trim().split('\\n').map(JSON.parse);
      const hashes = Buffer.concat(lines.map((t) => Buffer.from(t.hash, 'hex')));
      const sigs = Buffer.concat(lines.map((t) => Buffer.from(t.r + t.s + t.recid.toString(16).padStart(2, '0'), 'hex')));
      const r = a.recoverAddresses(hashes, sigs, { threads: 2 });
      console.log(a.backend(), Buffer.from(r.addresses).toString('hex'), r.valid.every((v) => v === 1));
    `,
      { ASMCRYPTO_BACKEND: 'scalar' },
    );
    assert.equal(out.trim(), `scalar ${senders.map((t) => t.address).join('')} true`);
  });
});

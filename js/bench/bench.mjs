// Per-signature cost of recovering a signer's address in Node, one thread, every contender
// in the same process: this package's single call, batch, async batch and WebAssembly
// build, its viem-shaped call, against viem, ethers, @noble/curves (recoverPublicKey +
// keccak) and the `secp256k1` addon (libsecp256k1's ecdsaRecover + keccak).
//
// Interleaved best-of rounds: each round times every contender once, on the same
// signatures, and each keeps its fastest round, so that a slow phase of a shared machine
// hits all alike. Prints a markdown table with the CPU, the package's backend and Node.
//
//   node bench/bench.mjs [ROUNDS]        (npm run bench; default 15 rounds)

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';

import { secp256k1 as noble } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import * as ethers from 'ethers';
import * as viem from 'viem';

import * as asmcrypto from 'asmcrypto';
import * as asmcryptoViem from 'asmcrypto/viem';
import * as wasm from 'asmcrypto/wasm';

const require = createRequire(import.meta.url);
// libsecp256k1 through its Node-API addon (the package's prebuilt binary; its
// elliptic.js fallback would be pure JavaScript, so the bench refuses to run on it).
const secp256k1 = require('secp256k1/bindings');
const addon = require('../asmcrypto.node');

const ROUNDS = Number(process.argv[2] ?? 15);
const BATCH = 10_000;

// The published transaction signatures (tests/data/tx_senders.jsonl), valid ones all.
const senders = readFileSync(new URL('../../tests/data/tx_senders.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line))
  .map((t) => ({
    hash: new Uint8Array(Buffer.from(t.hash, 'hex')),
    sig: new Uint8Array(Buffer.from(`${t.r}${t.s}0${t.recid}`, 'hex')),
    hashHex: `0x${t.hash}`,
    sigHex: `0x${t.r}${t.s}${t.recid ? '1c' : '1b'}`,
    address: t.address,
  }));
// 64 signatures for the single calls (about 64 × 1.7 ms a round for viem).
const singles = senders.slice(0, 64);
const batchHashes = new Uint8Array(32 * BATCH);
const batchSigs = new Uint8Array(65 * BATCH);
for (let i = 0; i < BATCH; i++) {
  const t = senders[i % senders.length];
  batchHashes.set(t.hash, 32 * i);
  batchSigs.set(t.sig, 65 * i);
}

// The same batch with v = 5 in every signature: each is refused at its parse, so the call
// costs the binding's own work (checks, the copy in, the results out) and the parse.
const refusedSigs = batchSigs.slice();
for (let i = 0; i < BATCH; i++) refusedSigs[65 * i + 64] = 5;

function nobleAddress(t) {
  const recovered = new Uint8Array(65);
  recovered[0] = t.sig[64];
  recovered.set(t.sig.subarray(0, 64), 1);
  const key = noble.Signature.fromBytes(recovered, 'recovered').recoverPublicKey(t.hash).toBytes(false);
  return keccak_256(key.subarray(1)).subarray(12);
}

function addonAddress(t) {
  const key = secp256k1.ecdsaRecover(t.sig.subarray(0, 64), t.sig[64], t.hash, false);
  return keccak_256(key.subarray(1)).subarray(12);
}

const hex = (b) => Buffer.from(b).toString('hex');

// Each contender: a name, the signatures it handles per run, and the run (which returns
// what it recovered, checked once before timing).
const contenders = [
  { name: 'asmcrypto `recoverAddress`', per: singles.length, run: () => singles.map((t) => hex(asmcrypto.recoverAddress(t.hash, t.sig))) },
  { name: `asmcrypto \`recoverAddresses\`, ${BATCH} in one call`, per: BATCH, run: () => asmcrypto.recoverAddresses(batchHashes, batchSigs) },
  { name: `asmcrypto \`recoverAddressesAsync\`, ${BATCH} in one call`, per: BATCH, async: true, run: () => asmcrypto.recoverAddressesAsync(batchHashes, batchSigs) },
  { name: `(the Rust \`recover_addresses\` inside it, ${BATCH})`, per: BATCH, rust: true, run: () => addon.rustBatchSeconds(batchHashes, batchSigs) },
  { name: `asmcrypto \`recoverAddresses\`, ${BATCH} refused at their parse (v = 5)`, per: BATCH, refused: true, run: () => asmcrypto.recoverAddresses(batchHashes, refusedSigs) },
  { name: 'asmcrypto/viem `recoverAddress`', per: singles.length, async: true, run: () => Promise.all(singles.map((t) => asmcryptoViem.recoverAddress({ hash: t.hashHex, signature: t.sigHex }))) },
  { name: 'asmcrypto/wasm `recoverAddress`', per: singles.length, run: () => singles.map((t) => hex(wasm.recoverAddress(t.hash, t.sig))) },
  { name: `asmcrypto/wasm \`recoverAddresses\`, ${BATCH} in one call`, per: BATCH, run: () => wasm.recoverAddresses(batchHashes, batchSigs) },
  { name: 'viem `recoverAddress`', per: singles.length, async: true, viem: true, run: () => Promise.all(singles.map((t) => viem.recoverAddress({ hash: t.hashHex, signature: t.sigHex }))) },
  { name: 'ethers `recoverAddress`', per: singles.length, run: () => singles.map((t) => ethers.recoverAddress(t.hashHex, t.sigHex)) },
  { name: '@noble/curves `recoverPublicKey` + keccak', per: singles.length, noble: true, run: () => singles.map((t) => hex(nobleAddress(t))) },
  { name: '`secp256k1` addon `ecdsaRecover` + keccak', per: singles.length, secp: true, run: () => singles.map((t) => hex(addonAddress(t))) },
];

async function check() {
  const want = singles.map((t) => t.address);
  for (const c of contenders) {
    if (c.rust) continue;
    if (c.refused) {
      if (c.run().valid.some((v) => v !== 0)) throw new Error(`${c.name}: a signature recovered`);
      continue;
    }
    const got = await c.run();
    const list = Array.isArray(got) ? got.map((a) => a.toLowerCase().replace(/^0x/, '')) : null;
    if (list) {
      if (list.join() !== want.join()) throw new Error(`${c.name}: wrong addresses`);
    } else if (hex(got.addresses.subarray(0, 20 * singles.length)) !== want.join('')) {
      throw new Error(`${c.name}: wrong addresses`);
    }
  }
}

async function time(c) {
  if (c.rust) return c.run();
  const start = performance.now();
  const out = c.run();
  if (c.async) await out;
  return (performance.now() - start) / 1000;
}

function cpuName() {
  const model = cpus()[0]?.model ?? 'unknown CPU';
  let ifma = 'unknown';
  try {
    ifma = /\bavx512ifma\b/.test(readFileSync('/proc/cpuinfo', 'utf8')) ? 'with AVX-512 IFMA' : 'without AVX-512 IFMA';
  } catch {
    // not Linux
  }
  return `${model} (${ifma})`;
}

await check();
const best = contenders.map(() => Infinity);
for (let round = 0; round < ROUNDS; round++) {
  for (const [i, c] of contenders.entries()) best[i] = Math.min(best[i], (await time(c)) / c.per);
}

const us = (s) => (s * 1e6).toFixed(s < 1e-5 ? 2 : 1);
const of = (flag) => best[contenders.findIndex((c) => c[flag])];
const [viemT, nobleT, secpT] = [of('viem'), of('noble'), of('secp')];
console.log(`CPU: ${cpuName()}; Node ${process.version}; asmcrypto ${asmcrypto.backendDetails()}; one thread; best of ${ROUNDS} interleaved rounds\n`);
console.log('| call | µs per signature | × viem | × noble + keccak | × `secp256k1` addon + keccak |');
console.log('|---|---:|---:|---:|---:|');
for (const [i, c] of contenders.entries()) {
  const t = best[i];
  console.log(`| ${c.name} | ${us(t)} | ${(t / viemT).toFixed(4)} | ${(t / nobleT).toFixed(3)} | ${(t / secpT).toFixed(3)} |`);
}
const js = best[1];
const rust = best[3];
const refused = of('refused');
console.log(
  `\nThe binding adds ${(((js - rust) / rust) * 100).toFixed(1)} % to the Rust batch (${us(js)} against ${us(rust)} µs ` +
    `per signature, each the best of its rounds); its own work and the parse, measured alone on refused ` +
    `signatures, are ${(refused * 1e9).toFixed(0)} ns per signature, ${((refused / rust) * 100).toFixed(2)} % of the Rust batch.`,
);

// Shared test support: the two builds under test, a seeded generator, the published data of
// tests/data/, and seeded signatures with their expected results from @noble/curves.

import { readFileSync } from 'node:fs';

import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';

import * as native from 'asmcrypto';
import * as wasm from 'asmcrypto/wasm';
import * as nativeViem from 'asmcrypto/viem';
import * as wasmViem from 'asmcrypto/wasm/viem';

/** The builds every suite runs on: the native addon and the WebAssembly module. */
export const builds = [
  { name: 'native', api: native, viem: nativeViem },
  { name: 'wasm', api: wasm, viem: wasmViem },
];

export const N = secp256k1.Point.Fn.ORDER;
export const P = secp256k1.Point.Fp.ORDER;

export const hex = (bytes) => Buffer.from(bytes).toString('hex');
export const unhex = (s) => new Uint8Array(Buffer.from(s, 'hex'));
export const be32 = (k) => unhex(k.toString(16).padStart(64, '0'));
export const int = (bytes) => BigInt(`0x${hex(bytes) || '0'}`);

/** A seeded generator (SplitMix64 over BigInt): the same bytes on every run. */
export class Rng {
  constructor(seed) {
    this.s = BigInt(seed) & 0xffffffffffffffffn;
  }
  u64() {
    this.s = (this.s + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
    let z = this.s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
    return z ^ (z >> 31n);
  }
  below(k) {
    return Number(this.u64() % BigInt(k));
  }
  bytes(len) {
    const out = new Uint8Array(len);
    for (let i = 0; i < len; i += 8) {
      let w = this.u64();
      for (let j = i; j < Math.min(len, i + 8); j++) {
        out[j] = Number(w & 0xffn);
        w >>= 8n;
      }
    }
    return out;
  }
  /** A 256-bit integer, sometimes with long runs of equal bits (carries). */
  big() {
    const k = int(this.bytes(32));
    switch (this.below(8)) {
      case 0:
        return k | ((1n << BigInt(this.below(256))) - 1n);
      case 1:
        return k & ~((1n << BigInt(this.below(256))) - 1n);
      default:
        return k;
    }
  }
}

/** Lines of a JSON-lines file of the repository's tests/data/. */
export function data(name) {
  const text = readFileSync(new URL(`../../tests/data/${name}`, import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
}

/** The 147 published transaction signatures with their senders: { hash, sig, address }. */
export function txSenders() {
  return data('tx_senders.jsonl').map((t) => ({
    hash: unhex(t.hash),
    sig: unhex(t.r + t.s + t.recid.toString(16).padStart(2, '0')),
    address: t.address,
  }));
}

/** noble's recovery (@noble/curves 2): the 64-byte key X ‖ Y, or null where noble refuses. */
export function nobleKey(hash, sig) {
  const v = sig[64];
  const recid = v === 27 || v === 28 ? v - 27 : v;
  if (recid > 1) return null;
  const recovered = new Uint8Array(65);
  recovered[0] = recid;
  recovered.set(sig.subarray(0, 64), 1);
  try {
    return secp256k1.Signature.fromBytes(recovered, 'recovered')
      .recoverPublicKey(hash)
      .toBytes(false)
      .subarray(1);
  } catch {
    return null;
  }
}

/** The address of a 64-byte key X ‖ Y, by noble's Keccak-256. */
export const addressOf = (key) => keccak_256(key).subarray(12);

/** Is x the x-coordinate of a point on secp256k1? */
export function isX(x) {
  if (x >= P) return false;
  try {
    secp256k1.Point.fromBytes(new Uint8Array([2, ...be32(x)]));
    return true;
  } catch {
    return false;
  }
}

/** The kinds of signature the seeded set holds, with the error each should raise. */
export const KINDS = {
  valid: null,
  highS: null, // valid: recovery has no low-s rule
  signed: null, // a real signature by a known key (checked against that key's address)
  badV: 'InvalidRecoveryIdError',
  rZero: 'InvalidRError',
  rTooBig: 'InvalidRError',
  sZero: 'InvalidSError',
  sTooBig: 'InvalidSError',
  notOnCurve: 'NotOnCurveError',
  infinity: 'PointAtInfinityError',
};

/** A signature with r ‖ s ‖ v. */
function sig65(r, s, v) {
  const out = new Uint8Array(65);
  out.set(be32(r), 0);
  out.set(be32(s), 32);
  out[64] = v;
  return out;
}

/** A random x-coordinate below n (r of a valid signature). */
function randomX(rng) {
  for (;;) {
    const x = rng.big() % N;
    if (x !== 0n && isX(x)) return x;
  }
}

/** v from a y parity: 0/1 or 27/28, at random. */
const vOf = (rng, parity) => (rng.below(2) ? 27 : 0) + parity;

/**
 * `count` seeded cases `{ kind, hash, sig, expected }`: about 70 % valid (random r, s, hash,
 * v in every form; high s; real signatures), the rest invalid of every kind. `key` and
 * `expected` are noble's key and address (hex) or null; `error` the error class name the
 * kind must raise; `signer` the signing key's address for a real signature.
 */
export function seededCases(count, seed = 1) {
  const rng = new Rng(seed);
  const cases = [];
  const keys = Array.from({ length: 16 }, () => {
    for (;;) {
      const sk = rng.bytes(32);
      if (secp256k1.utils.isValidSecretKey(sk)) return sk;
    }
  });
  const kinds = Object.keys(KINDS);
  for (let i = 0; i < count; i++) {
    const roll = rng.below(100);
    const kind = roll < 60 ? 'valid' : roll < 66 ? 'highS' : roll < 70 ? 'signed' : kinds[3 + rng.below(kinds.length - 3)];
    let hash = rng.bytes(32);
    if (rng.below(50) === 0) hash = rng.below(2) ? new Uint8Array(32) : new Uint8Array(32).fill(0xff);
    let sig;
    let signer = null;
    const parity = rng.below(2);
    switch (kind) {
      case 'valid':
        sig = sig65(randomX(rng), 1n + (rng.big() % (N - 1n)), vOf(rng, parity));
        break;
      case 'highS': {
        const s = N / 2n + 1n + (rng.big() % (N / 2n - 1n));
        sig = sig65(randomX(rng), s, vOf(rng, parity));
        break;
      }
      case 'signed': {
        const sk = keys[rng.below(keys.length)];
        const rec = secp256k1.sign(hash, sk, { prehash: false, format: 'recovered' });
        sig = new Uint8Array(65);
        sig.set(rec.subarray(1), 0);
        sig[64] = vOf(rng, rec[0]);
        const pub = secp256k1.getPublicKey(sk, false);
        signer = hex(keccak_256(pub.subarray(1)).subarray(12));
        break;
      }
      case 'badV': {
        const v = [2, 3, 4, 26, 29, 30, 35, 37, 127, 128, 255][rng.below(11)];
        sig = sig65(randomX(rng), 1n + (rng.big() % (N - 1n)), v);
        break;
      }
      case 'rZero':
        sig = sig65(0n, 1n + (rng.big() % (N - 1n)), vOf(rng, parity));
        break;
      case 'rTooBig':
        sig = sig65(N + (rng.big() % ((1n << 256n) - N)), 1n + (rng.big() % (N - 1n)), vOf(rng, parity));
        break;
      case 'sZero':
        sig = sig65(randomX(rng), 0n, vOf(rng, parity));
        break;
      case 'sTooBig':
        sig = sig65(randomX(rng), N + (rng.big() % ((1n << 256n) - N)), vOf(rng, parity));
        break;
      case 'notOnCurve': {
        let x;
        do x = 1n + (rng.big() % (N - 1n));
        while (isX(x));
        sig = sig65(x, 1n + (rng.big() % (N - 1n)), vOf(rng, parity));
        break;
      }
      case 'infinity': {
        // R = k·G with r = x(R) < n; then Q = r⁻¹(s·R − z·G) is the point at infinity
        // exactly when z = s·k (mod n).
        let k, R;
        do {
          k = 1n + (rng.big() % (N - 1n));
          R = secp256k1.Point.BASE.multiply(k).toAffine();
        } while (R.x >= N);
        const s = 1n + (rng.big() % (N - 1n));
        hash = be32((s * k) % N);
        sig = sig65(R.x, s, vOf(rng, Number(R.y & 1n)));
        break;
      }
    }
    const key = nobleKey(hash, sig);
    cases.push({
      kind,
      hash,
      sig,
      key: key && hex(key),
      expected: key && hex(addressOf(key)),
      error: KINDS[kind],
      signer,
    });
  }
  return cases;
}

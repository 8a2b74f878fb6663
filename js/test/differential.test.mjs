// 10,000 seeded signatures, about 30 % of them invalid of every kind (bad v, r or s zero or
// not below n, r no x-coordinate, a key at infinity) and high s among the valid, through
// every entry point of both builds, against @noble/curves (the keys and addresses) and viem
// (its own recoverAddress, recoverPublicKey and recoverMessageAddress for asmcrypto/viem).

import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';

import * as viem from 'viem';

import { builds, hex, seededCases } from './fixtures.mjs';

const COUNT = Number(process.env.ASMCRYPTO_TEST_CASES ?? 10_000);
const cases = seededCases(COUNT, Number(process.env.ASMCRYPTO_TEST_SEED ?? 1));

/** What a call gave: `{ value }` or `{ error }` (the error's class name). */
function outcome(fn) {
  try {
    return { value: fn() };
  } catch (error) {
    return { error: error.name };
  }
}

async function settle(promise) {
  try {
    return { value: await promise };
  } catch (error) {
    return { error: error?.name ?? String(error) };
  }
}

/** Checks one case's single-call result against noble and the kind's error. */
function checkSingle(c, got, what) {
  if (c.expected === null) {
    assert.equal(got.error, c.error, `${what}: ${c.kind} case ${hex(c.sig)} over ${hex(c.hash)}`);
  } else {
    assert.equal(got.error, undefined, `${what}: ${c.kind} threw ${got.error}`);
  }
}

/** The seeded set has every kind, in proportion. */
it('the seeded set holds every kind of signature', () => {
  const kinds = new Map();
  for (const c of cases) kinds.set(c.kind, (kinds.get(c.kind) ?? 0) + 1);
  for (const kind of ['valid', 'highS', 'signed', 'badV', 'rZero', 'rTooBig', 'sZero', 'sTooBig', 'notOnCurve', 'infinity']) {
    assert.ok(kinds.get(kind) > COUNT / 500, `${kind}: ${kinds.get(kind)}`);
  }
  for (const c of cases) {
    if (c.signer) assert.equal(c.expected, c.signer, 'noble recovers the key that signed');
  }
});

for (const { name, api } of builds) {
  describe(`${name}: against @noble/curves`, () => {
    it('recoverAddress: every address noble recovers, every error of its kind', () => {
      for (const c of cases) {
        const got = outcome(() => api.recoverAddress(c.hash, c.sig));
        checkSingle(c, got, 'recoverAddress');
        if (got.value) {
          assert.ok(got.value instanceof Uint8Array && got.value.length === 20);
          assert.equal(hex(got.value), c.expected);
        }
      }
    });

    it('recoverPublicKey: every key noble recovers', () => {
      for (const c of cases) {
        const got = outcome(() => api.recoverPublicKey(c.hash, c.sig));
        checkSingle(c, got, 'recoverPublicKey');
        if (got.value) assert.equal(hex(got.value), c.key);
      }
    });

    it('hex strings give the same results as bytes', () => {
      for (const c of cases.slice(0, 2000)) {
        const got = outcome(() => api.recoverAddress(`0x${hex(c.hash)}`, `0x${hex(c.sig)}`));
        checkSingle(c, got, 'recoverAddress(hex)');
        if (got.value) assert.equal(hex(got.value), c.expected);
      }
    });

    it('ecrecoverPrecompile: the 32-byte word for every valid case with v = 27/28, the empty output otherwise', () => {
      for (const c of cases.slice(0, 3000)) {
        const input = new Uint8Array(128);
        input.set(c.hash, 0);
        input[63] = c.sig[64];
        input.set(c.sig.subarray(0, 64), 64);
        const out = api.ecrecoverPrecompile(input);
        const v = c.sig[64];
        if (c.expected !== null && (v === 27 || v === 28)) {
          assert.equal(hex(out), '00'.repeat(12) + c.expected);
        } else {
          assert.equal(out.length, 0, `${c.kind} with v ${v}`);
        }
      }
    });

    /** A batch's results against the expected ones, item by item. */
    function checkBatch(result, subset, what) {
      assert.equal(result.valid.length, subset.length, what);
      assert.equal(result.addresses.length, 20 * subset.length, what);
      subset.forEach((c, i) => {
        const address = hex(result.addresses.subarray(20 * i, 20 * i + 20));
        if (c.expected === null) {
          assert.equal(result.valid[i], 0, `${what}: ${c.kind} #${i}`);
          assert.equal(address, '00'.repeat(20));
        } else {
          assert.equal(result.valid[i], 1, `${what}: ${c.kind} #${i}`);
          assert.equal(address, c.expected, `${what} #${i}`);
        }
      });
    }

    const flat = (subset, field, size) => {
      const out = new Uint8Array(size * subset.length);
      subset.forEach((c, i) => out.set(c[field], size * i));
      return out;
    };

    it('recoverAddresses, one Uint8Array per side: every result, at every length from 0 to 70, at 255 to 257 and the whole set', () => {
      for (const n of [...Array(71).keys(), 255, 256, 257]) {
        const part = cases.slice(3 * n, 4 * n);
        checkBatch(api.recoverAddresses(flat(part, 'hash', 32), flat(part, 'sig', 65)), part, `n=${n}`);
      }
      checkBatch(api.recoverAddresses(flat(cases, 'hash', 32), flat(cases, 'sig', 65)), cases, 'all');
    });

    it('recoverAddresses, arrays of items (bytes and hex mixed), and the two forms mixed', () => {
      const subset = cases.slice(0, 3000);
      const hashes = subset.map((c, i) => (i % 2 ? c.hash : `0x${hex(c.hash)}`));
      const sigs = subset.map((c, i) => (i % 3 ? Buffer.from(c.sig) : `0x${hex(c.sig)}`));
      checkBatch(api.recoverAddresses(hashes, sigs), subset, 'arrays');
      checkBatch(api.recoverAddresses(flat(subset, 'hash', 32), sigs), subset, 'flat hashes, array of signatures');
      checkBatch(api.recoverAddresses(hashes, flat(subset, 'sig', 65)), subset, 'array of hashes, flat signatures');
    });

    it('recoverAddresses on threads: the same results', () => {
      const h = flat(cases, 'hash', 32);
      const s = flat(cases, 'sig', 65);
      for (const threads of [0, 2, 3, 64]) {
        checkBatch(api.recoverAddresses(h, s, { threads }), cases, `threads=${threads}`);
      }
    });

    it('recoverAddressesAsync, on one and on several threads, many calls at once', async () => {
      const h = flat(cases, 'hash', 32);
      const s = flat(cases, 'sig', 65);
      checkBatch(await api.recoverAddressesAsync(h, s), cases, 'async');
      checkBatch(await api.recoverAddressesAsync(h, s, { threads: 4 }), cases, 'async threads=4');
      // Eight calls at once on slices of the set, some on threads of their own.
      const slices = Array.from({ length: 8 }, (_, k) => cases.slice(k * 1000, k * 1000 + 1000 + k));
      const results = await Promise.all(
        slices.map((part, k) =>
          api.recoverAddressesAsync(
            part.map((c) => c.hash),
            flat(part, 'sig', 65),
            { threads: k % 3 },
          ),
        ),
      );
      results.forEach((r, k) => checkBatch(r, slices[k], `async slice ${k}`));
    });
  });
}

describe('asmcrypto/viem and asmcrypto/wasm/viem: against viem', () => {
  // The shapes viem takes: each case goes through one, in turn.
  const parity = (c) => (c.sig[64] === 27 || c.sig[64] === 28 ? c.sig[64] - 27 : c.sig[64]);
  const r = (c) => `0x${hex(c.sig.subarray(0, 32))}`;
  const s = (c) => `0x${hex(c.sig.subarray(32, 64))}`;
  const shapes = [
    (c) => ({ hash: `0x${hex(c.hash)}`, signature: `0x${hex(c.sig)}` }),
    (c) => ({ hash: c.hash, signature: c.sig }),
    (c) => ({ hash: `0x${hex(c.hash)}`, signature: { r: r(c), s: s(c), yParity: parity(c) } }),
    (c) => ({ hash: c.hash, signature: { r: r(c), s: s(c), v: BigInt(c.sig[64]) } }),
    // EIP-155's v = chainId · 2 + 35 + parity, up to a chain id past 2⁵³.
    (c) => ({
      hash: `0x${hex(c.hash)}`,
      signature: { r: r(c), s: s(c), v: BigInt(c.hash[0]) * (1n << BigInt(c.hash[1] % 64)) * 2n + 35n + BigInt(parity(c) & 1) },
    }),
  ];
  const subset = cases.slice(0, Number(process.env.ASMCRYPTO_TEST_VIEM_CASES ?? COUNT));
  let expected;

  before(async () => {
    expected = [];
    for (const [i, c] of subset.entries()) {
      const args = shapes[i % shapes.length](c);
      expected.push({
        args,
        address: await settle(viem.recoverAddress(args)),
        key: i % 4 === 0 ? await settle(viem.recoverPublicKey(args)) : null,
      });
    }
  });

  for (const { name, viem: ours } of builds) {
    it(`${name}: recoverAddress and recoverPublicKey give viem's results, and reject where viem does`, async () => {
      for (const [i, e] of expected.entries()) {
        const got = await settle(ours.recoverAddress(e.args));
        if (e.address.error) assert.ok(got.error, `#${i} ${subset[i].kind}: viem rejects, asmcrypto gave ${got.value}`);
        else assert.deepEqual(got, e.address, `#${i} ${subset[i].kind}`);
        if (e.key) {
          const key = await settle(ours.recoverPublicKey(e.args));
          if (e.key.error) assert.ok(key.error, `#${i}`);
          else assert.deepEqual(key, e.key, `#${i}`);
        }
      }
    });
  }

  it("recoverMessageAddress: text, raw hex and raw bytes give viem's signer", async () => {
    const messages = [
      'hello',
      '',
      'Sign in with Ethereum: nonce 1234 ✓ 日本語 🚀',
      'x'.repeat(1000),
      { raw: '0x' },
      { raw: '0xdeadbeef' },
      { raw: '0xabc' },
      { raw: new Uint8Array([0, 1, 2, 255]) },
      { raw: new Uint8Array(300).fill(7) },
    ];
    for (const [i, c] of cases.slice(0, 400).entries()) {
      const args = { message: messages[i % messages.length], signature: i % 2 ? c.sig : `0x${hex(c.sig)}` };
      const want = await settle(viem.recoverMessageAddress(args));
      for (const { name, viem: ours } of builds) {
        const got = await settle(ours.recoverMessageAddress(args));
        if (want.error) assert.ok(got.error, `${name} #${i}`);
        else assert.deepEqual(got, want, `${name} #${i}`);
      }
    }
  });
});

// Each function of both builds on the published data (transaction senders, precompile
// vectors), Keccak-256 against @noble/hashes, every input form, every error, and junk of
// every kind: a TypeError or RangeError naming the argument, never a crash.

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';

import { keccak_256 } from '@noble/hashes/sha3.js';

import { Rng, builds, data, hex, txSenders, unhex } from './fixtures.mjs';

const senders = txSenders();
const [first] = senders;

for (const { name, api } of builds) {
  describe(`${name}: published data`, () => {
    it('recoverAddress and recoverPublicKey give the 147 published senders', () => {
      for (const t of senders) {
        assert.equal(hex(api.recoverAddress(t.hash, t.sig)), t.address);
        assert.equal(hex(keccak_256(api.recoverPublicKey(t.hash, t.sig)).subarray(12)), t.address);
      }
    });

    it('ecrecoverPrecompile gives the published output of each of the 115 vectors', () => {
      const vectors = data('precompile_ecrecover.jsonl');
      assert.equal(vectors.length, 115);
      for (const v of vectors) {
        assert.equal(hex(api.ecrecoverPrecompile(unhex(v.input))), v.expected, v.name);
        assert.equal(hex(api.ecrecoverPrecompile(`0x${v.input}`)), v.expected, v.name);
      }
    });

    it('recoverAddresses gives the published senders, in both forms', () => {
      const want = senders.map((t) => t.address).join('');
      const arrays = api.recoverAddresses(senders.map((t) => t.hash), senders.map((t) => t.sig));
      assert.equal(hex(arrays.addresses), want);
      assert.deepEqual([...arrays.valid], senders.map(() => 1));
      const flat = api.recoverAddresses(
        Buffer.concat(senders.map((t) => t.hash)),
        Buffer.concat(senders.map((t) => t.sig)),
      );
      assert.equal(hex(flat.addresses), want);
    });
  });

  describe(`${name}: keccak256`, () => {
    it('matches @noble/hashes at every length to 300 bytes, across the 64 KiB pieces and at 1 MiB', () => {
      const rng = new Rng(7);
      for (let len = 0; len <= 300; len++) {
        const data = rng.bytes(len);
        assert.equal(hex(api.keccak256(data)), hex(keccak_256(data)), `length ${len}`);
      }
      for (const len of [65535, 65536, 65537, 3 * 65536 + 17, 1 << 20]) {
        const data = rng.bytes(len);
        assert.equal(hex(api.keccak256(data)), hex(keccak_256(data)), `length ${len}`);
      }
      assert.equal(hex(api.keccak256('0x')), hex(keccak_256(new Uint8Array(0))));
      assert.equal(hex(api.keccak256('0xDEADbeef')), hex(keccak_256(unhex('deadbeef'))));
    });
  });

  describe(`${name}: input forms`, () => {
    it('Uint8Array, Buffer, views at an offset, hex in either case, a SharedArrayBuffer', () => {
      const want = first.address;
      const pad = new Uint8Array(200);
      pad.set(first.hash, 3);
      pad.set(first.sig, 100);
      const shared = new Uint8Array(new SharedArrayBuffer(97));
      shared.set(first.hash);
      shared.set(first.sig, 32);
      const forms = [
        [first.hash, first.sig],
        [Buffer.from(first.hash), Buffer.from(first.sig)],
        [pad.subarray(3, 35), pad.subarray(100, 165)],
        [`0x${hex(first.hash)}`, `0x${hex(first.sig).toUpperCase()}`],
        [`0X${hex(first.hash).toUpperCase()}`, `0x${hex(first.sig)}`],
        [shared.subarray(0, 32), shared.subarray(32)],
      ];
      for (const [h, s] of forms) assert.equal(hex(api.recoverAddress(h, s)), want);
    });

    it('results are plain Uint8Arrays of their own', () => {
      const a = api.recoverAddress(first.hash, first.sig);
      const b = api.recoverAddress(first.hash, first.sig);
      assert.equal(Object.getPrototypeOf(a), Uint8Array.prototype);
      a[0] ^= 1;
      assert.equal(hex(b), first.address);
      assert.equal(Object.getPrototypeOf(api.keccak256('0x')), Uint8Array.prototype);
      assert.equal(api.ecrecoverPrecompile(new Uint8Array(0)).length, 0);
    });

    it('an empty batch gives empty results', () => {
      for (const [h, s] of [[[], []], [new Uint8Array(0), new Uint8Array(0)]]) {
        const r = api.recoverAddresses(h, s);
        assert.equal(r.addresses.length, 0);
        assert.equal(r.valid.length, 0);
      }
    });

    it('v 0, 1, 27 and 28 all recover; the precompile reads only its first 128 bytes', () => {
      const t = senders.find((x) => x.sig[64] === 0);
      const sig = t.sig.slice();
      assert.equal(hex(api.recoverAddress(t.hash, sig)), t.address);
      sig[64] = 27;
      assert.equal(hex(api.recoverAddress(t.hash, sig)), t.address);
      const input = new Uint8Array(300).fill(9);
      input.set(t.hash);
      input.fill(0, 32, 63);
      input[63] = 27;
      input.set(t.sig.subarray(0, 64), 64);
      assert.equal(hex(api.ecrecoverPrecompile(input)), '00'.repeat(12) + t.address);
    });
  });

  describe(`${name}: errors`, () => {
    const sig = (mutate) => {
      const s = first.sig.slice();
      mutate(s);
      return s;
    };
    const n = unhex('fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');

    it('one class per kind of error, with its code, all AsmcryptoErrors', () => {
      const cases = [
        [sig((s) => (s[64] = 5)), api.InvalidRecoveryIdError, 'ASMCRYPTO_INVALID_RECOVERY_ID'],
        [sig((s) => s.fill(0, 0, 32)), api.InvalidRError, 'ASMCRYPTO_INVALID_R'],
        [sig((s) => s.set(n, 0)), api.InvalidRError, 'ASMCRYPTO_INVALID_R'],
        [sig((s) => s.fill(0, 32, 64)), api.InvalidSError, 'ASMCRYPTO_INVALID_S'],
        [sig((s) => s.fill(0xff, 32, 64)), api.InvalidSError, 'ASMCRYPTO_INVALID_S'],
        // r = 5: 5³ + 7 = 132 is not a square mod p.
        [sig((s) => { s.fill(0, 0, 32); s[31] = 5; }), api.NotOnCurveError, 'ASMCRYPTO_NOT_ON_CURVE'],
      ];
      for (const [s, Class, code] of cases) {
        for (const fn of [api.recoverAddress, api.recoverPublicKey]) {
          assert.throws(() => fn(first.hash, s), (err) => {
            assert.ok(err instanceof Class, `${err.name}, not ${Class.name}`);
            assert.ok(err instanceof api.AsmcryptoError);
            assert.ok(err instanceof Error);
            assert.equal(err.name, Class.name);
            assert.equal(err.code, code);
            return true;
          });
        }
      }
      assert.throws(() => api.recoverAddress(first.hash, sig((s) => (s[64] = 29))), (err) => err.v === 29);
    });

    it('the point at infinity: r = x(G), s = 1 and hash = 1 (then Q = r⁻¹(s·G − 1·G))', () => {
      const gx = '79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798';
      const s = unhex(`${gx}${'00'.repeat(31)}0100`);
      const h = unhex(`${'00'.repeat(31)}01`);
      assert.throws(() => api.recoverAddress(h, s), api.PointAtInfinityError);
      assert.equal(api.recoverAddresses([h], [s]).valid[0], 0);
      assert.equal(hex(api.recoverAddresses([h], [s]).addresses), '00'.repeat(20));
    });

    it('arguments of the wrong type or length: TypeError or RangeError, naming the argument', () => {
      const wrongType = [undefined, null, 5, 5n, true, {}, [], [1, 2], new Uint16Array(16), new DataView(new ArrayBuffer(32)), new ArrayBuffer(32), Symbol('x'), () => 0, 'hello', `${hex(first.hash)}`, '0xzz'];
      for (const bad of wrongType) {
        assert.throws(() => api.recoverAddress(bad, first.sig), (e) => e instanceof TypeError && /^hash/.test(e.message));
        assert.throws(() => api.recoverAddress(first.hash, bad), (e) => e instanceof TypeError && /^signature/.test(e.message));
        assert.throws(() => api.recoverPublicKey(first.hash, bad), TypeError);
        assert.throws(() => api.keccak256(bad), (e) => e instanceof TypeError && /^data/.test(e.message));
        assert.throws(() => api.ecrecoverPrecompile(bad), (e) => e instanceof TypeError && /^input/.test(e.message));
      }
      for (const bad of [new Uint8Array(31), new Uint8Array(33), '0x', '0x00']) {
        assert.throws(() => api.recoverAddress(bad, first.sig), (e) => e instanceof RangeError && /^hash: expected 32 bytes/.test(e.message));
      }
      for (const bad of [new Uint8Array(64), new Uint8Array(66), first.sig.subarray(1)]) {
        assert.throws(() => api.recoverAddress(first.hash, bad), (e) => e instanceof RangeError && /^signature: expected 65 bytes/.test(e.message));
      }
      assert.throws(() => api.recoverAddress('0x123', first.sig), TypeError);
    });

    it('batch arguments: counts, lengths, item types and options', () => {
      const h = first.hash;
      const s = first.sig;
      assert.throws(() => api.recoverAddresses([h, h], [s]), (e) => e instanceof RangeError && /2 items and signatures 1/.test(e.message));
      assert.throws(() => api.recoverAddresses(new Uint8Array(33), new Uint8Array(65)), (e) => e instanceof RangeError && /^hashes:/.test(e.message));
      assert.throws(() => api.recoverAddresses(new Uint8Array(32), new Uint8Array(64)), (e) => e instanceof RangeError && /^signatures:/.test(e.message));
      assert.throws(() => api.recoverAddresses([h, h, h, new Uint8Array(31)], [s, s, s, s]), (e) => e instanceof RangeError && /^hashes\[3\]/.test(e.message));
      assert.throws(() => api.recoverAddresses([h], [5]), (e) => e instanceof TypeError && /^signatures\[0\]/.test(e.message));
      assert.throws(() => api.recoverAddresses('0x', [s]), (e) => e instanceof TypeError && /^hashes/.test(e.message));
      assert.throws(() => api.recoverAddresses(null, null), TypeError);
      for (const bad of [-1, 1.5, NaN, Infinity, 2 ** 60]) {
        assert.throws(() => api.recoverAddresses([h], [s], { threads: bad }), RangeError);
      }
      for (const bad of ['2', null, 2n]) {
        assert.throws(() => api.recoverAddresses([h], [s], { threads: bad }), TypeError);
      }
      assert.throws(() => api.recoverAddresses([h], [s], 4), TypeError);
      assert.equal(api.recoverAddresses([h], [s], {}).valid[0], 1);
    });

    it('the async batch rejects (never throws) for bad arguments', async () => {
      const p = api.recoverAddressesAsync([first.hash], []);
      assert.ok(p instanceof Promise);
      await assert.rejects(p, RangeError);
      await assert.rejects(api.recoverAddressesAsync(1, 2), TypeError);
      await assert.rejects(api.recoverAddressesAsync([first.hash], [first.sig], { threads: -2 }), RangeError);
    });

    it('junk of every kind, thousands of times: an error or a result, never a crash', () => {
      const rng = new Rng(99);
      const junk = () => {
        switch (rng.below(9)) {
          case 0: return rng.bytes(rng.below(200));
          case 1: return rng.bytes(rng.below(2) ? 32 : 65);
          case 2: return `0x${hex(rng.bytes(rng.below(100)))}`;
          case 3: return hex(rng.bytes(rng.below(70)));
          case 4: return [rng.bytes(32), rng.bytes(65)];
          case 5: return rng.below(1000) - 500;
          case 6: return { length: rng.below(100) };
          case 7: return new Uint32Array(rng.below(20));
          default: return undefined;
        }
      };
      const allowed = (e) => e instanceof TypeError || e instanceof RangeError || e instanceof api.AsmcryptoError;
      for (let i = 0; i < 5000; i++) {
        const [a, b] = [junk(), junk()];
        for (const call of [
          () => api.recoverAddress(a, b),
          () => api.recoverPublicKey(a, b),
          () => api.ecrecoverPrecompile(a),
          () => api.keccak256(a),
          () => api.recoverAddresses(a, b),
          () => api.recoverAddresses([a], [b]),
        ]) {
          try {
            call();
          } catch (e) {
            assert.ok(allowed(e), `${e?.name}: ${e?.message}`);
          }
        }
      }
    });
  });

  describe(`${name}: backend`, () => {
    it('names its path', () => {
      const paths = name === 'wasm' ? ['scalar'] : ['avx512-ifma', 'avx512f', 'scalar'];
      assert.ok(paths.includes(api.backend()), api.backend());
      assert.match(api.backendDetails(), new RegExp(`^batch ${api.backend()}, field `));
    });
  });
}

// Not part of the API: bench/bench.mjs reads the Rust batch's own time from the addon.
describe('native: rustBatchSeconds, for the benchmark', () => {
  const addon = createRequire(import.meta.url)('../asmcrypto.node');
  it('is -1 where the lengths do not describe whole items, and a duration otherwise', () => {
    const hashes = Buffer.concat(senders.map((t) => t.hash));
    const sigs = Buffer.concat(senders.map((t) => t.sig));
    // Only the hashes' length off (n whole hashes and a byte), then only the signatures'.
    assert.equal(addon.rustBatchSeconds(Buffer.concat([hashes, Buffer.alloc(1)]), sigs), -1);
    assert.equal(addon.rustBatchSeconds(hashes, sigs.subarray(65)), -1);
    const seconds = addon.rustBatchSeconds(hashes, sigs);
    assert.ok(Number.isFinite(seconds) && seconds > 0, `${seconds}`);
  });
});

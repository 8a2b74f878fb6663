// recoverAddressesAsync off the event loop: a timer keeps firing while a large batch runs
// (on libuv's pool for the addon, between slices for WebAssembly), the inputs are copied when
// the call is made, and the results are recoverAddresses's.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { builds, hex, txSenders } from './fixtures.mjs';

const senders = txSenders();

/** `count` signatures from the published ones, one Uint8Array per side. */
function batch(count) {
  const hashes = new Uint8Array(32 * count);
  const sigs = new Uint8Array(65 * count);
  for (let i = 0; i < count; i++) {
    const t = senders[i % senders.length];
    hashes.set(t.hash, 32 * i);
    sigs.set(t.sig, 65 * i);
  }
  return [hashes, sigs];
}

/** The expected addresses of `batch(count)`. */
const want = (count) =>
  Array.from({ length: count }, (_, i) => senders[i % senders.length].address).join('');

for (const { name, api } of builds) {
  describe(`${name}: recoverAddressesAsync`, () => {
    it('leaves the event loop running: a timer fires many times while a large batch runs', async () => {
      const count = name === 'wasm' ? 4_000 : 100_000;
      const [hashes, sigs] = batch(count);
      let ticks = 0;
      const timer = setInterval(() => ticks++, 1);
      let ticksAtEnd = -1;
      let result;
      try {
        result = await api.recoverAddressesAsync(hashes, sigs).then((r) => {
          ticksAtEnd = ticks;
          return r;
        });
      } finally {
        // Also when the batch fails: a timer left running keeps the process alive.
        clearInterval(timer);
      }
      assert.ok(ticksAtEnd >= 3, `the timer fired ${ticksAtEnd} times during the batch`);
      assert.equal(hex(result.addresses), want(count));
      assert.ok(result.valid.every((v) => v === 1));
    });

    it('copies its inputs when called: changing them afterwards changes nothing', async () => {
      const count = 3_000;
      const [hashes, sigs] = batch(count);
      for (const threads of [1, 4]) {
        const h = hashes.slice();
        const s = sigs.slice();
        const pending = api.recoverAddressesAsync(h, s, { threads });
        h.fill(0);
        s.fill(1);
        assert.equal(hex((await pending).addresses), want(count));
      }
    });

    it('many calls at once, on threads, each its own results', async () => {
      const sizes = [0, 1, 7, 8, 9, 255, 256, 257, 1000, 2049];
      const results = await Promise.all(
        sizes.map((count, k) => {
          const [hashes, sigs] = batch(count);
          return api.recoverAddressesAsync(hashes, sigs, { threads: k % 4 });
        }),
      );
      results.forEach((r, k) => {
        assert.equal(hex(r.addresses), want(sizes[k]), `size ${sizes[k]}`);
        assert.equal(r.valid.length, sizes[k]);
      });
    });
  });
}

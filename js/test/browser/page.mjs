// Runs in the browser (test/browser.test.mjs serves it): recovers the published data with
// asmcrypto/wasm and asmcrypto/wasm/viem and posts what it found back to the test.

import * as asmcrypto from 'asmcrypto/wasm';
import * as viem from 'asmcrypto/wasm/viem';

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const unhex = (s) => new Uint8Array(s.match(/../g)?.map((b) => parseInt(b, 16)) ?? []);

async function jsonl(name) {
  const text = await (await fetch(`/data/${name}`)).text();
  return text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

async function run() {
  const failures = [];
  let checks = 0;
  const check = (ok, what) => {
    checks++;
    if (!ok) failures.push(what);
  };

  const senders = (await jsonl('tx_senders.jsonl')).map((t) => ({
    hash: unhex(t.hash),
    sig: unhex(t.r + t.s + t.recid.toString(16).padStart(2, '0')),
    address: t.address,
  }));
  for (const t of senders) {
    check(hex(asmcrypto.recoverAddress(t.hash, t.sig)) === t.address, `recoverAddress ${t.address}`);
    const checksummed = await viem.recoverAddress({ hash: t.hash, signature: t.sig });
    check(checksummed.slice(2).toLowerCase() === t.address && checksummed !== checksummed.toLowerCase(), `viem ${checksummed}`);
  }
  const batch = asmcrypto.recoverAddresses(senders.map((t) => t.hash), senders.map((t) => t.sig));
  check(hex(batch.addresses) === senders.map((t) => t.address).join(''), 'recoverAddresses');
  const later = await asmcrypto.recoverAddressesAsync(senders.map((t) => t.hash), senders.map((t) => t.sig));
  check(hex(later.addresses) === hex(batch.addresses), 'recoverAddressesAsync');

  for (const v of await jsonl('precompile_ecrecover.jsonl')) {
    check(hex(asmcrypto.ecrecoverPrecompile(unhex(v.input))) === v.expected, `precompile ${v.name}`);
  }
  // keccak256("") and keccak256("abc"), as published for Ethereum's Keccak-256.
  check(hex(asmcrypto.keccak256('0x')) === 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470', 'keccak256("")');
  check(hex(asmcrypto.keccak256('0x616263')) === '4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45', 'keccak256("abc")');
  try {
    asmcrypto.recoverAddress(senders[0].hash, new Uint8Array(65));
    check(false, 'r = 0 throws');
  } catch (err) {
    check(err instanceof asmcrypto.InvalidRError && err.code === 'ASMCRYPTO_INVALID_R', 'InvalidRError');
  }
  return { checks, failures, backend: asmcrypto.backend(), userAgent: navigator.userAgent };
}

let report;
try {
  report = await run();
} catch (err) {
  report = { checks: 0, failures: [`${err?.name}: ${err?.message}`] };
}
document.getElementById('result').textContent = JSON.stringify(report);
await fetch('/result', { method: 'POST', body: JSON.stringify(report) });

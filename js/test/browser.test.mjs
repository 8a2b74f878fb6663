// asmcrypto/wasm in a real browser: headless Chromium loads test/browser/index.html from a
// server on localhost (the package's files, and the published data of tests/data/), the page
// recovers the data with asmcrypto/wasm and asmcrypto/wasm/viem and posts its report back.
// Without a Chromium this test is skipped, unless ASMCRYPTO_REQUIRE_BROWSER=1 (CI).

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { it } from 'node:test';

const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = fileURLToPath(new URL('../../tests/data/', import.meta.url));
const TYPES = {
  '.html': 'text/html',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.jsonl': 'text/plain',
};

/** The first Chromium on the PATH (CHROMIUM names another). */
function findChromium() {
  for (const name of [process.env.CHROMIUM, 'chromium', 'chromium-browser', 'google-chrome']) {
    if (name && spawnSync(name, ['--version']).status === 0) return name;
  }
  return null;
}

const chromium = findChromium();
const required = process.env.ASMCRYPTO_REQUIRE_BROWSER === '1';

it('recovers the published data in headless Chromium', { skip: !chromium && !required && 'no Chromium on the PATH' }, async () => {
  assert.ok(chromium, 'ASMCRYPTO_REQUIRE_BROWSER=1, and no Chromium was found');
  let resolveReport;
  const report = new Promise((resolve) => (resolveReport = resolve));
  const server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/result') {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        res.end();
        resolveReport(JSON.parse(body));
      });
      return;
    }
    const path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    const file = path.startsWith('/data/')
      ? join(dataDir, normalize(path.slice(6)).replace(/^(\.\.[/\\])+/, ''))
      : join(root, normalize(path).replace(/^(\.\.[/\\])+/, ''));
    try {
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const profile = mkdtempSync(join(tmpdir(), 'asmcrypto-chromium-'));
  const url = `http://127.0.0.1:${server.address().port}/test/browser/index.html`;
  const browser = spawn(
    chromium,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
      url,
    ],
    // Its own process group, so that its helper processes end with it.
    { stdio: 'ignore', detached: true },
  );
  try {
    let timer;
    const result = await Promise.race([
      report,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('no report from the page in 120 s')), 120_000);
      }),
    ]).finally(() => clearTimeout(timer));
    assert.deepEqual(result.failures, []);
    // 147 senders (twice: plain and viem), 2 batches, 115 precompile vectors, 2 hashes, 1 error.
    assert.equal(result.checks, 147 * 2 + 2 + 115 + 3);
    assert.equal(result.backend, 'scalar');
    assert.match(result.userAgent, /Chrome/);
  } finally {
    if (browser.exitCode === null && browser.signalCode === null) {
      const exited = new Promise((resolve) => browser.once('exit', resolve));
      process.kill(-browser.pid, 'SIGKILL');
      await exited;
    }
    server.close();
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
});

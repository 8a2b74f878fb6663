// Every JavaScript example of README.md runs as written (with node:assert/strict's
// `assert` in scope), inside the package, so that its imports resolve as a user's do.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { it } from 'node:test';

const root = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const examples = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);

it('README.md has its examples', () => {
  assert.ok(examples.length >= 3, `${examples.length} examples`);
});

for (const [i, code] of examples.entries()) {
  // The first block lists the functions with placeholder arguments: it is only imported.
  const body = code.includes('asmcrypto.recoverAddress(hash, signature);      //')
    ? code.split('\n').filter((line) => line.startsWith('import')).join('\n')
    : code;
  it(`example ${i + 1} runs`, () => {
    execFileSync(
      process.execPath,
      ['--input-type=module', '-e', `import assert from 'node:assert/strict';\n${body}`],
      { cwd: root, stdio: 'inherit' },
    );
  });
}

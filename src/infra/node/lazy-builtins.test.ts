import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { inflateSync } from 'node:zlib';
import { tempDir } from '../../../test/helpers/sandbox.js';
import { createHash, deflateSync, randomBytes } from './lazy-builtins.js';

test('random bytes come in the size asked, never the same twice, and load neither node:crypto nor node:zlib', (t) => {
  assert.equal(randomBytes(16).length, 16);
  assert.equal(randomBytes(0).length, 0);
  assert.notDeepEqual(randomBytes(16), randomBytes(16));
  // A process of its own: this one loaded node:crypto long ago (node:test does).
  const script = join(tempDir(t), 'probe.mjs');
  writeFileSync(
    script,
    [
      `import { randomBytes } from ${JSON.stringify(new URL('./lazy-builtins.js', import.meta.url).href)};`,
      `const hex = randomBytes(16).toString('hex');`,
      `const loaded = process.moduleLoadList.filter((m) => /^NativeModule (crypto|zlib)$/.test(m));`,
      `process.stdout.write(JSON.stringify({ hex, loaded }));`,
    ].join('\n'),
  );
  const out = JSON.parse(execFileSync(process.execPath, [script], { encoding: 'utf8', timeout: 30_000 })) as {
    hex: string;
    loaded: string[];
  };
  assert.match(out.hex, /^[0-9a-f]{32}$/);
  assert.deepEqual(out.loaded, []);
});

test("hashes and deflated bytes are node:crypto's and node:zlib's", () => {
  assert.equal(
    createHash('sha1').update('blob 0\0').digest('hex'),
    'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391',
  );
  const data = Buffer.from('aide '.repeat(100));
  assert.deepEqual(inflateSync(deflateSync(data)), data);
});

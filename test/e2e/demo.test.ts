import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const demo = fileURLToPath(new URL('../../../scripts/demo.mjs', import.meta.url));

test('the README quickstart demo applies the recorded reply and the example tests pass', () => {
  const result = spawnSync(process.execPath, [demo], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(result.status, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /3 edits would change 3 files \(dry run: nothing written\)/);
  assert.match(result.stdout, /M src\/inventory\.js .*block 1 \(indentation\)/);
  assert.match(result.stdout, /A test\/remove\.test\.js/);
  assert.match(result.stdout, /pass 5/);
  assert.match(result.stdout, /aide demo: done/);
});

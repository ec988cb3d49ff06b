import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { gitRepo, tempDir, testEnv } from '../../../test/helpers/sandbox.js';
import { ShadowStore } from './shadow-store.js';

test('a file over the size limit whose name is not UTF-8 is left out by its own name, not a mangled one', async (t) => {
  const root = gitRepo(t, { 'a.txt': 'a\n' });
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 100, command: 'test' });
  t.after(() => store.close());
  const name = Buffer.concat([Buffer.from('big-'), Buffer.from([0xff]), Buffer.from('.bin')]);
  writeFileSync(Buffer.concat([Buffer.from(`${root}/`), name]), 'x'.repeat(500));
  const snap = await store.snapshot();
  assert.deepEqual(
    snap.skipped.map((s) => s.bytes),
    [500],
  );
  const listed = (await store.git.run(['ls-tree', '-r', '-z', '--name-only', snap.tree])).stdout;
  assert.ok(!listed.includes(name), 'the large file is not in the snapshot');
  assert.deepEqual(
    listed.toString('utf8').split('\0').filter(Boolean),
    ['a.txt'],
    'and nothing took its place',
  );
});

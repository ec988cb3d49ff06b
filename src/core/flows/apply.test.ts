import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryFileSystem } from '../testing/fake-files.js';
import { applyToScratch } from './apply.js';

test('a created file: every line counted (one starting "++ " too), its diff made when read and in its JSON', async () => {
  const fs = new MemoryFileSystem();
  fs.files.set('/ws/README.md', '# hi\n');
  const response = 'new.txt\n<<<<<<< SEARCH\n=======\none\n++ two\n--- three\n>>>>>>> REPLACE\n';
  const report = await applyToScratch({ response, root: '/ws' }, fs);
  assert.equal(report.ok, true);
  assert.equal(fs.files.get('/ws/new.txt'), 'one\n++ two\n--- three\n');
  const [file] = report.files;
  const diff = '--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,3 @@\n+one\n+++ two\n+--- three\n';
  assert.deepEqual(file, { path: 'new.txt', action: 'created', added: 3, removed: 0, diff });
  assert.deepEqual(Object.keys(JSON.parse(JSON.stringify(file)) as object), [
    'path',
    'action',
    'added',
    'removed',
    'diff',
  ]);
  assert.deepEqual({ ...file }, { path: 'new.txt', action: 'created', added: 3, removed: 0, diff });
});

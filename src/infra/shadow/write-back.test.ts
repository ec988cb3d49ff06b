/**
 * Writing a verified step back: exactly the scratch's changes (content, executable bit,
 * symlinks, deletions), and nothing at all when a file changed under aide since the base.
 */
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { test, type TestContext } from 'node:test';
import { gitRepo, tempDir, testEnv, writeTree } from '../../../test/helpers/sandbox.js';
import { NodeFileSystem } from '../fs/node-file-system.js';
import { ObjectReader } from './scratch/object-reader.js';
import { ShadowStore } from './shadow-store.js';
import { planWriteBack } from './write-back.js';

async function stepIn(t: TestContext, files: Record<string, string>, edit: (scratch: string) => void) {
  const root = gitRepo(t, files);
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1 << 20, command: 'test' });
  t.after(() => store.close());
  const base = await store.snapshot();
  const scratch = await store.scratches({ tempRoot: tempDir(t), links: [] }).open('step-test', base.tree);
  t.after(() => scratch.dispose());
  edit(scratch.path);
  const capture = await scratch.capture();
  const objects = new ObjectReader(store.git);
  t.after(() => {
    objects.close();
  });
  const fs = new NodeFileSystem();
  return { root, capture, plan: () => planWriteBack(objects, root, capture.changes, fs), fs };
}

test('a step is written back exactly: edits, a new executable, a symlink, a deletion', async (t) => {
  const { root, plan, fs } = await stepIn(t, { 'src/a.js': 'a\n', 'old.txt': 'bye\n' }, (scratch) => {
    writeTree(scratch, { 'src/a.js': 'a changed\n', 'bin/run.sh': '#!/bin/sh\necho run\n' });
    chmodSync(join(scratch, 'bin/run.sh'), 0o755);
    symlinkSync('src/a.js', join(scratch, 'link.js'));
    rmSync(join(scratch, 'old.txt'));
  });
  const { writes, conflicts } = await plan();
  assert.deepEqual(conflicts, []);
  await fs.commit(writes);
  assert.equal(readFileSync(join(root, 'src/a.js'), 'utf8'), 'a changed\n');
  assert.equal(statSync(join(root, 'bin/run.sh')).mode & 0o111, 0o111);
  assert.equal(readlinkSync(join(root, 'link.js')), 'src/a.js');
  assert.equal(existsSync(join(root, 'old.txt')), false);
});

test('a file changed in the workspace since the base is a conflict, and nothing is planned for writing', async (t) => {
  const { root, plan } = await stepIn(t, { 'a.txt': 'one\n', 'b.txt': 'two\n' }, (scratch) => {
    writeTree(scratch, { 'a.txt': 'one from the step\n', 'b.txt': 'two from the step\n' });
  });
  writeFileSync(join(root, 'b.txt'), 'two, edited by the user meanwhile\n');
  const { writes, conflicts } = await plan();
  assert.deepEqual(conflicts, [{ path: 'b.txt', reason: 'changed' }]);
  assert.equal(writes.length, 1, 'the caller must refuse the whole step when there is any conflict');
});

test('a file the step creates that the user created meanwhile, or one the user deleted, is a conflict', async (t) => {
  const { root, plan } = await stepIn(t, { 'keep.txt': 'k\n' }, (scratch) => {
    writeTree(scratch, { 'new.txt': 'from the step\n', 'keep.txt': 'k2\n' });
  });
  writeFileSync(join(root, 'new.txt'), 'from the user\n');
  rmSync(join(root, 'keep.txt'));
  const { conflicts } = await plan();
  assert.deepEqual(
    conflicts.sort((a, b) => a.path.localeCompare(b.path)),
    [
      { path: 'keep.txt', reason: 'deleted' },
      { path: 'new.txt', reason: 'created' },
    ],
  );
});

test('a workspace folder replaced by a symlink that leads out is refused, never written through', async (t) => {
  const outside = tempDir(t);
  const { root, plan } = await stepIn(t, { 'src/x.txt': 'x\n' }, (scratch) => {
    writeTree(scratch, { 'src/y.txt': 'y\n' });
  });
  rmSync(join(root, 'src'), { recursive: true });
  symlinkSync(outside, join(root, 'src'));
  const { conflicts } = await plan();
  assert.ok(
    conflicts.some((c) => c.path === 'src/y.txt' && c.reason === 'outside'),
    JSON.stringify(conflicts),
  );
  assert.equal(existsSync(join(outside, 'y.txt')), false);
});

test('a file already as the step leaves it is no conflict: planned again (a killed write-back rolled forward); a deletion already done is left out', async (t) => {
  const { root, plan, fs } = await stepIn(
    t,
    { 'a.txt': 'one\n', 'b.txt': 'two\n', 'gone.txt': 'bye\n' },
    (scratch) => {
      writeTree(scratch, {
        'a.txt': 'one from the step\n',
        'b.txt': 'two from the step\n',
        'new.txt': 'new\n',
      });
      rmSync(join(scratch, 'gone.txt'));
    },
  );
  // As a write-back killed half way leaves it: a.txt, new.txt and the deletion done, b.txt not.
  writeTree(root, { 'a.txt': 'one from the step\n', 'new.txt': 'new\n' });
  rmSync(join(root, 'gone.txt'));
  const { writes, conflicts } = await plan();
  assert.deepEqual(conflicts, []);
  assert.deepEqual(writes.map((w) => relative(root, w.path)).sort(), ['a.txt', 'b.txt', 'new.txt']);
  await fs.commit(writes);
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'one from the step\n');
  assert.equal(readFileSync(join(root, 'b.txt'), 'utf8'), 'two from the step\n');
});

test('a mode the user changed since the base is a conflict too, though the bytes are the same', async (t) => {
  const { root, plan } = await stepIn(t, { 'run.sh': 'echo 1\n', 'keep.sh': 'echo k\n' }, (scratch) => {
    writeTree(scratch, { 'run.sh': 'echo 2\n' });
    chmodSync(join(scratch, 'keep.sh'), 0o755);
  });
  chmodSync(join(root, 'run.sh'), 0o755);
  const { conflicts } = await plan();
  assert.deepEqual(conflicts, [{ path: 'run.sh', reason: 'mode' }]);
  // The step's own chmod +x, made by hand meanwhile: already as the step leaves it, no conflict.
  chmodSync(join(root, 'run.sh'), 0o644);
  chmodSync(join(root, 'keep.sh'), 0o755);
  assert.deepEqual((await plan()).conflicts, []);
});

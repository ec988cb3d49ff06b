/**
 * A step's write-back and its journal on a real shadow: the journal is there before the files
 * change and stays until the session records the step; a write-back killed half way (as SIGKILL
 * leaves it: some files new, some old, a temp file) is rolled forward, or refused whole when a
 * file changed meanwhile.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type { PendingWriteBack } from '../../core/ports/session.js';
import { gitRepo, tempDir, testEnv, writeTree } from '../../../test/helpers/sandbox.js';
import { NodeFileSystem } from '../fs/node-file-system.js';
import { SessionFiles } from '../session/session-files.js';
import { WRITE_BACK_JOURNAL, writeWriteBackJournal } from '../session/write-back-journal.js';
import { ShadowSessionRecorder } from './session-recorder.js';
import { ShadowStore } from './shadow-store.js';

const SESSION = 'act-20260101-000000-test';

/** A session whose step 1 changes a.txt and b.txt and adds c.txt, checkpointed, not yet written. */
async function checkpointedStep(t: TestContext) {
  const root = gitRepo(t, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1 << 20, command: 'test' });
  t.after(() => store.close());
  const base = await store.checkpoint({ session: SESSION, reason: 'act', message: 'before' });
  const scratch = await store
    .scratches({ tempRoot: tempDir(t), links: [] })
    .open(SESSION, base.checkpoint.id);
  t.after(() => scratch.dispose());
  writeTree(scratch.path, {
    'a.txt': 'a from the step\n',
    'b.txt': 'b from the step\n',
    'c.txt': 'c, new\n',
  });
  const capture = await scratch.capture();
  const files = await SessionFiles.create(store.workspace.stateDir, SESSION);
  const recorder = new ShadowSessionRecorder(store, SESSION, files, new NodeFileSystem());
  const checkpoint = await recorder.checkpointTree(capture.tree, {
    step: '1',
    verdict: 'verified',
    message: 'step 1',
  });
  const step = { step: 1, checkpoint: checkpoint.id, from: capture.base, output: 'out' };
  return { root, files, recorder, capture, step, store };
}

const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8');

test('a write-back journals the step first and leaves the journal for the session to remove once recorded', async (t) => {
  const { root, files, recorder, capture, step } = await checkpointedStep(t);
  assert.equal(await recorder.pendingWriteBack(), null);
  const result = await recorder.writeBack(capture.changes, step);
  assert.deepEqual(result, { written: 3, conflicts: [] });
  assert.equal(read(root, 'c.txt'), 'c, new\n');
  const pending = await recorder.pendingWriteBack();
  assert.deepEqual(
    { ...pending, startedAt: 'x' },
    { ...step, pid: process.pid, startedAt: 'x', changes: capture.changes },
  );
  assert.ok(existsSync(join(files.dir, WRITE_BACK_JOURNAL)));
});

test('a write-back killed half way is rolled forward: files at their old or new content written, its temp files removed', async (t) => {
  const { root, files, recorder, capture, step } = await checkpointedStep(t);
  const dead = 2 ** 22 + 4321;
  const pending: PendingWriteBack = {
    ...step,
    pid: dead,
    startedAt: new Date().toISOString(),
    changes: capture.changes,
  };
  await writeWriteBackJournal(files.dir, pending);
  // As SIGKILL leaves it: a.txt renamed into place, b.txt staged but not renamed, c.txt not begun.
  writeTree(root, {
    'a.txt': 'a from the step\n',
    [`.b.txt.aide-${dead}-0123abcd.tmp`]: 'b from the step\n',
  });
  const found = await recorder.pendingWriteBack();
  assert.ok(found !== null);
  assert.deepEqual(await recorder.finishWriteBack(found), { written: 3, conflicts: [] });
  assert.deepEqual(
    [read(root, 'a.txt'), read(root, 'b.txt'), read(root, 'c.txt')],
    ['a from the step\n', 'b from the step\n', 'c, new\n'],
  );
  assert.deepEqual(
    readdirSync(root).filter((name) => name.endsWith('.tmp')),
    [],
  );
  assert.ok(await recorder.pendingWriteBack(), 'the journal stays until the session records the step');
});

test('a roll-forward that finds a file changed meanwhile writes nothing and names it', async (t) => {
  const { root, files, recorder, capture, step } = await checkpointedStep(t);
  await writeWriteBackJournal(files.dir, {
    ...step,
    pid: process.pid,
    startedAt: new Date().toISOString(),
    changes: capture.changes,
  });
  writeTree(root, { 'a.txt': 'a from the step\n', 'b.txt': 'b, edited by the user\n' });
  const found = await recorder.pendingWriteBack();
  assert.ok(found !== null);
  assert.deepEqual(await recorder.finishWriteBack(found), {
    written: 0,
    conflicts: [{ path: 'b.txt', reason: 'changed' }],
  });
  assert.equal(read(root, 'b.txt'), 'b, edited by the user\n');
  assert.equal(existsSync(join(root, 'c.txt')), false, 'nothing written');
});

test("a step's checkpoint with what the act flow knows of its parent records what the lookups would: the parent, its files changed; a stale hint is ignored", async (t) => {
  const { recorder, capture, step, store } = await checkpointedStep(t);
  const from = { checkpoint: step.checkpoint, tree: capture.base, filesChanged: 99 };
  const plain = await recorder.checkpointTree(capture.base, { step: '2', verdict: 'v', message: 'back' });
  assert.equal(plain.filesChanged, 3);
  // Not the head any more (the checkpoint above moved it): update-ref refuses, the head is looked up.
  const stale = await recorder.checkpointTree(capture.tree, {
    step: '3',
    verdict: 'v',
    message: 'again',
    from,
  });
  assert.equal(stale.filesChanged, 3);
  assert.equal(await store.git.text(['rev-parse', `${stale.id}^`]), plain.id, 'recorded on the real head');
  const hinted = await recorder.checkpointTree(capture.base, {
    step: '4',
    verdict: 'v',
    message: 'hinted',
    from: { checkpoint: stale.id, tree: capture.tree, filesChanged: 3 },
  });
  assert.equal(hinted.filesChanged, 3);
  assert.equal((await recorder.changedFiles(stale.id, hinted.id)).length, 3);
  assert.equal(await store.git.text(['rev-parse', `${hinted.id}^`]), stale.id);
});

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { gitRepo, testEnv, writeTree } from '../../../test/helpers/sandbox.js';
import type { FileWrite } from '../../core/ports/files.js';
import { NodeFileSystem } from '../fs/node-file-system.js';
import { JOURNAL_FILE, readRestoreJournal } from './restore-journal.js';
import { readBlobs } from './raw-objects.js';
import { pruneEmptiedFolders } from './restore-plan.js';
import { ShadowRestorer } from './restore.js';
import { ShadowStore } from './shadow-store.js';

async function open(root: string, maxFileBytes = 1024 * 1024) {
  const store = await ShadowStore.open(root, testEnv(), { maxFileBytes, command: 'test' });
  return { store, restorer: new ShadowRestorer(store, new NodeFileSystem()) };
}

/** A repository with a checkpoint taken; returns the checkpoint id and an open restorer. */
async function withCheckpoint(t: TestContext, files: Record<string, string>, maxFileBytes?: number) {
  const root = gitRepo(t, { '.gitignore': '*.log\nbuild/\n', ...files });
  const { store, restorer } = await open(root, maxFileBytes);
  t.after(async () => {
    await store.close();
  });
  const { checkpoint } = await restorer.checkpoint({ reason: 'manual', message: 'test' });
  return { root, store, restorer, id: checkpoint.id };
}

const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8');
const stateDir = (root: string) => join(root, '.aide/state');

test('a file the checkpoint had that is back but ignored now is left alone, not overwritten', async (t) => {
  const { root, restorer } = await withCheckpoint(t, {});
  writeTree(root, { 'out.txt': 'captured\n' });
  const { checkpoint } = await restorer.checkpoint({ reason: 'manual', message: 'with out.txt' });
  rmSync(join(root, 'out.txt'));
  await restorer.checkpoint({ reason: 'manual', message: 'without it' });
  writeFileSync(join(root, '.gitignore'), '*.log\nbuild/\nout.txt\n');
  writeFileSync(join(root, 'out.txt'), 'ignored now, and in no checkpoint\n');
  const plan = await restorer.planRestore(checkpoint.id);
  assert.deepEqual(plan.leftAlone, [{ path: 'out.txt', reason: 'not-captured' }]);
  assert.deepEqual(plan.changes, [{ path: '.gitignore', action: 'modified', kind: 'file' }]);
});

test('a file tracked by the shadow stays captured when it becomes ignored, so restore may overwrite it', async (t) => {
  const { root, restorer, id } = await withCheckpoint(t, { 'out.txt': 'captured\n' });
  writeFileSync(join(root, '.gitignore'), '*.log\nbuild/\nout.txt\n');
  writeFileSync(join(root, 'out.txt'), 'edited: in the safety checkpoint, like any tracked file\n');
  const plan = await restorer.planRestore(id);
  assert.deepEqual(plan.leftAlone, []);
  assert.deepEqual(
    plan.changes.map((c) => c.path),
    ['.gitignore', 'out.txt'],
  );
});

test('an uncaptured symlink where a folder must go is never written through', async (t) => {
  const { root, restorer, id } = await withCheckpoint(t, { 'lib/a.ts': 'a\n' });
  rmSync(join(root, 'lib'), { recursive: true });
  mkdirSync(join(root, 'elsewhere'));
  symlinkSync('elsewhere', join(root, 'lib'));
  writeFileSync(join(root, '.gitignore'), '*.log\nbuild/\nlib\nelsewhere/\n');
  const plan = await restorer.planRestore(id);
  assert.deepEqual(plan.leftAlone, [{ path: 'lib/a.ts', reason: 'not-captured' }]);
});

test('files over the size limit, now or in the checkpoint, are left alone', async (t) => {
  const { root, restorer, id } = await withCheckpoint(t, { 'small.txt': 's\n' }, 64);
  writeTree(root, { 'big-then.bin': 'x'.repeat(100) });
  const { checkpoint: bigThen } = await restorer.checkpoint({
    reason: 'manual',
    message: 'big file left out',
  });
  assert.deepEqual(bigThen.skipped, ['big-then.bin']);
  writeTree(root, { 'big-then.bin': 'small now\n', 'small.txt': 'y'.repeat(100) });
  const toBigThen = await restorer.planRestore(bigThen.id);
  assert.deepEqual(
    toBigThen.leftAlone.map((s) => [s.path, s.reason]),
    [
      ['big-then.bin', 'too-large-then'],
      ['small.txt', 'too-large-now'],
    ],
  );
  assert.deepEqual(toBigThen.changes, []);
  const toFirst = await restorer.planRestore(id);
  assert.ok(toFirst.leftAlone.some((s) => s.path === 'small.txt' && s.reason === 'too-large-now'));
  assert.ok(!toFirst.changes.some((c) => c.path === 'small.txt'));
});

test('readBlobs reads many blobs, binary and with newlines, in one batch', async (t) => {
  const { store } = await withCheckpoint(t, {});
  const contents = [Buffer.from([0, 10, 10, 255, 0]), Buffer.from('line\n\nmore\n'), Buffer.alloc(0)];
  const shas = contents.map((content) =>
    execFileSync('git', [`--git-dir=${store.git.location.gitDir}`, 'hash-object', '-w', '--stdin'], {
      input: content,
      env: testEnv(),
      encoding: 'utf8',
    }).trim(),
  );
  const blobs = await readBlobs(store.git, [...shas, shas[0] ?? '']);
  assert.deepEqual(
    shas.map((sha) => blobs.get(sha)),
    contents,
  );
});

test('pruneEmptiedFolders removes the folders removals emptied, deepest first, and nothing else', (t) => {
  const root = gitRepo(t);
  mkdirSync(join(root, 'a/b/c'), { recursive: true });
  mkdirSync(join(root, 'keep/empty-of-the-user'), { recursive: true });
  writeTree(root, { 'still/has.log': 'x' });
  return pruneEmptiedFolders(root, ['a/b/c/gone.txt', 'keep/gone.txt', 'still/gone.txt', 'top.txt']).then(
    (removed) => {
      assert.deepEqual(removed, ['a', 'a/b', 'a/b/c']);
      assert.ok(existsSync(join(root, 'keep/empty-of-the-user')));
      assert.ok(existsSync(join(root, 'still/has.log')));
    },
  );
});

test('a workspace changed after planning is refused: nothing written, no journal', async (t) => {
  const { root, restorer, id } = await withCheckpoint(t, { 'a.txt': 'one\n' });
  writeFileSync(join(root, 'a.txt'), 'two\n');
  const plan = await restorer.planRestore(id);
  writeFileSync(join(root, 'a.txt'), 'three, typed while the question was on screen\n');
  const { checkpoint: safety } = await restorer.checkpoint({ reason: 'restore-safety', message: 'before' });
  await assert.rejects(restorer.applyRestore(plan, safety, null), { code: 'workspace_conflict' });
  assert.equal(read(root, 'a.txt'), 'three, typed while the question was on screen\n');
  assert.equal(existsSync(join(stateDir(root), JOURNAL_FILE)), false);
});

test('a write that fails rolls every file back and leaves no journal', async (t) => {
  const { root, store: shadow, id } = await withCheckpoint(t, { 'a.txt': 'one\n', 'b.txt': 'b\n' });
  writeFileSync(join(root, 'a.txt'), 'two\n');
  rmSync(join(root, 'b.txt'));
  let commits = 0;
  const failing = new NodeFileSystem();
  const restorer = new ShadowRestorer(shadow, {
    lstat: (path) => failing.lstat(path),
    readFile: (path) => failing.readFile(path),
    realpath: (path) => failing.realpath(path),
    commit: async (changes: readonly FileWrite[]) => {
      commits++;
      // A folder where the last file goes: its rename fails after the others were renamed.
      mkdirSync(join(root, 'b.txt/blocker'), { recursive: true });
      await failing.commit(changes);
    },
  });
  const plan = await restorer.planRestore(id);
  const { checkpoint: safety } = await restorer.checkpoint({ reason: 'restore-safety', message: 'before' });
  await assert.rejects(restorer.applyRestore(plan, safety, null), {
    code: 'restore_failed',
    message: /every file was put back/,
  });
  assert.equal(commits, 1);
  assert.equal(read(root, 'a.txt'), 'two\n');
  assert.equal(await readRestoreJournal(stateDir(root)), null);
  assert.deepEqual(
    readdirSync(root).filter((n) => n.includes('.aide-')),
    [],
  );
});

test('a journal aide did not write is an error that says what to do', async (t) => {
  const root = gitRepo(t);
  writeTree(root, { [`.aide/state/${JOURNAL_FILE}`]: '{"schema":"something else"}' });
  await assert.rejects(readRestoreJournal(stateDir(root)), {
    code: 'restore_failed',
    message: /is not one aide wrote/,
  });
});

test('a file whose name is not UTF-8 is left alone rather than written under a mangled name', async (t) => {
  const { root, restorer } = await withCheckpoint(t, {});
  const latin1 = Buffer.concat([Buffer.from(`${root}/caf`), Buffer.from([0xe9]), Buffer.from('.txt')]);
  writeFileSync(latin1, 'café in latin-1\n');
  const { checkpoint } = await restorer.checkpoint({ reason: 'manual', message: 'with it' });
  rmSync(latin1);
  const plan = await restorer.planRestore(checkpoint.id);
  assert.deepEqual(plan.changes, []);
  assert.deepEqual(plan.leftAlone, [{ path: 'caf\uFFFD.txt', reason: 'name-not-utf8' }]);
});

import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { git, gitRepo, tempDir, testEnv, type Cleanup } from '../../../test/helpers/sandbox.js';
import { createCheckpoint } from './checkpoint-commit.js';
import { describeWorkspace } from './shadow-repo.js';
import { ShadowStore } from './shadow-store.js';
import { seedableIndex } from './snapshot-seed.js';

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

describe('seeding the index from the user’s under .gitattributes', () => {
  const seedable = async (t: Cleanup, files: Record<string, string>, config: string[] = []) => {
    const root = gitRepo(t, files);
    for (const c of config) git(root, ['config', ...c.split(' ')]);
    return seedableIndex(await describeWorkspace(root, testEnv()), testEnv());
  };

  test('babel’s `* text eol=lf` on LF files seeds; filters, encodings, CRLF checkouts do not', async (t) => {
    assert.notEqual(await seedable(t, { '.gitattributes': '* text eol=lf\n', 'a.js': 'a\n' }), undefined);
    assert.notEqual(await seedable(t, { 'a.js': 'a\n' }), undefined);
    for (const attributes of [
      '*.bin filter=lfs diff=lfs merge=lfs -text\n',
      '*.txt working-tree-encoding=UTF-16\n',
      '*.bat text eol=crlf\n',
      '*.c ident\n',
    ]) {
      assert.equal(await seedable(t, { '.gitattributes': attributes }), undefined, attributes);
      // In a folder's own attributes file too, not only the top one.
      assert.equal(
        await seedable(t, { 'a.js': 'a\n', 'assets/.gitattributes': attributes, 'assets/x.bin': 'x' }),
        undefined,
        `assets/: ${attributes}`,
      );
    }
    assert.equal(await seedable(t, { 'a.js': 'a\n' }, ['core.autocrlf true']), undefined);
    assert.equal(await seedable(t, { 'a.js': 'a\n' }, ['core.eol crlf']), undefined);
    assert.notEqual(await seedable(t, { 'a.js': 'a\n' }, ['core.autocrlf input']), undefined);
  });

  test('a CRLF file the user added under `* text eol=lf` is checkpointed with its CRLF bytes', async (t) => {
    const root = gitRepo(t, {
      '.gitattributes': '* text eol=lf\n',
      'lf.txt': 'one\ntwo\n',
      'crlf.txt': 'one\r\ntwo\r\n',
    });
    // Files older than the index (not racily clean), refreshed: the user's index holds the LF
    // blob with the CRLF file's stat data, and git never re-hashes it.
    const past = new Date(Date.now() - 60_000);
    for (const name of ['.gitattributes', 'lf.txt', 'crlf.txt']) utimesSync(join(root, name), past, past);
    assert.equal(git(root, ['status', '--porcelain']).trim(), '');
    const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1e6, command: 'test' });
    t.after(() => store.close());
    const snap = await store.snapshot();
    const read = (path: string) => store.git.text(['cat-file', 'blob', `${snap.tree}:${path}`]);
    assert.equal(
      (await store.git.run(['cat-file', 'blob', `${snap.tree}:crlf.txt`])).stdout.toString(),
      'one\r\ntwo\r\n',
    );
    assert.equal(await read('lf.txt'), 'one\ntwo');
  });
});

test('a checkpoint of the paths aide wrote records the same tree a full snapshot would', async (t) => {
  const root = gitRepo(t, { 'a.txt': 'a\n', 'b.txt': 'b\n', 'dir/c.txt': 'c\n', '.gitignore': '*.env\n' });
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1e6, command: 'test' });
  t.after(() => store.close());
  await store.checkpoint({ reason: 'apply', message: 'before', paths: ['a.txt', 'new/d.txt', 'x.env'] });
  writeFileSync(join(root, 'a.txt'), 'edited\n');
  rmSync(join(root, 'b.txt'));
  mkdirSync(join(root, 'new'));
  writeFileSync(join(root, 'new/d.txt'), 'd\n');
  writeFileSync(join(root, 'x.env'), 'SECRET=1\n');
  const known = await store.checkpointWritten(['a.txt', 'b.txt', 'new/d.txt', 'x.env'], {
    reason: 'apply',
    message: 'after',
  });
  const full = await store.snapshot();
  assert.equal(known.checkpoint.filesChanged, 4);
  assert.equal(await store.git.text(['rev-parse', `${known.checkpoint.id}^{tree}`]), full.tree);
  assert.equal(
    await store.git.text(['cat-file', 'blob', `${full.tree}:x.env`]),
    'SECRET=1',
    'ignored, yet aide wrote it',
  );
});

test('a known-paths checkpoint through a symlinked folder falls back to a full snapshot', async (t) => {
  const root = gitRepo(t, { 'a.txt': 'a\n', 'real/b.txt': 'b\n' });
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1e6, command: 'test' });
  t.after(() => store.close());
  await store.checkpoint({ reason: 'apply', message: 'before' });
  symlinkSync('real', join(root, 'link'));
  writeFileSync(join(root, 'real/b.txt'), 'through the link\n');
  writeFileSync(join(root, 'other.txt'), 'not written by aide\n');
  const known = await store.checkpointWritten(['link/b.txt'], { reason: 'apply', message: 'after' });
  const tree = await store.git.text(['rev-parse', `${known.checkpoint.id}^{tree}`]);
  assert.equal(await store.git.text(['cat-file', 'blob', `${tree}:real/b.txt`]), 'through the link');
  assert.equal(
    await store.git.text(['cat-file', '-t', `${tree}:other.txt`]),
    'blob',
    'the full snapshot saw it',
  );
});

test("a known-paths checkpoint after the user changed another file holds that file as the last full snapshot saw it, and the next full snapshot holds the user's edit", async (t) => {
  const root = gitRepo(t, { 'a.txt': 'a\n', 'other.txt': 'before\n' });
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1e6, command: 'test' });
  t.after(() => store.close());
  await store.checkpoint({ reason: 'apply', message: 'before' });
  writeFileSync(join(root, 'other.txt'), 'the user, outside aide\n');
  writeFileSync(join(root, 'a.txt'), 'aide\n');
  const known = await store.checkpointWritten(['a.txt'], { reason: 'apply', message: 'after' });
  const blob = async (tree: string, path: string) => store.git.text(['cat-file', 'blob', `${tree}:${path}`]);
  assert.equal(known.checkpoint.filesChanged, 1, 'only what aide wrote is read again');
  assert.equal(await blob(known.checkpoint.id, 'a.txt'), 'aide');
  assert.equal(await blob(known.checkpoint.id, 'other.txt'), 'before');
  const full = await store.snapshot();
  assert.equal(await blob(full.tree, 'other.txt'), 'the user, outside aide');
  assert.equal(await blob(full.tree, 'a.txt'), 'aide');
  assert.equal(full.changed, 1, 'the full snapshot finds the edit the known-paths one did not read');
});

test('the objects a known-paths save writes itself are ones git reads and fsck accepts, holding the bytes on disk', async (t) => {
  const root = gitRepo(t, { 'a.txt': 'a\n', 'gone/only.txt': 'only\n', 'keep/b.txt': 'b\n' });
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1e6, command: 'test' });
  t.after(() => store.close());
  const session = 'known-objects';
  await store.checkpoint({ reason: 'apply', message: 'before', session });
  const files: Record<string, Buffer> = {
    'a.txt': Buffer.from('a\r\nwith CRLF\r\n'),
    'new/deeper/bin.dat': Buffer.from([0, 255, 13, 10, 0, 1]),
    'empty.txt': Buffer.alloc(0),
    'keep/run.sh': Buffer.from('#!/bin/sh\n'),
  };
  mkdirSync(join(root, 'new/deeper'), { recursive: true });
  for (const [path, bytes] of Object.entries(files)) writeFileSync(join(root, path), bytes);
  chmodSync(join(root, 'keep/run.sh'), 0o755);
  rmSync(join(root, 'gone'), { recursive: true });
  const first = await store.checkpointWritten([...Object.keys(files), 'gone/only.txt'], {
    reason: 'apply',
    message: 'after',
    session,
  });
  writeFileSync(join(root, 'a.txt'), 'again\n');
  const second = await store.checkpointWritten(['a.txt'], { reason: 'apply', message: 'again', session });
  await store.git.run(['fsck', '--strict', '--no-dangling']);
  const blob = async (rev: string) => (await store.git.run(['cat-file', 'blob', rev])).stdout;
  for (const [path, bytes] of Object.entries(files))
    assert.deepEqual(await blob(`${first.checkpoint.id}:${path}`), bytes, path);
  assert.equal(
    await store.git.text(['ls-tree', first.checkpoint.id, 'keep/run.sh']).then((l) => l.split(' ')[0]),
    '100755',
  );
  assert.equal(first.checkpoint.filesChanged, 5);
  assert.equal(
    await store.git.text(['rev-parse', `${second.checkpoint.id}^`]),
    first.checkpoint.id,
    'the next save is on the first',
  );
  const full = await store.snapshot();
  assert.equal(await store.git.text(['rev-parse', `${second.checkpoint.id}^{tree}`]), full.tree);
});

test('a known-paths save after the session’s branch moved elsewhere is recorded on the branch’s head', async (t) => {
  const root = gitRepo(t, { 'a.txt': 'a\n' });
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1e6, command: 'test' });
  t.after(() => store.close());
  const session = 'moved-branch';
  const { checkpoint: first } = await store.checkpoint({ reason: 'apply', message: 'before', session });
  // Another writer (a step's recorder) moves the branch on without this store knowing.
  writeFileSync(join(root, 'b.txt'), 'b\n');
  const other = await createCheckpoint(store.git, (await store.snapshot()).tree, {
    session,
    reason: 'step',
    message: 'elsewhere',
  });
  writeFileSync(join(root, 'a.txt'), 'edited\n');
  const { checkpoint } = await store.checkpointWritten(['a.txt'], {
    reason: 'apply',
    message: 'after',
    session,
  });
  assert.notEqual(other.checkpoint.id, first.id);
  assert.equal(await store.git.text(['rev-parse', `${checkpoint.id}^`]), other.checkpoint.id);
  assert.equal(await store.git.text(['rev-parse', `refs/heads/aide/${session}`]), checkpoint.id);
});

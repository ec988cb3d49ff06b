import assert from 'node:assert/strict';
import { chmodSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { gitRepo, tempDir, testEnv, writeTree } from '../../../../test/helpers/sandbox.js';
import { ShadowStore } from '../shadow-store.js';
import type { TreeChange } from '../../../core/ports/changes.js';
import { diffTrees } from '../raw-objects.js';
import { writeLooseObject } from '../loose-objects.js';
import { ObjectReader, objectsOnly } from './object-reader.js';

async function open(t: TestContext, files: Record<string, string>) {
  const root = gitRepo(t, files);
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1 << 24, command: 'test' });
  t.after(() => store.close());
  const objects = new ObjectReader(store.git);
  t.after(() => {
    objects.close();
  });
  return { root, store, objects };
}

/** git's own answer, read by the one raw-diff parser, for comparison. */
async function diffTree(store: ShadowStore, from: string, to: string): Promise<TreeChange[]> {
  const changes = await diffTrees(store.git, from, to, objectsOnly(store.git));
  return changes
    .map(({ path, action, oldMode, newMode, oldBlob, newBlob }) => ({
      path,
      action,
      oldMode,
      newMode,
      oldBlob,
      newBlob,
    }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

test('tree changes match diff-tree -r: edits, adds, deletes, modes, symlinks, file ↔ folder', async (t) => {
  const { root, store, objects } = await open(t, {
    'a.txt': 'a\n',
    'dir/b.txt': 'b\n',
    'dir/deep/c.txt': 'c\n',
    'run.sh': '#!/bin/sh\n',
    'gone/x.txt': 'x\n',
    flip: 'file\n',
  });
  const before = (await store.snapshot()).tree;
  writeTree(root, { 'a.txt': 'a2\n', 'new/n.txt': 'n\n', 'dir/deep/d.txt': 'd\n' });
  chmodSync(join(root, 'run.sh'), 0o755);
  rmSync(join(root, 'gone'), { recursive: true });
  rmSync(join(root, 'flip'));
  writeTree(root, { 'flip/inside.txt': 'now a folder\n' });
  rmSync(join(root, 'dir/b.txt'));
  symlinkSync('a.txt', join(root, 'dir/b.txt'));
  const after = (await store.snapshot()).tree;
  assert.deepEqual(await objects.changes(before, after), await diffTree(store, before, after));
  assert.deepEqual(await objects.changes(after, before), await diffTree(store, after, before));
  assert.deepEqual(await objects.changes(after, after), []);
});

test('reads are answered in order, large objects across many chunks, missing ones as null', async (t) => {
  const big = 'x'.repeat(3 * 1024 * 1024 + 17);
  const { store, objects } = await open(t, { 'big.bin': big, 'small.txt': 'small\n' });
  const tree = (await store.snapshot()).tree;
  const [bigObject, missing, small, treeId] = await Promise.all([
    objects.read(`${tree}:big.bin`),
    objects.read(`${tree}:nope.txt`),
    objects.read(`${tree}:small.txt`),
    objects.treeId(tree),
  ]);
  assert.equal(bigObject?.content.length, big.length);
  assert.equal(bigObject?.content.toString('utf8'), big);
  assert.equal(missing, null);
  assert.equal(small?.content.toString('utf8'), 'small\n');
  assert.equal(treeId, tree);
  assert.equal(await objects.treeId('0123456789abcdef0123456789abcdef01234567'), null);
  await assert.rejects(objects.read('two\nlines'), /not a revision/);
});

test('a reader whose git died starts a new one on the next read', async (t) => {
  const { store, objects } = await open(t, { 'a.txt': 'a\n' });
  const tree = (await store.snapshot()).tree;
  assert.equal((await objects.read(`${tree}:a.txt`))?.content.toString('utf8'), 'a\n');
  objects.close();
  assert.equal((await objects.read(`${tree}:a.txt`))?.content.toString('utf8'), 'a\n');
});

test('a changed file whose name is not UTF-8 is refused, never written under a mangled name', async (t) => {
  const { root, store, objects } = await open(t, { 'a.txt': 'a\n' });
  const odd = Buffer.concat([Buffer.from(`${root}/odd-`), Buffer.from([0xff]), Buffer.from('.txt')]);
  writeFileSync(odd, 'one\n');
  const first = (await store.snapshot()).tree;
  writeTree(root, { 'a.txt': 'a2\n' });
  const second = (await store.snapshot()).tree;
  assert.deepEqual(
    (await objects.changes(first, second)).map((c) => c.path),
    ['a.txt'],
    'an unchanged odd name is no obstacle',
  );
  writeFileSync(odd, 'two\n');
  const third = (await store.snapshot()).tree;
  await assert.rejects(objects.changes(second, third), /is not UTF-8/);
});

test('a tree read once is kept (its id names its content), within a bound on the entries kept', async (t) => {
  const { store } = await open(t, { 'a.txt': 'a\n' });
  const gitDir = store.git.location.gitDir;
  const blob = await writeLooseObject(gitDir, 'blob', Buffer.from('kept\n'), 'sha1');
  const treeOf = (name: string) =>
    writeLooseObject(
      gitDir,
      'tree',
      Buffer.concat([Buffer.from(`100644 ${name}\0`), Buffer.from(blob, 'hex')]),
      'sha1',
    );
  const [first, second, third] = await Promise.all([treeOf('one'), treeOf('two'), treeOf('three')]);
  const gone = (id: string) => {
    rmSync(join(gitDir, 'objects', id.slice(0, 2), id.slice(2)), { force: true });
  };
  const names = async (reader: ObjectReader, id: string) =>
    [...(await reader.tree(id)).values()].map((e) => e.name);

  // Room for one entry: the second tree read pushes out the first.
  const reader = new ObjectReader(store.git, 1);
  t.after(() => {
    reader.close();
  });
  assert.deepEqual(await names(reader, first), ['one']);
  assert.deepEqual(await names(reader, second), ['two']);
  for (const id of [first, second, third]) gone(id);
  assert.deepEqual(await names(reader, second), ['two'], 'the kept tree is read without git');
  await assert.rejects(reader.tree(first), /is not a tree/, 'the one pushed out is asked of git again');
  await assert.rejects(reader.tree(third), /is not a tree/, 'a tree never read comes from git');
});

import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { gitRepo, tempDir, testEnv } from '../../../../test/helpers/sandbox.js';
import { EMPTY_TREE } from '../snapshot.js';
import { ShadowStore } from '../shadow-store.js';
import { ObjectReader } from './object-reader.js';
import { PRIVATE_INDEX } from './scratch-start.js';
import { ShadowScratches, type WorktreeScratch } from './worktree-scratch.js';
import { writtenTree } from './written-tree.js';

const FILES = {
  '.gitignore': '*.env\nbuild/\n',
  '.gitattributes': '*.txt text eol=lf\n',
  'src/a.ts': 'a\n',
  'src/b.ts': 'b\n',
  'src/deep/only.ts': 'the only file of its folder\n',
  'real/c.ts': 'c\n',
  'notes.txt': 'lf\n',
  'run.sh': '#!/bin/sh\n',
};

interface Opened {
  scratch: WorktreeScratch;
  store: ShadowStore;
  /** The tree from the written paths alone (null: not modelled), as the scratch's capture asks for it. */
  fromPaths: (paths: string[]) => Promise<string | null>;
  /** The tree a full scan of the scratch records (every file against the index). */
  fullScan: () => Promise<string>;
}

async function open(t: TestContext): Promise<Opened> {
  const root = gitRepo(t, FILES);
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1 << 20, command: 'test' });
  t.after(() => store.close());
  const scratches = new ShadowScratches(store.git, store.workspace, {
    tempRoot: tempDir(t, 'aide-written-'),
    links: [],
  });
  const scratch = await scratches.open('written', (await store.snapshot()).tree);
  t.after(() => scratch.dispose());
  scratch.trackWrites();
  const objects = new ObjectReader(store.git);
  t.after(() => {
    objects.close();
  });
  const options = { workTree: scratch.path, indexFile: join(scratch.adminDir, PRIVATE_INDEX) };
  return {
    scratch,
    store,
    fromPaths: (paths) =>
      writtenTree(store.git, objects, {
        base: scratch.base,
        paths,
        root: scratch.path,
        fileMode: true,
        options,
      }),
    fullScan: async () => {
      scratch.noteForeign();
      return (await scratch.capture()).tree;
    },
  };
}

test('the tree from the written paths is the one a full scan records: edits, new folders, deletions, ignore rules, modes, filters', async (t) => {
  const { scratch, fromPaths, fullScan } = await open(t);
  const at = (path: string) => join(scratch.path, path);
  writeFileSync(at('src/a.ts'), 'edited\n');
  mkdirSync(at('src/new/deeper'), { recursive: true });
  writeFileSync(at('src/new/deeper/n.ts'), 'new, in new folders\n');
  rmSync(at('src/deep'), { recursive: true });
  writeFileSync(at('secret.env'), 'new and ignored: left out\n');
  mkdirSync(at('build'));
  writeFileSync(at('build/out.js'), 'in an ignored folder: left out\n');
  writeFileSync(at('notes.txt'), 'crlf\r\nlines\r\n');
  chmodSync(at('run.sh'), 0o755);
  rmSync(at('real'), { recursive: true });
  writeFileSync(at('real'), 'a file where a folder was\n');
  const paths = [
    'src/a.ts',
    'src/new/deeper/n.ts',
    'src/deep/only.ts',
    'secret.env',
    'build/out.js',
    'notes.txt',
    'run.sh',
    'real',
    'never/written.ts',
  ];
  const tree = await fromPaths(paths);
  assert.notEqual(tree, null, 'every path is one the written tree models');
  assert.equal(tree, await fullScan());
});

test('paths written with what they held already give the known tree; everything deleted gives the empty tree', async (t) => {
  const { scratch, fromPaths, fullScan } = await open(t);
  writeFileSync(join(scratch.path, 'src/a.ts'), 'a\n');
  assert.equal(await fromPaths(['src/a.ts']), scratch.base);
  const all = Object.keys(FILES);
  for (const path of all) rmSync(join(scratch.path, path));
  const tree = await fromPaths(all);
  assert.equal(tree, EMPTY_TREE);
  assert.equal(tree, await fullScan());
});

test('what it does not model gives null: a symlink written, a file or a symlink on the way, a file become a folder', async (t) => {
  const { scratch, fromPaths } = await open(t);
  const at = (path: string) => join(scratch.path, path);
  symlinkSync('a.ts', at('src/link.ts'));
  assert.equal(await fromPaths(['src/link.ts']), null);
  rmSync(at('src/b.ts'));
  mkdirSync(at('src/b.ts'));
  writeFileSync(at('src/b.ts/inner.ts'), 'a folder where a file was\n');
  assert.equal(await fromPaths(['src/b.ts/inner.ts']), null, 'a file of the known tree on the way');
  assert.equal(await fromPaths(['src/b.ts']), null, 'a folder at a written path');
  rmSync(at('real'), { recursive: true });
  symlinkSync('src', at('real'));
  assert.equal(await fromPaths(['real/c.ts']), null, 'a symlink on the way');
});

test("the scratch's capture takes the written paths' tree, and a later full scan agrees with it", async (t) => {
  const { scratch, fullScan } = await open(t);
  writeFileSync(join(scratch.path, 'src/a.ts'), 'edited\n');
  writeFileSync(join(scratch.path, 'src/c.ts'), 'new\n');
  scratch.noteWritten(['src/a.ts', 'src/c.ts']);
  const known = await scratch.capture();
  assert.deepEqual(
    known.changes.map((c) => `${c.action} ${c.path}`),
    ['modified src/a.ts', 'created src/c.ts'],
  );
  // The index was left behind: the full scan brings it up first and must see no other change.
  assert.equal(await fullScan(), known.tree);
});

test('after a move that only modified and deleted files (the index not rewritten), a full scan records the files, not the stale entries', async (t) => {
  const { scratch, store, fullScan } = await open(t);
  const first = scratch.base;
  writeFileSync(join(store.workspace.root, 'src/a.ts'), 'the next base\n');
  rmSync(join(store.workspace.root, 'src/b.ts'));
  const next = (await store.snapshot()).tree;
  await scratch.moveTo(next);
  assert.equal(await fullScan(), next);
  await scratch.moveTo(first);
  assert.equal(await fullScan(), first);
  // A command puts the first base's content back: seen, whatever the index held.
  await scratch.moveTo(next);
  writeFileSync(join(scratch.path, 'src/a.ts'), 'a\n');
  scratch.noteForeign();
  const scanned = await scratch.capture();
  assert.deepEqual(
    (await scratch.changedFiles(scanned)).map((f) => `${f.action} ${f.path}`),
    ['modified src/a.ts'],
  );
});

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { git, gitRepo, tempDir, testEnv, writeTree } from '../../../../test/helpers/sandbox.js';
import { readTree } from '../../../../test/helpers/tree.js';
import { ShadowStore } from '../shadow-store.js';
import { ShadowScratches } from './worktree-scratch.js';

const FILES = {
  '.gitignore': 'dist/\nnode_modules/\n',
  'src/a.ts': 'a\n',
  'src/b.ts': 'b\n',
  'lib/c.ts': 'c\n',
};

async function setup(t: TestContext) {
  const root = gitRepo(t, FILES);
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1 << 20, command: 'test' });
  t.after(() => store.close());
  const tempRoot = tempDir(t, 'aide-kept-');
  const scratches = () =>
    new ShadowScratches(store.git, store.workspace, { tempRoot, links: ['node_modules'], keep: true });
  const first = (await store.snapshot()).tree;
  writeFileSync(join(root, 'src/a.ts'), 'a, second\n');
  writeFileSync(join(root, 'src/new.ts'), 'new\n');
  const second = (await store.snapshot()).tree;
  return { root, store, scratches, first, second };
}

/** The files of a tree, as a checkout has them. */
async function treeFiles(store: ShadowStore, tree: string): Promise<string[]> {
  const names = await store.git.fields(['ls-tree', '-r', '-z', '--name-only', tree]);
  return names.sort();
}

function scratchNames(path: string): string[] {
  return [...readTree(path, ['.git', 'node_modules']).keys()].sort();
}

test('the kept scratch outlives its session and is moved to the next session’s tree', async (t) => {
  const { store, scratches, first, second } = await setup(t);
  const one = await scratches().open('act-1', first);
  const path = one.path;
  writeFileSync(join(path, 'src/b.ts'), 'an edit left behind\n');
  await one.dispose();
  assert.ok(existsSync(join(path, 'src/a.ts')), 'kept after dispose');
  const two = await scratches().open('act-2', second);
  t.after(() => two.dispose());
  assert.equal(two.path, path, 'the same folder');
  assert.equal(two.session, 'act-2');
  assert.deepEqual(scratchNames(path), await treeFiles(store, second));
  assert.equal(readFileSync(join(path, 'src/a.ts'), 'utf8'), 'a, second\n');
  assert.equal(readFileSync(join(path, 'src/b.ts'), 'utf8'), 'b\n', 'the edit left behind is swept');
  assert.equal((await two.capture()).tree, second);
});

test('a kept scratch tampered with between sessions is swept back to the tree: files, .git, hooks, nested repos, symlinks', async (t) => {
  const { store, scratches, first, second } = await setup(t);
  const outside = tempDir(t, 'aide-outside-');
  writeTree(outside, { 'precious.txt': 'keep me\n' });
  const one = await scratches().open('act-1', first);
  const path = one.path;
  await one.dispose();
  // What a verify command could leave: edits, new and ignored files, a planted .git folder with
  // hooks and config, a nested repository, a tracked folder replaced by a symlink out.
  writeFileSync(join(path, 'src/a.ts'), 'tampered\n');
  writeTree(path, {
    'planted.ts': 'x\n',
    'dist/out.js': 'poisoned build\n',
    'node_modules/evil/index.js': 'x\n',
  });
  rmSync(join(path, '.git'));
  writeTree(path, { '.git/hooks/post-checkout': '#!/bin/sh\ntouch /tmp/pwned\n', '.git/config': '[core]\n' });
  mkdirSync(join(path, 'lib/nested'));
  git(join(path, 'lib/nested'), ['init', '-q']);
  rmSync(join(path, 'src'), { recursive: true });
  symlinkSync(outside, join(path, 'src'));
  const two = await scratches().open('act-2', second);
  t.after(() => two.dispose());
  assert.equal(two.path, path);
  assert.deepEqual(scratchNames(path), await treeFiles(store, second));
  assert.ok(lstatSync(join(path, 'src')).isDirectory() && !lstatSync(join(path, 'src')).isSymbolicLink());
  assert.match(readFileSync(join(path, '.git'), 'utf8'), /^gitdir: .*worktrees/, 'a gitdir file again');
  assert.deepEqual([...readTree(outside).keys()], ['precious.txt'], 'nothing written or removed outside');
  assert.equal((await two.capture()).tree, second);
  // git run inside sees a clean checkout of the new base.
  const status = git(path, ['status', '--porcelain']);
  assert.equal(status.trim(), '');
});

test('a kept scratch in use by a live process is not shared: the second session gets its own', async (t) => {
  const { scratches, first } = await setup(t);
  const one = await scratches().open('act-1', first);
  t.after(() => one.dispose());
  const two = await scratches().open('act-2', first);
  assert.notEqual(two.path, one.path);
  await two.dispose();
  assert.ok(!existsSync(two.path), 'the per-session one goes at dispose');
  assert.ok(existsSync(one.path));
});

test('a record of an unknown version makes the kept scratch stale: removed, made afresh', async (t) => {
  const { store, scratches, first } = await setup(t);
  const one = await scratches().open('act-1', first);
  await one.dispose();
  const record = join(store.git.location.gitDir, 'aide-kept-scratch.json');
  const parsed = JSON.parse(readFileSync(record, 'utf8')) as Record<string, unknown>;
  writeFileSync(record, JSON.stringify({ ...parsed, version: 99 }));
  const two = await scratches().open('act-2', first);
  t.after(() => two.dispose());
  assert.notEqual(two.path, one.path);
  assert.ok(!existsSync(one.path), 'the stale one is removed');
  assert.deepEqual(scratchNames(two.path), await treeFiles(store, first));
});

test('removeKept (aide checkpoints prune) removes the folder, its worktree entry and the record', async (t) => {
  const { store, scratches, first } = await setup(t);
  const one = await scratches().open('act-1', first);
  await one.dispose();
  assert.equal(await store.removeKeptScratch(join(one.path, '..', '..', '..')), true);
  assert.ok(!existsSync(one.path));
  assert.equal(
    git(store.workspace.root, ['--git-dir', store.git.location.gitDir, 'worktree', 'list'])
      .split('\n')
      .filter(Boolean).length,
    1,
  );
  assert.ok(!existsSync(join(store.git.location.gitDir, 'aide-kept-scratch.json')));
});

test('an interrupted session removes the kept scratch (dispose with remove); the next one is made afresh', async (t) => {
  const { store, scratches, first } = await setup(t);
  const one = await scratches().open('act-1', first);
  await one.dispose({ remove: true });
  assert.ok(!existsSync(one.path));
  assert.ok(!existsSync(join(store.git.location.gitDir, 'aide-kept-scratch.json')));
  const two = await scratches().open('act-2', first);
  t.after(() => two.dispose());
  assert.deepEqual(scratchNames(two.path), await treeFiles(store, first));
});

test('taken up at the tree it was left at, what a command changed is put back: edits, deletions, new files, modes', async (t) => {
  const { store, scratches, first } = await setup(t);
  const one = await scratches().open('act-1', first);
  const path = one.path;
  await one.dispose();
  // aide's index still says the files are at `first`: only the scan can tell they are not.
  writeFileSync(join(path, 'src/b.ts'), 'b, edited by a command\n');
  rmSync(join(path, 'lib/c.ts'));
  writeFileSync(join(path, 'src/extra.ts'), 'extra\n');
  chmodSync(join(path, 'src/a.ts'), 0o755);
  const two = await scratches().open('act-2', first);
  t.after(() => two.dispose());
  assert.equal(two.path, path);
  assert.deepEqual(scratchNames(path), await treeFiles(store, first));
  assert.equal(readFileSync(join(path, 'src/b.ts'), 'utf8'), 'b\n');
  assert.equal(readFileSync(join(path, 'lib/c.ts'), 'utf8'), 'c\n');
  assert.equal(statSync(join(path, 'src/a.ts')).mode & 0o111, 0);
  assert.equal((await two.capture()).tree, first);
  assert.equal(git(path, ['status', '--porcelain']).trim(), '');
});

test('a kept scratch whose index names an object that is not there still ends at exactly the tree', async (t) => {
  const { store, scratches, first, second } = await setup(t);
  const one = await scratches().open('act-1', first);
  await one.dispose();
  const { adminDir } = JSON.parse(
    readFileSync(join(store.git.location.gitDir, 'aide-kept-scratch.json'), 'utf8'),
  ) as { adminDir: string };
  const missing = '0123456789abcdef0123456789abcdef01234567';
  execFileSync('git', ['update-index', '--cacheinfo', `100644,${missing},src/b.ts`], {
    cwd: one.path,
    env: { ...testEnv(tempDir(t)), GIT_INDEX_FILE: join(adminDir, 'aide-index') },
  });
  const two = await scratches().open('act-2', second);
  t.after(() => two.dispose());
  assert.deepEqual(scratchNames(two.path), await treeFiles(store, second));
  assert.equal(readFileSync(join(two.path, 'src/b.ts'), 'utf8'), 'b\n');
  assert.equal((await two.capture()).tree, second);
  assert.equal(git(two.path, ['status', '--porcelain']).trim(), '');
});

test('swept early (prepareKept) beside a snapshot, then opened at its tree: everything a command left is swept', async (t) => {
  const { root, store, scratches, first } = await setup(t);
  const one = await scratches().open('act-1', first);
  const path = one.path;
  await one.dispose();
  // A tracked file turned folder, a tracked folder turned file, an untracked and an ignored file,
  // an edit, a planted .git folder: clean and add -u run side by side on these.
  rmSync(join(path, 'src/b.ts'));
  writeTree(path, { 'src/b.ts/inner.ts': 'x\n', 'planted.ts': 'x\n', 'dist/out.js': 'poisoned\n' });
  rmSync(join(path, 'lib'), { recursive: true });
  writeFileSync(join(path, 'lib'), 'a file now\n');
  writeFileSync(join(path, 'src/a.ts'), 'tampered\n');
  rmSync(join(path, '.git'));
  writeTree(path, { '.git/hooks/post-checkout': '#!/bin/sh\n' });
  const opener = scratches();
  opener.prepareKept();
  writeFileSync(join(root, 'src/a.ts'), 'a, third\n');
  const third = (await store.snapshot()).tree;
  const two = await opener.open('act-2', third);
  t.after(() => two.dispose());
  assert.equal(two.path, path, 'the kept one, taken up');
  assert.deepEqual(scratchNames(path), await treeFiles(store, third));
  assert.equal(readFileSync(join(path, 'src/a.ts'), 'utf8'), 'a, third\n');
  assert.equal(readFileSync(join(path, 'src/b.ts'), 'utf8'), 'b\n');
  assert.equal(readFileSync(join(path, 'lib/c.ts'), 'utf8'), 'c\n');
  assert.match(readFileSync(join(path, '.git'), 'utf8'), /^gitdir: .*worktrees/);
  assert.equal((await two.capture()).tree, third);
  assert.equal(git(path, ['status', '--porcelain']).trim(), '');
  assert.equal(git(path, ['rev-parse', 'HEAD^{tree}']).trim(), third, 'HEAD written at the base');
});

test('an early sweep no session takes leaves no owner record, and the next session takes the scratch up', async (t) => {
  const { store, scratches, first } = await setup(t);
  const one = await scratches().open('act-1', first);
  const path = one.path;
  await one.dispose();
  const opener = scratches();
  opener.prepareKept();
  await opener.releaseEarly();
  const records = join(store.workspace.stateDir, 'scratches');
  assert.deepEqual(
    readdirSync(records).filter((n) => n.endsWith('.json')),
    [],
    'no owner record left',
  );
  const two = await scratches().open('act-2', first);
  t.after(() => two.dispose());
  assert.equal(two.path, path);
  assert.deepEqual(scratchNames(path), await treeFiles(store, first));
});

test('a failed early sweep makes the kept scratch afresh at open', async (t) => {
  const { store, scratches, first } = await setup(t);
  const one = await scratches().open('act-1', first);
  await one.dispose();
  const { adminDir } = JSON.parse(
    readFileSync(join(store.git.location.gitDir, 'aide-kept-scratch.json'), 'utf8'),
  ) as { adminDir: string };
  // A lock left by a killed aide: both add -u and later scans would refuse this index.
  writeFileSync(join(adminDir, 'aide-index.lock'), '');
  const opener = scratches();
  opener.prepareKept();
  const two = await opener.open('act-2', first);
  t.after(() => two.dispose());
  assert.notEqual(two.path, one.path);
  assert.ok(!existsSync(one.path), 'the one that failed its sweep is removed');
  assert.deepEqual(scratchNames(two.path), await treeFiles(store, first));
});

test('moved early to the first checkpoint’s tree while it is committed, then on to whatever base open is given', async (t) => {
  const { root, store, scratches, first, second } = await setup(t);
  const one = await scratches().open('act-1', first);
  const path = one.path;
  await one.dispose();
  writeFileSync(join(path, 'src/b.ts'), 'left by a command\n');
  writeTree(path, { 'dist/out.js': 'poisoned\n' });
  const opener = scratches();
  opener.prepareKept(store.nextSnapshotTree());
  writeFileSync(join(root, 'lib/c.ts'), 'c, third\n');
  const { checkpoint } = await store.checkpoint({ reason: 'act', message: 'before' });
  const third = git(root, [
    '--git-dir',
    store.git.location.gitDir,
    'rev-parse',
    `${checkpoint.id}^{tree}`,
  ]).trim();
  const two = await opener.open('act-2', checkpoint.id);
  assert.equal(two.path, path, 'the kept one, taken up');
  assert.deepEqual(scratchNames(path), await treeFiles(store, third));
  assert.equal(readFileSync(join(path, 'lib/c.ts'), 'utf8'), 'c, third\n');
  assert.equal(readFileSync(join(path, 'src/b.ts'), 'utf8'), 'b\n');
  assert.equal((await two.capture()).tree, third);
  assert.equal(git(path, ['status', '--porcelain']).trim(), '');
  assert.equal(git(path, ['rev-parse', 'HEAD']).trim(), checkpoint.id, 'HEAD at the base');
  await two.dispose();
  // Told a tree other than the base open is given (a resumed session's head): moved on from it.
  const later = scratches();
  later.prepareKept(Promise.resolve(first));
  const three = await later.open('act-3', second);
  t.after(() => three.dispose());
  assert.equal(three.path, path);
  assert.deepEqual(scratchNames(path), await treeFiles(store, second));
  assert.equal(readFileSync(join(path, 'src/a.ts'), 'utf8'), 'a, second\n');
  assert.equal((await three.capture()).tree, second);
  assert.equal(git(path, ['status', '--porcelain']).trim(), '');
});

test('a .git planted in a tracked folder of a kept scratch (git never lists one) is gone at the next take-up', async (t) => {
  const { scratches, first, second } = await setup(t);
  const one = await scratches().open('act-1', first);
  const path = one.path;
  await one.dispose();
  // A repository of its own inside `lib/`, whose config would run a program for any git in lib/;
  // a `.git` file pointing elsewhere; one in another case; one in an untracked folder.
  writeTree(path, {
    'lib/.git/HEAD': 'ref: refs/heads/main\n',
    'lib/.git/config': '[core]\n\tfsmonitor = touch /tmp/aide-pwned-fsmonitor\n',
    'lib/.git/hooks/post-checkout': '#!/bin/sh\ntouch /tmp/pwned\n',
    'src/.git': 'gitdir: /tmp/elsewhere\n',
    'src/deep/.GIT/config': '[core]\n',
    'planted/.git/config': '[core]\n',
  });
  const two = await scratches().open('act-2', second);
  t.after(() => two.dispose());
  assert.equal(two.path, path);
  for (const planted of ['lib/.git', 'src/.git', 'src/deep', 'planted'])
    assert.equal(existsSync(join(path, planted)), false, `${planted} is still there`);
  assert.match(readFileSync(join(path, '.git'), 'utf8'), /^gitdir: .*worktrees/, 'the root link stays');
  // git run in lib/ finds the scratch's own repository, not a planted one.
  const gitDir = git(join(path, 'lib'), ['rev-parse', '--absolute-git-dir']).trim();
  assert.match(gitDir, /worktrees/);
  assert.equal((await two.capture()).tree, second);
});

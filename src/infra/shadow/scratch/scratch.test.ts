import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import {
  fingerprint,
  gitRepo,
  shadowIdentityAt,
  tempDir,
  testEnv,
  writeTree,
} from '../../../../test/helpers/sandbox.js';
import { describeTreeDifference, readTree } from '../../../../test/helpers/tree.js';
import { ShadowStore } from '../shadow-store.js';
import { listScratches, ownerFile } from './registry.js';
import { ShadowScratches, type WorktreeScratch } from './worktree-scratch.js';

const FILES = {
  '.gitignore': 'node_modules/\ndist/\n',
  'package.json': '{ "name": "demo" }\n',
  'src/a.ts': 'export const a = 1;\n',
  'src/b.ts': 'export const b = 2;\n',
  'src/deep/c.ts': 'export const c = 3;\n',
  'scripts/run.sh': '#!/bin/sh\necho run\n',
  'docs/readme.md': '# demo\n',
};

interface Setup {
  root: string;
  store: ShadowStore;
  scratches: ShadowScratches;
  tempRoot: string;
}

async function setup(t: TestContext, links: string[] = ['node_modules']): Promise<Setup> {
  const root = gitRepo(t, FILES);
  chmodSync(join(root, 'scripts/run.sh'), 0o755);
  symlinkSync('src/a.ts', join(root, 'a-link.ts'));
  writeTree(root, { 'node_modules/left-pad/index.js': 'module.exports = 1;\n', 'dist/out.js': 'built\n' });
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1 << 20, command: 'test' });
  t.after(() => store.close());
  const tempRoot = tempDir(t, 'aide-scratch-test-');
  return {
    root,
    store,
    scratches: new ShadowScratches(store.git, store.workspace, { tempRoot, links }),
    tempRoot,
  };
}

/** The workspace as a snapshot sees it: no .git, no aide state, no ignored folders. */
function visible(root: string) {
  return readTree(root, ['.git', '.aide', 'node_modules', 'dist']);
}

/** The scratch's files, without its .git file and linked folder. */
function scratchFiles(scratch: WorktreeScratch) {
  return readTree(scratch.path, ['.git', 'node_modules', 'dist']);
}

/** The workspace and its .git byte for byte, aide's own state left out. */
function workspacePrint(root: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fingerprint(root)).filter(([path]) => !path.startsWith('.aide/state/')),
  );
}

/** Whether `path` is a linked folder: a real folder of symlinks, one to each entry of `target`. */
function linkedFolder(path: string, target: string): boolean {
  if (!lstatSync(path).isDirectory() || lstatSync(path).isSymbolicLink()) return false;
  const names = readdirSync(target).filter((n) => !['.cache', '.vite'].includes(n));
  return names.every(
    (n) => lstatSync(join(path, n)).isSymbolicLink() && readlinkSync(join(path, n)) === join(target, n),
  );
}

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

test('a scratch of a checkpoint has exactly its files, modes and symlinks', async (t) => {
  const { root, store, scratches } = await setup(t);
  const { checkpoint } = await store.checkpoint({ session: 's1', reason: 'test', message: 'base' });
  const scratch = await scratches.open('s1', checkpoint.id);
  t.after(() => scratch.dispose());
  assert.equal(describeTreeDifference(visible(root), scratchFiles(scratch)), undefined);
  assert.equal(statSync(join(scratch.path, 'scripts/run.sh')).mode & 0o111, 0o111);
  assert.equal(readlinkSync(join(scratch.path, 'a-link.ts')), 'src/a.ts');
  assert.ok(!scratch.path.startsWith(root), 'the scratch lives outside the workspace');
  assert.equal(scratch.base, (await store.show(checkpoint.id)).tree);
});

test('linked folders point at the workspace, are not copied, and are left out of captures', async (t) => {
  const { root, store, scratches } = await setup(t, ['node_modules', 'dist', 'missing']);
  const snap = await store.snapshot();
  const scratch = await scratches.open('s1', snap.tree);
  t.after(() => scratch.dispose());
  const link = join(scratch.path, 'node_modules');
  assert.ok(linkedFolder(link, join(root, 'node_modules')));
  assert.equal(readFileSync(join(link, 'left-pad/index.js'), 'utf8'), 'module.exports = 1;\n');
  assert.deepEqual(
    scratch.links.map((l) => [l.path, l.linked, l.reason]),
    [
      ['node_modules', true, null],
      ['dist', true, null],
      ['missing', false, 'missing_in_workspace'],
    ],
  );
  const capture = await scratch.capture();
  assert.equal(capture.tree, snap.tree, 'links never enter the captured tree');
  assert.deepEqual(capture.changes, []);
});

for (const spelling of ['node_modules', '/node_modules', 'node_modules/', '**/node_modules']) {
  test(`a .gitignore spelled ${spelling}: captures and moves succeed and never take the link`, async (t) => {
    const root = gitRepo(t, { '.gitignore': `${spelling}\n`, 'main.js': 'x\n' });
    writeTree(root, { 'node_modules/dep/index.js': 'module.exports = 1;\n' });
    const store = await ShadowStore.open(root, testEnv(tempDir(t)), {
      maxFileBytes: 1 << 20,
      command: 'test',
    });
    t.after(() => store.close());
    const scratches = new ShadowScratches(store.git, store.workspace, {
      tempRoot: tempDir(t),
      links: ['node_modules'],
    });
    const snap = await store.snapshot();
    const scratch = await scratches.open('s1', snap.tree);
    t.after(() => scratch.dispose());
    assert.ok(linkedFolder(join(scratch.path, 'node_modules'), join(root, 'node_modules')));
    writeFileSync(join(scratch.path, 'main.js'), 'y\n');
    const capture = await scratch.capture();
    assert.deepEqual(
      capture.changes.map((c) => c.path),
      ['main.js'],
      'the link is not captured',
    );
    // A move that changes the ignore rules sweeps ignored files, never the link.
    writeTree(root, { '.gitignore': `${spelling}\n*.log\n` });
    await scratch.moveTo((await store.snapshot()).tree);
    assert.ok(linkedFolder(join(scratch.path, 'node_modules'), join(root, 'node_modules')));
    assert.deepEqual((await scratch.capture()).changes, []);
  });
}

test('a folder the base tracks is checked out, not linked', async (t) => {
  const root = gitRepo(t, { 'vendor/lib.js': 'tracked\n', 'main.js': 'x\n' });
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1 << 20, command: 'test' });
  t.after(() => store.close());
  const scratches = new ShadowScratches(store.git, store.workspace, {
    tempRoot: tempDir(t),
    links: ['vendor'],
  });
  const scratch = await scratches.open('s1', (await store.snapshot()).tree);
  t.after(() => scratch.dispose());
  assert.ok(lstatSync(join(scratch.path, 'vendor')).isDirectory());
  assert.deepEqual(scratch.links[0], {
    path: 'vendor',
    target: join(root, 'vendor'),
    linked: false,
    reason: 'tracked_in_base',
  });
});

test('moving to the next snapshot writes only changed files and removes what the new base lacks', async (t) => {
  const { root, store, scratches } = await setup(t);
  const first = await store.snapshot();
  const scratch = await scratches.open('s1', first.tree);
  t.after(() => scratch.dispose());
  const unchanged = join(scratch.path, 'src/b.ts');
  const before = statSync(unchanged);
  writeTree(root, { 'src/a.ts': 'export const a = 10;\n', 'src/new/d.ts': 'export const d = 4;\n' });
  rmSync(join(root, 'src/deep'), { recursive: true });
  chmodSync(join(root, 'docs/readme.md'), 0o755);
  const second = await store.snapshot();
  const move = await scratch.moveTo(second.tree, { sweep: false });
  assert.deepEqual(
    { written: move.written, removed: move.removed, swept: move.swept },
    { written: 3, removed: 1, swept: false },
  );
  assert.equal(describeTreeDifference(visible(root), scratchFiles(scratch)), undefined);
  assert.ok(!existsSync(join(scratch.path, 'src/deep')), 'a folder left empty is removed');
  const after = statSync(unchanged);
  assert.equal(after.ino, before.ino);
  assert.equal(after.mtimeMs, before.mtimeMs);
  assert.equal(scratch.base, second.tree);
  assert.equal((await scratch.capture()).tree, second.tree);
});

test('edits in the scratch are captured as a tree, listed and diffed; the workspace and its .git are untouched', async (t) => {
  const { root, store, scratches } = await setup(t);
  const base = await store.snapshot();
  const printed = workspacePrint(root);
  const shadowIndex = sha(store.git.location.indexFile);
  const scratch = await scratches.open('s1', base.tree);
  writeFileSync(join(scratch.path, 'src/a.ts'), 'export const a = 42;\n');
  writeFileSync(join(scratch.path, 'src/e.ts'), 'export const e = 5;\n');
  unlinkSync(join(scratch.path, 'docs/readme.md'));
  writeFileSync(join(scratch.path, 'node_modules/left-pad/extra.js'), 'through the link\n');
  const capture = await scratch.capture();
  assert.deepEqual(
    capture.changes.map((c) => [c.path, c.action]),
    [
      ['docs/readme.md', 'deleted'],
      ['src/a.ts', 'modified'],
      ['src/e.ts', 'created'],
    ],
  );
  assert.equal(capture.base, base.tree);
  assert.equal(
    await store.git.text(['cat-file', 'blob', `${capture.tree}:src/a.ts`]),
    'export const a = 42;',
  );
  const diff = await scratch.diff(capture);
  assert.match(diff, /^-export const a = 1;$/m);
  assert.match(diff, /^\+export const a = 42;$/m);
  assert.match(diff, /^\+\+\+ b\/src\/e\.ts$/m);
  assert.deepEqual(
    (await scratch.changedFiles(capture)).map((f) => [f.path, f.action, f.added, f.removed]),
    [
      ['docs/readme.md', 'deleted', 0, 1],
      ['src/a.ts', 'modified', 1, 1],
      ['src/e.ts', 'created', 1, 0],
    ],
    'the changed files come structured, each with its counts',
  );
  assert.match((await scratch.changedFiles(capture))[2]?.diff ?? '', /^\+export const e = 5;$/m);
  await scratch.moveTo(base.tree);
  await scratch.dispose();
  rmSync(join(root, 'node_modules/left-pad/extra.js'));
  assert.deepEqual(workspacePrint(root), printed);
  assert.equal(sha(store.git.location.indexFile), shadowIndex, "the shadow's own index is not the scratch's");
});

test('moving without sweep=false first sweeps up edits, new files included', async (t) => {
  const { root, store, scratches } = await setup(t);
  const base = await store.snapshot();
  const scratch = await scratches.open('s1', base.tree);
  t.after(() => scratch.dispose());
  writeFileSync(join(scratch.path, 'src/b.ts'), 'edited\n');
  writeTree(scratch.path, { 'stray/new.ts': 'new\n', 'dist/cache.js': 'ignored output\n' });
  const move = await scratch.moveTo(base.tree);
  assert.equal(move.swept, true);
  assert.equal(describeTreeDifference(visible(root), scratchFiles(scratch)), undefined);
  assert.equal(
    readFileSync(join(scratch.path, 'dist/cache.js'), 'utf8'),
    'ignored output\n',
    'ignored outputs stay, like in a checkout',
  );
});

test('ignored outputs stay across moves, but go when the ignore rules change', async (t) => {
  const { root, store, scratches } = await setup(t, ['node_modules']);
  const first = await store.snapshot();
  const scratch = await scratches.open('s1', first.tree);
  t.after(() => scratch.dispose());
  writeTree(scratch.path, { 'dist/out.js': 'built\n' });
  writeTree(root, { 'src/a.ts': 'export const a = 5;\n' });
  const edited = await store.snapshot();
  await scratch.moveTo(edited.tree, { sweep: false });
  assert.equal(readFileSync(join(scratch.path, 'dist/out.js'), 'utf8'), 'built\n');
  writeTree(root, { '.gitignore': 'node_modules/\n' });
  rmSync(join(root, 'dist'), { recursive: true });
  const unignored = await store.snapshot();
  await scratch.moveTo(unignored.tree, { sweep: false });
  assert.ok(
    !existsSync(join(scratch.path, 'dist')),
    'no longer ignored: it would have been captured as an edit',
  );
  assert.ok(linkedFolder(join(scratch.path, 'node_modules'), join(root, 'node_modules')));
  assert.deepEqual((await scratch.capture()).changes, []);
});

test('a tracked file that is also ignored survives a move and the next capture', async (t) => {
  const root = gitRepo(t, { '.gitignore': '*.log\n', 'keep.txt': 'k\n' });
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1 << 20, command: 'test' });
  t.after(() => store.close());
  const scratches = new ShadowScratches(store.git, store.workspace, { tempRoot: tempDir(t), links: [] });
  const first = await store.snapshot();
  const scratch = await scratches.open('s1', first.tree);
  t.after(() => scratch.dispose());
  const blob = await store.git.text(['hash-object', '-w', '--stdin'], { input: 'tracked log\n' });
  await store.git.run(['update-index', '--add', '--cacheinfo', `100644,${blob},build.log`]);
  const withLog = await store.git.text(['write-tree']);
  await scratch.moveTo(withLog, { sweep: false });
  assert.equal(readFileSync(join(scratch.path, 'build.log'), 'utf8'), 'tracked log\n');
  assert.equal((await scratch.capture()).tree, withLog);
});

test('moves replace a file by a folder and a symlink by a file, never writing through a link', async (t) => {
  const { root, store, scratches } = await setup(t);
  const first = await store.snapshot();
  const scratch = await scratches.open('s1', first.tree);
  t.after(() => scratch.dispose());
  rmSync(join(root, 'docs/readme.md'));
  writeTree(root, { 'docs/readme.md/inner.md': 'now a folder\n' });
  rmSync(join(root, 'a-link.ts'));
  writeTree(root, { 'a-link.ts': 'now a file\n' });
  const second = await store.snapshot();
  await scratch.moveTo(second.tree, { sweep: false });
  assert.equal(describeTreeDifference(visible(root), scratchFiles(scratch)), undefined);
  assert.equal(
    readFileSync(join(root, 'src/a.ts'), 'utf8'),
    'export const a = 1;\n',
    'the old symlink target is untouched',
  );
  await scratch.moveTo(first.tree, { sweep: false });
  assert.equal(readlinkSync(join(scratch.path, 'a-link.ts')), 'src/a.ts');
});

test('a base that tracks files under a linked folder replaces the link, never writing into the workspace folder', async (t) => {
  const { root, store, scratches } = await setup(t);
  const first = await store.snapshot();
  const scratch = await scratches.open('s1', first.tree);
  t.after(() => scratch.dispose());
  const nodeModules = fingerprint(join(root, 'node_modules'));
  const blob = await store.git.text(['hash-object', '-w', '--stdin'], { input: 'vendored\n' });
  const indexFile = join(tempDir(t), 'index');
  await store.git.run(['read-tree', first.tree], { indexFile });
  await store.git.run(
    ['update-index', '--add', '--cacheinfo', `100644,${blob},node_modules/left-pad/index.js`],
    { indexFile },
  );
  const tracked = await store.git.text(['write-tree'], { indexFile });
  await scratch.moveTo(tracked, { sweep: false });
  assert.ok(lstatSync(join(scratch.path, 'node_modules')).isDirectory());
  assert.equal(readFileSync(join(scratch.path, 'node_modules/left-pad/index.js'), 'utf8'), 'vendored\n');
  assert.deepEqual(fingerprint(join(root, 'node_modules')), nodeModules);
  assert.equal(scratch.links[0]?.reason, 'tracked_in_base');
  await scratch.moveTo(first.tree, { sweep: false });
  assert.ok(
    linkedFolder(join(scratch.path, 'node_modules'), join(root, 'node_modules')),
    'linked again once the base no longer tracks it',
  );
  assert.deepEqual(fingerprint(join(root, 'node_modules')), nodeModules);
});

test('git run inside the scratch sees the scratch, not the workspace', async (t) => {
  const { store, scratches } = await setup(t);
  const scratch = await scratches.open('s1', (await store.snapshot()).tree);
  t.after(() => scratch.dispose());
  writeFileSync(join(scratch.path, 'src/a.ts'), 'changed in scratch\n');
  const env = testEnv(tempDir(t));
  const top = spawnSync('git', ['rev-parse', '--show-toplevel'], {
    cwd: scratch.path,
    env,
    encoding: 'utf8',
  }).stdout.trim();
  assert.equal(top, scratch.path);
  const status = spawnSync('git', ['status', '--porcelain'], {
    cwd: scratch.path,
    env,
    encoding: 'utf8',
  }).stdout;
  assert.match(status, /^ M src\/a\.ts$/m);
});

test('a scratch of a bare tree has a HEAD commit byte for byte the one git commit-tree writes', async (t) => {
  const { store, scratches } = await setup(t);
  const tree = (await store.snapshot()).tree;
  const scratch = await scratches.open('s1', tree);
  t.after(() => scratch.dispose());
  const env = testEnv(tempDir(t));
  const git = (args: string[], extra: Record<string, string> = {}) =>
    spawnSync('git', args, { cwd: scratch.path, env: { ...env, ...extra }, encoding: 'utf8' });
  const head = git(['rev-parse', 'HEAD']).stdout.trim();
  const raw = git(['cat-file', 'commit', head]).stdout;
  const date = /^committer .* (\d+ [+-]\d{4})$/m.exec(raw)?.[1] ?? '';
  assert.match(raw, /^tree [0-9a-f]{40}\nauthor aide <aide@localhost> /);
  const byGit = git(['commit-tree', tree, '-m', 'aide scratch base'], shadowIdentityAt(date));
  assert.equal(byGit.stdout.trim(), head, byGit.stderr);
  assert.equal(git(['rev-parse', 'HEAD^{tree}']).stdout.trim(), tree);
  await store.git.run(['fsck', '--strict', '--no-dangling']);
});

test('dispose removes the scratch, its record and its worktree entry; the linked folder stays', async (t) => {
  const { root, store, scratches } = await setup(t);
  const scratch = await scratches.open('s1', (await store.snapshot()).tree);
  const nodeModules = fingerprint(join(root, 'node_modules'));
  await scratch.dispose();
  assert.ok(!existsSync(scratch.path));
  assert.ok(!existsSync(ownerFile(scratches.records, 's1')));
  assert.equal(
    await store.git.text(['worktree', 'list', '--porcelain']).then((out) => out.includes(scratch.path)),
    false,
  );
  assert.deepEqual(fingerprint(join(root, 'node_modules')), nodeModules);
  await scratch.dispose();
});

/** A pid that belonged to a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid ?? 999_999;
}

test('the scratch of a dead process is removed when the next one opens, links as links', async (t) => {
  const { root, store, scratches } = await setup(t);
  const snap = await store.snapshot();
  const crashed = await scratches.open('crashed', snap.tree);
  assert.ok(
    ownerFile(scratches.records, 'crashed').startsWith(join(root, '.aide/state/')),
    "the record is in the workspace state, out of the sandbox's reach",
  );
  const record = JSON.parse(readFileSync(ownerFile(scratches.records, 'crashed'), 'utf8')) as { pid: number };
  writeFileSync(ownerFile(scratches.records, 'crashed'), JSON.stringify({ ...record, pid: deadPid() }));
  const adminDir = join(store.git.location.gitDir, 'worktrees', 'crashed');
  assert.ok(existsSync(adminDir));
  const nodeModules = fingerprint(join(root, 'node_modules'));
  const next = await scratches.open('next', snap.tree);
  t.after(() => next.dispose());
  assert.ok(!existsSync(crashed.path));
  assert.ok(!existsSync(adminDir));
  assert.ok(!existsSync(ownerFile(scratches.records, 'crashed')));
  assert.deepEqual(
    (await listScratches(scratches.home, scratches.records)).map((e) => [e.session, e.alive]),
    [['next', true]],
  );
  assert.deepEqual(fingerprint(join(root, 'node_modules')), nodeModules);
});

test('a worktree entry whose folder and record are gone (a temp dir wiped by a reboot) is pruned at the next open', async (t) => {
  const { store, scratches } = await setup(t);
  const snap = await store.snapshot();
  const gone = await scratches.open('gone', snap.tree);
  const adminDir = join(store.git.location.gitDir, 'worktrees', 'gone');
  assert.ok(existsSync(adminDir));
  // No record of it is left to find, only git's own entry: aide must see that git would prune.
  rmSync(gone.path, { recursive: true, force: true });
  rmSync(ownerFile(scratches.records, 'gone'), { force: true });
  const next = await scratches.open('next', snap.tree);
  t.after(() => next.dispose());
  assert.ok(!existsSync(adminDir), 'the entry of the wiped scratch is pruned');
  assert.ok(existsSync(join(store.git.location.gitDir, 'worktrees', 'next')));
});

test('a dead scratch linked by globs goes with its caches, the links unlinked, never followed', async (t) => {
  const { root, store, scratches } = await setup(t, ['*/node_modules', 'node_modules']);
  writeTree(root, { 'docs/node_modules/tool/index.js': 'tool\n', 'docs/node_modules/.cache/old': 'old\n' });
  const snap = await store.snapshot();
  const crashed = await scratches.open('crashed', snap.tree);
  assert.deepEqual(
    crashed.links.map((l) => [l.path, l.linked]),
    [
      ['docs/node_modules', true],
      ['node_modules', true],
    ],
  );
  assert.ok(
    !existsSync(join(crashed.path, 'docs/node_modules/.cache')),
    "the workspace's cache is not linked",
  );
  writeTree(crashed.path, {
    'docs/node_modules/.cache/new': 'made in the scratch\n',
    'node_modules/.vite/deps.json': '{}\n',
  });
  const record = JSON.parse(readFileSync(ownerFile(scratches.records, 'crashed'), 'utf8')) as { pid: number };
  writeFileSync(ownerFile(scratches.records, 'crashed'), JSON.stringify({ ...record, pid: deadPid() }));
  const before = workspacePrint(root);
  const next = await scratches.open('next', snap.tree);
  t.after(() => next.dispose());
  assert.ok(!existsSync(crashed.path));
  assert.deepEqual(workspacePrint(root), before);
  assert.ok(
    !existsSync(join(root, 'docs/node_modules/.cache/new')) && !existsSync(join(root, 'node_modules/.vite')),
  );
});

test('a live scratch of the same session is refused; a folder without a record is stale', async (t) => {
  const { store, scratches } = await setup(t);
  const snap = await store.snapshot();
  const first = await scratches.open('s1', snap.tree);
  t.after(() => first.dispose());
  await assert.rejects(scratches.open('s1', snap.tree), /already has a scratch copy in use/);
  writeTree(join(scratches.home, 'half-made'), { 'file.txt': 'x' });
  assert.deepEqual(await scratches.removeStale(), ['half-made']);
  assert.ok(!existsSync(join(scratches.home, 'half-made')));
  assert.ok(existsSync(first.path));
});

test("a stale sweep removes only folders of aide's own naming in the home: planted links and records name nothing it deletes", async (t) => {
  const { store, scratches } = await setup(t, ['node_modules', 'packages/a/node_modules']);
  const outside = tempDir(t, 'aide-outside-');
  writeTree(outside, { 'precious.txt': 'keep\n', 'node_modules/dep.js': 'x\n' });
  symlinkSync(join(outside, 'node_modules'), join(outside, 'keep-link'));
  const printed = fingerprint(outside);
  // A scratch whose folder on the way to a link was swapped for a symlink to the outside.
  const crashed = await scratches.open('crashed', (await store.snapshot()).tree);
  rmSync(join(crashed.path, 'src'), { recursive: true });
  mkdirSync(join(crashed.path, 'packages'));
  symlinkSync(outside, join(crashed.path, 'packages', 'a'));
  // An older aide's record (or a hostile command's) naming a folder outside and a symlink there.
  writeTree(join(scratches.home, '.owners'), {
    'evil.json': JSON.stringify({
      pid: deadPid(),
      session: 'evil',
      path: outside,
      links: [join(outside, 'keep-link')],
    }),
  });
  symlinkSync(outside, join(scratches.home, 'act-20260101-000000-dead'));
  writeTree(join(scratches.home, 'not a session'), { 'kept.txt': 'x' });
  writeFileSync(
    ownerFile(scratches.records, 'crashed'),
    JSON.stringify({ version: 2, pid: deadPid(), identity: null, createdAt: 'then' }),
  );
  writeFileSync(
    ownerFile(scratches.records, 'planted'),
    JSON.stringify({ version: 2, pid: deadPid(), identity: null, createdAt: 'then', path: outside }),
  );
  assert.deepEqual((await scratches.removeStale()).sort(), [
    'act-20260101-000000-dead',
    'crashed',
    'planted',
  ]);
  assert.deepEqual(fingerprint(outside), printed, 'the folder outside and its symlinks are untouched');
  assert.ok(
    !existsSync(join(scratches.home, 'act-20260101-000000-dead')),
    'the planted link went, as a link',
  );
  assert.ok(!existsSync(join(scratches.home, '.owners')));
  assert.ok(!existsSync(crashed.path));
  assert.ok(
    existsSync(join(scratches.home, 'not a session', 'kept.txt')),
    'a name aide never gives is not proof',
  );
  assert.deepEqual(await listScratches(scratches.home, scratches.records), []);
});

test('an unknown base is an error that names it, and an option-like one never reaches git', async (t) => {
  const { store, scratches } = await setup(t);
  await assert.rejects(scratches.open('s1', 'nope'), /no snapshot or checkpoint "nope"/);
  assert.deepEqual(await listScratches(scratches.home, scratches.records), []);
  const scratch = await scratches.open('s1', (await store.snapshot()).tree);
  t.after(() => scratch.dispose());
  const planted = join(tempDir(t), 'planted');
  await assert.rejects(scratch.moveTo(`--output=${planted}`, { sweep: false }), /no snapshot or checkpoint/);
  await assert.rejects(
    scratch.moveTo('0123456789abcdef0123456789abcdef01234567', { sweep: false }),
    /no snapshot or checkpoint/,
  );
  assert.ok(!existsSync(planted));
});

test('a workspace that is not a git repository gets a scratch too', async (t) => {
  const root = tempDir(t);
  writeTree(root, { 'main.py': 'print(1)\n', 'lib/util.py': 'x = 1\n' });
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1 << 20, command: 'test' });
  t.after(() => store.close());
  const scratches = new ShadowScratches(store.git, store.workspace, {
    tempRoot: tempDir(t),
    links: ['node_modules'],
  });
  const first = await store.snapshot();
  const scratch = await scratches.open('s1', first.tree);
  t.after(() => scratch.dispose());
  assert.equal(describeTreeDifference(readTree(root, ['.aide']), scratchFiles(scratch)), undefined);
  writeTree(root, { 'main.py': 'print(2)\n' });
  await scratch.moveTo((await store.snapshot()).tree, { sweep: false });
  assert.equal(readFileSync(join(scratch.path, 'main.py'), 'utf8'), 'print(2)\n');
});

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { AideError } from '../../shared/errors.js';
import {
  fingerprint,
  git,
  gitRepo,
  tempDir,
  testEnv,
  testHome,
  shadowIdentityAt,
  writeTree,
  type Cleanup,
} from '../../../test/helpers/sandbox.js';
import { ShadowStore } from './shadow-store.js';

const MB = 1024 * 1024;

async function open(
  t: Cleanup,
  root: string,
  env: Record<string, string> = testEnv(),
  maxFileBytes = MB,
): Promise<ShadowStore> {
  const store = await ShadowStore.open(root, env, { maxFileBytes, command: 'test' });
  t.after(async () => {
    await store.close();
  });
  return store;
}

/** path → content of every file in a checkpoint's tree. */
function treeFiles(store: ShadowStore, treeish: string): Record<string, string> {
  const env = { ...testEnv(), GIT_DIR: store.git.location.gitDir };
  const names = execFileSync('git', ['ls-tree', '-r', '-z', '--name-only', treeish], {
    env,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((n) => n !== '');
  return Object.fromEntries(
    names.map((n) => [n, execFileSync('git', ['show', `${treeish}:${n}`], { env, encoding: 'utf8' })]),
  );
}

describe('snapshots capture the workspace as the user sees it', () => {
  test('tracked edits, untracked files and deletions; ignored files and .aide/state never', async (t) => {
    const repo = gitRepo(t, {
      'a.txt': 'a\n',
      'gone.txt': 'x\n',
      '.gitignore': 'build/\n*.log\n',
      'src/keep.ts': 'k\n',
    });
    writeTree(repo, {
      'a.txt': 'edited\n',
      'new.txt': 'new\n',
      'build/out.js': 'ignored\n',
      'debug.log': 'ignored\n',
      'secret.env': 'excluded\n',
    });
    rmSync(join(repo, 'gone.txt'));
    writeFileSync(join(repo, '.git', 'info', 'exclude'), 'secret.env\n');
    const store = await open(t, repo);
    const { tree } = await store.snapshot();
    assert.deepEqual(treeFiles(store, tree), {
      '.gitignore': 'build/\n*.log\n',
      'a.txt': 'edited\n',
      'new.txt': 'new\n',
      'src/keep.ts': 'k\n',
    });
  });

  test("the user's global excludes file is honored", async (t) => {
    const home = tempDir(t);
    writeFileSync(join(home, 'global-ignore'), '*.swp\n');
    writeFileSync(join(home, '.gitconfig-test'), `[core]\n\texcludesFile = ${join(home, 'global-ignore')}\n`);
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    writeTree(repo, { '.a.txt.swp': 'editor junk\n' });
    const store = await open(t, repo, testEnv(home));
    assert.deepEqual(Object.keys(treeFiles(store, (await store.snapshot()).tree)), ['a.txt']);
  });

  test("a review's open keeps the excludes file the last command wrote, even a path with quotes and backslashes", async (t) => {
    const home = tempDir(t);
    const folder = join(home, 'odd "dir" \\ x');
    mkdirSync(folder);
    const ignore = join(folder, 'global-ignore');
    writeFileSync(ignore, '*.swp\n');
    const quoted = ignore.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
    writeFileSync(join(home, '.gitconfig-test'), `[core]\n\texcludesFile = "${quoted}"\n`);
    const env = testEnv(home);
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    writeTree(repo, { '.a.txt.swp': 'editor junk\n' });
    const config = join(repo, '.aide', 'state', 'shadow.git', 'config');
    // A review first, in a workspace no aide has opened: no excludes line, nothing asked.
    const first = await ShadowStore.open(repo, env, { command: 'review', excludesFile: 'keep' });
    await first.close();
    assert.doesNotMatch(readFileSync(config, 'utf8'), /excludesFile/);
    const store = await ShadowStore.open(repo, env, { maxFileBytes: MB, command: 'test' });
    await store.close();
    const written = readFileSync(config, 'utf8');
    assert.match(written, /excludesFile = /);
    const review = await ShadowStore.open(repo, env, { command: 'review', excludesFile: 'keep' });
    await review.close();
    assert.equal(readFileSync(config, 'utf8'), written);
    const after = await open(t, repo, env);
    assert.deepEqual(Object.keys(treeFiles(after, (await after.snapshot()).tree)), ['a.txt']);
  });

  test('edits hidden by skip-worktree and assume-unchanged flags are captured', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    git(repo, ['update-index', '--skip-worktree', 'a.txt']);
    git(repo, ['update-index', '--assume-unchanged', 'b.txt']);
    writeTree(repo, { 'a.txt': 'A\n', 'b.txt': 'B\n' });
    const store = await open(t, repo);
    assert.deepEqual(treeFiles(store, (await store.snapshot()).tree), { 'a.txt': 'A\n', 'b.txt': 'B\n' });
  });

  test('a nested repository is captured as files, and neither .git is touched', async (t) => {
    const repo = gitRepo(t, { 'top.txt': 't\n' });
    const nested = join(repo, 'vendor', 'lib');
    mkdirSync(nested, { recursive: true });
    git(nested, ['init', '-q']);
    writeTree(nested, { 'lib.c': 'int x;\n', 'deep/d.h': '#pragma once\n' });
    git(nested, ['add', '-A']);
    git(nested, ['commit', '-qm', 'nested']);
    const before = { outer: fingerprint(repo, '.git'), inner: fingerprint(nested, '.git') };
    const store = await open(t, repo);
    const first = await store.snapshot();
    assert.deepEqual(first.nested, ['vendor/lib']);
    assert.deepEqual(Object.keys(treeFiles(store, first.tree)).sort(), [
      'top.txt',
      'vendor/lib/deep/d.h',
      'vendor/lib/lib.c',
    ]);
    writeTree(nested, { 'added.c': 'int y;\n' });
    const second = await store.snapshot();
    assert.equal(treeFiles(store, second.tree)['vendor/lib/added.c'], 'int y;\n');
    assert.deepEqual({ outer: fingerprint(repo, '.git'), inner: fingerprint(nested, '.git') }, before);
  });

  test('a submodule is captured as files', async (t) => {
    const upstream = gitRepo(t, { 'mod.txt': 'module\n' });
    const repo = gitRepo(t, { 'top.txt': 't\n' });
    git(repo, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', upstream, 'mods/m']);
    git(repo, ['commit', '-qm', 'add submodule']);
    const gitBefore = fingerprint(repo, '.git');
    const store = await open(t, repo);
    const files = treeFiles(store, (await store.snapshot()).tree);
    assert.equal(files['mods/m/mod.txt'], 'module\n');
    assert.deepEqual(fingerprint(repo, '.git'), gitBefore);
  });

  test('files over the size limit are left out and named; a tracked one keeps its committed version', async (t) => {
    const repo = gitRepo(t, { 'data.bin': 'small\n', 'a.txt': 'a\n' });
    writeTree(repo, { 'data.bin': 'x'.repeat(2000), 'huge.iso': 'y'.repeat(3000), 'a.txt': 'A\n' });
    const store = await open(t, repo, testEnv(), 1000);
    const snap = await store.snapshot();
    assert.deepEqual(snap.skipped.map((s) => [s.path, s.bytes]).sort(), [
      ['data.bin', 2000],
      ['huge.iso', 3000],
    ]);
    assert.deepEqual(treeFiles(store, snap.tree), { 'a.txt': 'A\n', 'data.bin': 'small\n' });
  });

  test('a workspace that is not a git repository works with a plain index', async (t) => {
    const dir = tempDir(t);
    writeTree(dir, { 'notes.md': '# notes\n', 'src/x.py': 'x = 1\n' });
    const store = await open(t, dir);
    assert.equal(store.workspace.user, null);
    assert.deepEqual(treeFiles(store, (await store.snapshot()).tree), {
      'notes.md': '# notes\n',
      'src/x.py': 'x = 1\n',
    });
  });

  test('a second snapshot after editing files records only those changes', async (t) => {
    const repo = gitRepo(
      t,
      Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}.txt`, `${i}\n`])),
    );
    const store = await open(t, repo);
    const first = await store.snapshot();
    writeTree(repo, { 'f1.txt': 'one\n', 'f2.txt': 'two\n', 'f3.txt': 'three\n' });
    const second = await store.snapshot();
    assert.deepEqual(
      (await store.changes(first.tree, second.tree)).map((c) => c.path),
      ['f1.txt', 'f2.txt', 'f3.txt'],
    );
  });
});

describe('a hostile environment does not reach the shadow', () => {
  test('inherited GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE (as inside a git hook) are ignored', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    writeTree(repo, { 'a.txt': 'edited\n' });
    const gitBefore = fingerprint(repo, '.git');
    const env = testEnv(testHome(), {
      GIT_DIR: join(repo, '.git'),
      GIT_WORK_TREE: repo,
      GIT_INDEX_FILE: join(repo, '.git', 'index'),
      GIT_OBJECT_DIRECTORY: join(repo, '.git', 'objects'),
    });
    const store = await open(t, repo, env);
    const result = await store.checkpoint({ reason: 'manual', message: 'in a hook' });
    assert.equal(treeFiles(store, result.checkpoint.id)['a.txt'], 'edited\n');
    assert.deepEqual(fingerprint(repo, '.git'), gitBefore);
  });

  test('global hooks that fail and forced commit signing do not stop a checkpoint', async (t) => {
    const home = tempDir(t);
    const hooks = join(home, 'hooks');
    mkdirSync(hooks);
    for (const hook of ['pre-commit', 'commit-msg', 'post-commit', 'reference-transaction']) {
      writeFileSync(join(hooks, hook), '#!/bin/sh\nexit 1\n');
      chmodSync(join(hooks, hook), 0o755);
    }
    writeFileSync(
      join(home, '.gitconfig-test'),
      `[core]\n\thooksPath = ${hooks}\n[commit]\n\tgpgSign = true\n[user]\n\tsigningKey = NONE\n`,
    );
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    const store = await open(t, repo, testEnv(home));
    const result = await store.checkpoint({ reason: 'manual', message: 'hostile config' });
    assert.equal(result.created, true);
    assert.equal((await store.list()).length, 1);
  });
});

describe('the workspace lock', () => {
  test('a second aide in the same workspace is refused, naming the first', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    await open(t, repo);
    await assert.rejects(
      ShadowStore.open(repo, testEnv(), { maxFileBytes: MB, command: 'second' }),
      (error) => {
        assert.ok(error instanceof AideError);
        assert.equal(error.code, 'workspace_locked');
        assert.match(error.message, new RegExp(`pid ${process.pid}: aide test`));
        return true;
      },
    );
  });

  test('a lock left by a dead process is taken over', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    mkdirSync(join(repo, '.aide', 'state'), { recursive: true });
    const dead = execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    writeFileSync(
      join(repo, '.aide', 'state', 'lock'),
      JSON.stringify({ pid: Number(dead), command: 'apply', startedAt: 'then' }),
    );
    const store = await open(t, repo);
    const lock = JSON.parse(readFileSync(join(repo, '.aide', 'state', 'lock'), 'utf8')) as { pid: number };
    assert.equal(lock.pid, process.pid);
    await store.close();
  });

  test('the home directory is refused as a workspace', async (t) => {
    const home = tempDir(t);
    await assert.rejects(
      ShadowStore.open(home, testEnv(home), { maxFileBytes: MB, command: 'test' }),
      /will not keep checkpoints of your home directory/,
    );
  });
});

test('a checkpoint commit aide writes itself is byte for byte the one git commit-tree writes', async (t) => {
  const root = gitRepo(t, { 'a.txt': 'a\n' });
  const store = await open(t, root);
  const { checkpoint: first } = await store.checkpoint({
    reason: 'manual',
    message: 'first',
    session: 'bytes',
  });
  writeFileSync(join(root, 'a.txt'), 'ü edited\n');
  const { checkpoint } = await store.checkpoint({ reason: 'manual', message: 'second ü', session: 'bytes' });
  const raw = await store.git.text(['cat-file', 'commit', checkpoint.id]);
  const date = /^committer .* (\d+ [+-]\d{4})$/m.exec(raw)?.[1] ?? '';
  const message = raw.slice(raw.indexOf('\n\n') + 2);
  const tree = await store.git.text(['rev-parse', `${checkpoint.id}^{tree}`]);
  const byGit = execFileSync('git', ['commit-tree', tree, '-p', first.id, '-F', '-'], {
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      GIT_DIR: store.git.location.gitDir,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      ...shadowIdentityAt(date),
    },
    input: `${message}\n`,
    encoding: 'utf8',
  }).trim();
  assert.equal(byGit, checkpoint.id);
  await store.git.run(['fsck', '--strict', '--no-dangling']);
});

test('a checkpoint told its session is new never moves a branch that is there after all', async (t) => {
  const repo = gitRepo(t, { 'a.txt': 'one\n' });
  const store = await open(t, repo);
  const first = await store.checkpoint({ reason: 'act', message: 'first', session: 'dup', newSession: true });
  writeTree(repo, { 'a.txt': 'two\n' });
  await assert.rejects(
    store.checkpoint({ reason: 'act', message: 'second', session: 'dup', newSession: true }),
    /update-ref/,
  );
  const head = execFileSync('git', ['rev-parse', 'refs/heads/aide/dup'], {
    env: { ...testEnv(), GIT_DIR: store.git.location.gitDir },
    encoding: 'utf8',
  }).trim();
  assert.equal(head, first.checkpoint.id, 'the branch still names the first checkpoint');
});

import assert from 'node:assert/strict';
import { realpathSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fingerprint, git, gitRepo, tempDir, testEnv } from '../../../test/helpers/sandbox.js';
import {
  configPath,
  gitDirs,
  gitLocation,
  hooksDir,
  locateFolder,
  parseWorktrees,
  prestartReviewQuery,
  repoLayout,
  resolveCommit,
  userRepoEnv,
  worktrees,
} from './user-repo.js';

const env = testEnv();

test('a work tree: its top, git dir, common dir and HEAD tree', async (t) => {
  const root = realpathSync(gitRepo(t, { 'src/a.ts': 'a\n' }));
  mkdirSync(join(root, 'src', 'deep'));
  assert.deepEqual(await gitLocation(join(root, 'src', 'deep'), env), { kind: 'work-tree', cdup: '../../' });
  assert.deepEqual(await repoLayout(root, env), {
    toplevel: root,
    gitDir: join(root, '.git'),
    commonDir: join(root, '.git'),
    headTree: git(root, ['rev-parse', 'HEAD^{tree}']).trim(),
  });
  assert.deepEqual(await gitDirs(root, env), [join(root, '.git')]);
});

test('an unborn branch has no HEAD tree, and a folder outside git has no layout', async (t) => {
  const root = realpathSync(tempDir(t));
  git(root, ['init', '-q']);
  assert.equal((await repoLayout(root, env))?.headTree, null);
  const outside = realpathSync(tempDir(t));
  assert.deepEqual(await gitLocation(outside, env), { kind: 'none' });
  assert.equal(await repoLayout(outside, env), undefined);
  assert.deepEqual(await gitDirs(outside, env), []);
  assert.equal(await hooksDir(outside, env), undefined);
  assert.deepEqual(await worktrees(outside, env), []);
});

test('inside .git: a git dir, not a work tree', async (t) => {
  const root = gitRepo(t);
  assert.deepEqual(await gitLocation(join(root, '.git'), env), { kind: 'git-dir', bare: false });
});

test('locateFolder: where a folder is and its layout in one answer, as gitLocation and repoLayout say', async (t) => {
  const root = realpathSync(gitRepo(t, { 'src/a.ts': 'a\n' }));
  mkdirSync(join(root, 'src', 'deep'));
  const deep = join(root, 'src', 'deep');
  assert.deepEqual(await locateFolder(deep, env), {
    location: await gitLocation(deep, env),
    layout: await repoLayout(root, env),
  });
  assert.deepEqual((await locateFolder(root, env)).location, { kind: 'work-tree', cdup: '' });
  // Where the layout query fails, the location still comes: inside .git no layout, outside none.
  assert.deepEqual(await locateFolder(join(root, '.git'), env), {
    location: { kind: 'git-dir', bare: false },
  });
  const outside = realpathSync(tempDir(t));
  assert.deepEqual(await locateFolder(outside, env), { location: { kind: 'none' }, layout: null });
  assert.equal(await repoLayout(outside, env), undefined);
  const unborn = realpathSync(tempDir(t));
  git(unborn, ['init', '-q']);
  assert.deepEqual(await locateFolder(unborn, env), {
    location: { kind: 'work-tree', cdup: '' },
    layout: await repoLayout(unborn, env),
  });
  assert.equal((await locateFolder(unborn, env)).layout?.headTree, null);
});

// Inside a hook git sets GIT_DIR, GIT_INDEX_FILE and GIT_WORK_TREE; a query that kept them would
// answer for another repository.
test('GIT_DIR, GIT_INDEX_FILE and GIT_WORK_TREE of a hook do not redirect a query', async (t) => {
  const root = realpathSync(gitRepo(t, { 'a.txt': 'a\n' }));
  const other = realpathSync(gitRepo(t, { 'b.txt': 'b\n' }));
  const hook = {
    ...env,
    GIT_DIR: join(other, '.git'),
    GIT_INDEX_FILE: join(other, '.git', 'index'),
    GIT_WORK_TREE: other,
    GIT_EXTERNAL_DIFF: 'false',
    PAGER: 'false',
  };
  assert.equal((await repoLayout(root, hook))?.toplevel, root);
  assert.deepEqual(Object.keys(userRepoEnv(hook)).sort(), [
    'GIT_CONFIG_GLOBAL',
    'GIT_CONFIG_NOSYSTEM',
    'GIT_OPTIONAL_LOCKS',
    'GIT_TERMINAL_PROMPT',
    'HOME',
    'LANG',
    'PATH',
    'TMPDIR',
  ]);
});

test('a revision resolves to its commit; a missing one, quietly failing, is undefined', async (t) => {
  const root = gitRepo(t);
  assert.equal(await resolveCommit(root, 'HEAD', env), git(root, ['rev-parse', 'HEAD']).trim());
  assert.equal(await resolveCommit(root, 'no-such-branch', env), undefined);
});

test('config paths and core.hooksPath come from the user configuration', async (t) => {
  const root = realpathSync(gitRepo(t));
  assert.equal(await hooksDir(root, env), join(root, '.git', 'hooks'));
  assert.equal(await configPath(root, 'core.excludesFile', env), undefined);
  git(root, ['config', 'core.hooksPath', '.husky']);
  git(root, ['config', 'core.excludesFile', '~/ignore-these']);
  assert.equal(await hooksDir(root, env), join(root, '.husky'));
  // git answers relative to the folder asked from, and a relative core.hooksPath is the top's.
  mkdirSync(join(root, 'sub'));
  assert.equal(await hooksDir(join(root, 'sub'), env), join(root, '.husky'));
  assert.equal(await configPath(root, 'core.excludesFile', env), join(env['HOME'] ?? '', 'ignore-these'));
});

test('the worktrees of a repository, main first, from a linked one too; queries leave .git unchanged', async (t) => {
  const root = realpathSync(gitRepo(t, { 'a.txt': 'a\n' }));
  const linked = join(realpathSync(tempDir(t)), 'linked');
  git(root, ['worktree', 'add', '-q', '-b', 'side', linked]);
  const before = fingerprint(root, '.git');
  const head = git(root, ['rev-parse', 'HEAD']).trim();
  const expected = [
    { path: root, head, branch: 'refs/heads/main', bare: false },
    { path: linked, head, branch: 'refs/heads/side', bare: false },
  ];
  assert.deepEqual(await worktrees(root, env), expected);
  assert.deepEqual(await worktrees(linked, env), expected);
  assert.deepEqual(await gitDirs(linked, env), [
    join(root, '.git', 'worktrees', 'linked'),
    join(root, '.git'),
  ]);
  assert.equal((await repoLayout(linked, env))?.commonDir, join(root, '.git'));
  assert.deepEqual(fingerprint(root, '.git'), before);
});

test('worktree list: bare and detached entries', () => {
  const output = ['worktree /r', 'bare', '', 'worktree /w', 'HEAD abc', 'detached', '', ''].join('\0');
  assert.deepEqual(parseWorktrees(output), [
    { path: '/r', head: null, branch: null, bare: true },
    { path: '/w', head: 'abc', branch: null, bare: false },
  ]);
});

test('a prestarted query is taken once by the same question with the same environment object; any other asks git anew', async (t) => {
  const root = realpathSync(gitRepo(t, { 'a.txt': 'a\n' }));
  git(root, ['config', 'core.excludesFile', '/etc/aide-test-excludes']);
  const early: Record<string, string | undefined> = { ...env };
  prestartReviewQuery(root, early);
  // From here no git can start with this environment: only the prestarted answers can come.
  early['PATH'] = join(root, 'no-such-bin');
  const head = git(root, ['rev-parse', 'HEAD^{tree}']).trim();
  // Another environment object, even an equal one, is not the one the queries started with.
  assert.deepEqual(await locateFolder(root, { ...early }), { location: { kind: 'none' }, layout: null });
  assert.equal((await locateFolder(root, early)).layout?.headTree, head);
  assert.deepEqual(await locateFolder(root, early), { location: { kind: 'none' }, layout: null });
  // Only the location is prestarted: a review never asks for the excludes file (shadow-repo.ts).
  assert.equal(await configPath(root, 'core.excludesFile', early), undefined);
  assert.equal(await configPath(root, 'core.excludesFile', env), '/etc/aide-test-excludes');
});

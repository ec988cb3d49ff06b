/**
 * A hostile environment: aide run from inside a git hook (GIT_DIR and GIT_INDEX_FILE point at
 * the user's repository), a global git config whose hooks fail and whose commits must be
 * signed, and a workspace that is not a git repository at all. Checkpoint and restore still
 * work, and the user's .git stays byte-identical.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { saveCheckpoint, workspaceState } from '../helpers/checkpoints.js';
import { runAide } from '../helpers/cli.js';
import { fingerprint, gitRepo, tempDir, testEnv, writeTree, type Cleanup } from '../helpers/sandbox.js';

/** A global git config that breaks any careless commit: a failing pre-commit hook and mandatory signing. */
function hostileGlobalConfig(t: Cleanup): string {
  const dir = tempDir(t, 'aide-hostile-');
  writeTree(dir, { 'hooks/pre-commit': '#!/bin/sh\necho "pre-commit hook ran" >&2\nexit 1\n' });
  chmodSync(join(dir, 'hooks/pre-commit'), 0o755);
  const config = join(dir, 'gitconfig');
  writeFileSync(
    config,
    `[core]\n\thooksPath = ${join(dir, 'hooks')}\n[commit]\n\tgpgSign = true\n[gpg]\n\tprogram = false\n[user]\n\tsigningKey = nobody\n`,
  );
  return config;
}

async function roundTrip(root: string, env: Record<string, string>): Promise<void> {
  const dotGit = existsSync(join(root, '.git')) ? fingerprint(root, '.git') : null;
  const id = await saveCheckpoint(root, { env });
  const atCheckpoint = workspaceState(root);
  writeTree(root, { 'src/app.ts': 'changed\n', 'src/new.ts': 'new\n' });
  const result = await runAide(['restore', id, '--yes'], { cwd: root, env });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.doesNotMatch(result.stderr, /pre-commit hook ran/);
  assert.deepEqual(workspaceState(root), atCheckpoint);
  if (dotGit !== null) assert.deepEqual(fingerprint(root, '.git'), dotGit);
}

test('inside a git hook (GIT_DIR, GIT_INDEX_FILE set), with failing global hooks and gpgSign: restore works, .git untouched', async (t) => {
  const root = gitRepo(t, { 'src/app.ts': 'original\n' });
  writeTree(root, { 'src/app.ts': 'staged edit\n' });
  const config = hostileGlobalConfig(t);
  const plainCommit = spawnSync('git', ['commit', '-q', '--allow-empty', '-m', 'x'], {
    cwd: root,
    env: testEnv(undefined, { GIT_CONFIG_GLOBAL: config }),
  });
  assert.notEqual(plainCommit.status, 0, 'the hostile config should make a careless git commit fail');
  await roundTrip(root, {
    GIT_DIR: join(root, '.git'),
    GIT_INDEX_FILE: join(root, '.git/index'),
    GIT_WORK_TREE: root,
    GIT_CONFIG_GLOBAL: config,
  });
});

test('a hook run from a subfolder with a relative GIT_DIR still finds the workspace and leaves .git alone', async (t) => {
  const root = gitRepo(t, { 'src/app.ts': 'original\n' });
  const config = hostileGlobalConfig(t);
  const dotGit = fingerprint(root, '.git');
  const id = await saveCheckpoint(root, { env: { GIT_CONFIG_GLOBAL: config } });
  writeTree(root, { 'src/app.ts': 'changed\n' });
  const result = await runAide(['restore', id, '--yes', '--cwd', 'src'], {
    cwd: root,
    env: { GIT_DIR: '.git', GIT_INDEX_FILE: '.git/index', GIT_CONFIG_GLOBAL: config },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(readFileSync(join(root, 'src/app.ts'), 'utf8'), 'original\n');
  assert.deepEqual(fingerprint(root, '.git'), dotGit);
});

test('a workspace that is not a git repository: restore works, no .git appears, nothing is borrowed', async (t) => {
  const root = tempDir(t);
  writeTree(root, { 'src/app.ts': 'original\n', 'notes.md': 'notes\n' });
  await roundTrip(root, {});
  assert.equal(existsSync(join(root, '.git')), false);
  assert.equal(readFileSync(join(root, '.aide/state/shadow.git/objects/info/alternates'), 'utf8'), '');
});

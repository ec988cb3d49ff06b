/**
 * The pre-push hook with real `git push`es to a local bare repository: it reviews the commits
 * being pushed (not the staged tree): a broken commit is refused and the remote keeps its ref, a
 * good one goes through whatever is staged, a new branch is reviewed from where it leaves the
 * remote's branches, and a kept foreign pre-push hook reads the same ref lines as aide.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runAide } from '../helpers/cli.js';
import { git, tempDir, testEnv, testHome, writeTree, type Cleanup } from '../helpers/sandbox.js';
import { verifyRepo } from '../helpers/verify.js';

/** A repository (check passes only when value.txt says "good") with a bare origin holding main. */
function pushedRepo(t: Cleanup): { root: string; remote: string } {
  const root = verifyRepo(
    t,
    [{ name: 'check', run: 'test "$(cat value.txt)" = good' }],
    {},
    { 'value.txt': 'good\n' },
  );
  const remote = join(tempDir(t), 'origin.git');
  git(root, ['init', '-q', '--bare', remote]);
  git(root, ['remote', 'add', 'origin', remote]);
  git(root, ['push', '-q', 'origin', 'HEAD:refs/heads/main']);
  git(root, ['fetch', '-q', 'origin']);
  return { root, remote };
}

function push(cwd: string, args: string[]) {
  const result = spawnSync('git', ['push', ...args], { cwd, env: testEnv(testHome()), encoding: 'utf8' });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

function commitValue(root: string, value: string, file = 'value.txt'): void {
  writeTree(root, { [file]: `${value}\n` });
  git(root, ['add', file]);
  git(root, ['commit', '-q', '--no-verify', '-m', `${file}: ${value}`]);
}

const remoteHead = (remote: string, ref: string) => git(remote, ['rev-parse', ref]).trim();

test('pre-push reviews the pushed commits: a broken one is refused, a good one pushes whatever is staged', async (t) => {
  const { root, remote } = pushedRepo(t);
  assert.equal((await runAide(['hooks', 'install', '--hook', 'pre-push'], { cwd: root })).code, 0);
  const before = remoteHead(remote, 'main');
  commitValue(root, 'bad');
  const refused = push(root, ['origin', 'HEAD:main']);
  assert.notEqual(refused.code, 0, refused.output);
  assert.match(refused.output, /verify\.+Failed/);
  assert.match(refused.output, /aide review: HEAD -> origin refs\/heads\/main/);
  assert.equal(remoteHead(remote, 'main'), before);

  commitValue(root, 'good');
  // Staged but not committed, so not pushed: the pre-commit review's business, not pre-push's.
  writeTree(root, { 'value.txt': 'bad\n' });
  git(root, ['add', 'value.txt']);
  const passed = push(root, ['origin', 'HEAD:main']);
  assert.equal(passed.code, 0, passed.output);
  assert.equal(remoteHead(remote, 'main'), git(root, ['rev-parse', 'HEAD']).trim());
  assert.equal(git(root, ['diff', '--cached', '--name-only']).trim(), 'value.txt');
});

test('a new branch is reviewed from where it leaves the remote; a kept pre-push hook gets the same lines', async (t) => {
  const { root, remote } = pushedRepo(t);
  const seen = join(root, '.git', 'seen-by-foreign-hook');
  const foreign = join(root, '.git', 'hooks', 'pre-push');
  writeFileSync(foreign, `#!/bin/sh\ncat > '${seen}'\n`);
  chmodSync(foreign, 0o755);
  assert.equal((await runAide(['hooks', 'install', '--hook', 'pre-push'], { cwd: root })).code, 0);
  git(root, ['checkout', '-q', '-b', 'topic']);
  commitValue(root, '<<<<<<< HEAD', 'notes.txt');
  const refused = push(root, ['origin', 'topic']);
  assert.notEqual(refused.code, 0, refused.output);
  assert.match(refused.output, /notes\.txt:1: error: merge conflict marker/);
  // Only the branch's own commit is reviewed: value.txt (already on the remote) is not in it.
  assert.doesNotMatch(refused.output, /value\.txt/);
  assert.match(readFileSync(seen, 'utf8'), /^refs\/heads\/topic [0-9a-f]{40} refs\/heads\/topic 0{40}\n$/);
  assert.notEqual(
    spawnSync('git', ['rev-parse', '--verify', '-q', 'refs/heads/topic'], { cwd: remote }).status,
    0,
  );

  git(root, ['rm', '-q', 'notes.txt']);
  git(root, ['commit', '-q', '--no-verify', '-m', 'resolved']);
  // The range as a whole adds no marker now: it goes through.
  const passed = push(root, ['origin', 'topic']);
  assert.equal(passed.code, 0, passed.output);
  assert.equal(remoteHead(remote, 'topic'), git(root, ['rev-parse', 'HEAD']).trim());
  // Deleting the branch has nothing to review.
  assert.equal(push(root, ['origin', '--delete', 'topic']).code, 0);
});

/**
 * `aide review` as `.aide/config.json`'s `review` section sets it: the verify commands the hook
 * runs (review.commands), protected paths as a failure (review.protected "block") and the
 * large-file limit (review.max_file_kb); a command name sandbox.json lacks is a configuration error.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runAide, type CliResult } from '../helpers/cli.js';
import { git, leaveMergeConflict, writeTree } from '../helpers/sandbox.js';
import { verifyRepo } from '../helpers/verify.js';

const PASS = { name: 'quick', run: 'node -e 0' };
/** Would fail every review: review.commands leaves it out. */
const FAIL = { name: 'slow', run: 'node -e "process.exit(3)"' };

function repo(t: Parameters<typeof verifyRepo>[0], review: Record<string, unknown>): string {
  return verifyRepo(t, [PASS, FAIL], {}, { '.aide/config.json': JSON.stringify({ review }), 'a.js': '1\n' });
}

async function reviewStaged(root: string, files: Record<string, string>, env = {}): Promise<CliResult> {
  writeTree(root, files);
  git(root, ['add', ...Object.keys(files)]);
  return runAide(['review', '--staged'], { cwd: root, env });
}

const lineOf = (stdout: string, check: string) =>
  stdout.split('\n').find((l) => l.startsWith(`${check}.`)) ?? `no ${check} line:\n${stdout}`;

test('review.commands runs only the commands named; unset, every command runs', async (t) => {
  const subset = await reviewStaged(repo(t, { commands: ['quick'] }), { 'a.js': '2\n' });
  assert.equal(subset.code, 0, subset.stdout + subset.stderr);
  assert.match(lineOf(subset.stdout, 'verify'), /\.Passed$/);
  const all = await reviewStaged(repo(t, {}), { 'a.js': '2\n' });
  assert.equal(all.code, 1, all.stdout);
  assert.match(all.stdout, /slow: failed/);
});

test('review.commands naming a command sandbox.json lacks exits 2, naming the key', async (t) => {
  const result = await reviewStaged(repo(t, { commands: ['quik'] }), { 'a.js': '2\n' });
  assert.equal(result.code, 2, result.stdout + result.stderr);
  assert.match(result.stderr, /review\.commands in \.aide\/config\.json: no command named "quik"/);
});

test('review.protected "block" fails a change to a protected path; "warn" (the default) lets it through', async (t) => {
  const env = { AIDE_SKIP: 'verify' };
  const blocked = await reviewStaged(repo(t, { protected: 'block' }), { 'a.test.js': 'x\n' }, env);
  assert.equal(blocked.code, 1, blocked.stdout);
  assert.match(lineOf(blocked.stdout, 'protected-paths'), /\.Failed$/);
  assert.match(blocked.stdout, /a\.test\.js: error: changes a protected path/);
  const warned = await reviewStaged(repo(t, {}), { 'a.test.js': 'x\n' }, env);
  assert.equal(warned.code, 0, warned.stdout);
  assert.match(warned.stdout, /a\.test\.js: warning: changes a protected path/);
});

test('review.max_file_kb sets the large-file limit', async (t) => {
  const env = { AIDE_SKIP: 'verify' };
  const files = { 'data.txt': 'x'.repeat(20 * 1024) };
  const small = await reviewStaged(repo(t, { max_file_kb: 16 }), files, env);
  assert.equal(small.code, 1, small.stdout);
  assert.match(small.stdout, /data\.txt: error: 20 KiB, over the 16 KiB limit/);
  assert.equal((await reviewStaged(repo(t, {}), files, env)).code, 0);
});

test('an invalid review setting is a configuration error (exit 2) naming the key; the change read meanwhile leaves no lock or index copy', async (t) => {
  const root = repo(t, { protected: 'deny' });
  const result = await reviewStaged(root, { 'a.js': '2\n' });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /review\.protected/);
  const state = join(root, '.aide', 'state');
  assert.equal(existsSync(join(state, 'lock')), false);
  assert.deepEqual(
    readdirSync(join(state, 'shadow.git')).filter((name) => name.startsWith('aide-staged-index')),
    [],
  );
});

test('a configuration error is the one reported when the staged change cannot be read either', async (t) => {
  const root = repo(t, { protected: 'deny' });
  leaveMergeConflict(root, 'a.js');
  const result = await runAide(['review', '--staged'], { cwd: root });
  assert.equal(result.code, 2, result.stdout + result.stderr);
  assert.match(result.stderr, /review\.protected/);
  assert.equal(existsSync(join(root, '.aide', 'state', 'lock')), false);
  // Fixed, the unmerged index is what the review reports.
  writeTree(root, { '.aide/config.json': '{}\n' });
  const unmerged = await runAide(['review', '--staged'], { cwd: root });
  assert.equal(unmerged.code, 2, unmerged.stdout + unmerged.stderr);
  assert.match(unmerged.stderr, /staged content cannot be verified/);
});

test('a static-only review refuses an unmerged index as a verifying one does; its --json and --junit name the tree git would commit', async (t) => {
  const skipAll = { AIDE_SKIP: 'verify,model' };
  const conflicted = repo(t, {});
  leaveMergeConflict(conflicted, 'a.js');
  for (const env of [skipAll, {}]) {
    const refused = await runAide(['review', '--staged'], { cwd: conflicted, env });
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /staged content cannot be verified: .*a\.js.*unmerged/);
  }
  const root = repo(t, {});
  writeTree(root, { 'b.js': '2\n' });
  git(root, ['add', 'b.js']);
  const json = await runAide(['review', '--staged', '--json', '--junit', 'r.xml'], {
    cwd: root,
    env: skipAll,
  });
  assert.equal(json.code, 0, json.stdout + json.stderr);
  const tree = git(root, ['write-tree']).trim();
  assert.equal((JSON.parse(json.stdout) as { subject: { toTree: string } }).subject.toTree, tree);
  assert.match(readFileSync(join(root, 'r.xml'), 'utf8'), new RegExp(`name="aide.to_tree" value="${tree}"`));
});

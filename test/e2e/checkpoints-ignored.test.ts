/**
 * Every write is undoable, ignored files included (issue 10 item 3), through the built CLI:
 * the checkpoint `aide apply` takes holds every path it is about to write or delete whatever
 * the ignore rules say, and restore decides what to remove from what the checkpoints recorded.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { saveCheckpoint } from '../helpers/checkpoints.js';
import { runAideInProcess } from '../helpers/in-process.js';
import { git, gitRepo, writeTree } from '../helpers/sandbox.js';

const SECRET = 'API_KEY=the-old-one\n';

/** The checkpoint id in apply's "undo with `aide restore ID`". */
function undoId(stdout: string): string {
  const id = /undo with `aide restore ([0-9a-f]+)`/.exec(stdout)?.[1];
  assert.ok(id !== undefined, `no undo line in:\n${stdout}`);
  return id;
}

/** A repository whose committed .gitignore lists .env, with a .env on disk. */
function envRepo(t: Parameters<typeof gitRepo>[0]): string {
  const root = gitRepo(t, { '.gitignore': '.env\n', 'app.js': 'app\n' });
  writeFileSync(join(root, '.env'), SECRET);
  return root;
}

test('aide apply edits a git-ignored .env: it warns, and its undo restores the old bytes', async (t) => {
  const root = envRepo(t);
  const reply = '.env\n<<<<<<< SEARCH\nAPI_KEY=the-old-one\n=======\nAPI_KEY=overwritten\n>>>>>>> REPLACE\n';
  const applied = await runAideInProcess(['apply', '-'], { cwd: root, input: reply });
  assert.equal(applied.code, 0, applied.stderr);
  assert.equal(readFileSync(join(root, '.env'), 'utf8'), 'API_KEY=overwritten\n');
  assert.match(
    applied.stdout,
    /warning: git ignores \.env: the checkpoint holds it, but `git status` and `git diff` will not show this change/,
  );
  const restored = await runAideInProcess(['restore', undoId(applied.stdout), '--yes'], { cwd: root });
  assert.equal(restored.code, 0, restored.stderr);
  assert.match(restored.stdout, /M \.env/);
  assert.equal(readFileSync(join(root, '.env'), 'utf8'), SECRET);
});

test('aide apply deletes a git-ignored .env: its undo brings the file back', async (t) => {
  const root = envRepo(t);
  const diff = '--- a/.env\n+++ /dev/null\n@@ -1 +0,0 @@\n-API_KEY=the-old-one\n';
  const applied = await runAideInProcess(['apply', '-'], { cwd: root, input: diff });
  assert.equal(applied.code, 0, applied.stderr);
  assert.equal(existsSync(join(root, '.env')), false);
  const restored = await runAideInProcess(['restore', undoId(applied.stdout), '--yes'], { cwd: root });
  assert.equal(restored.code, 0, restored.stderr);
  assert.equal(readFileSync(join(root, '.env'), 'utf8'), SECRET);
});

test('a reply that creates src/backdoor.js and src/.gitignore (*) is undone whole: restore removes both', async (t) => {
  const root = gitRepo(t, { 'src/app.js': 'app\n' });
  const reply =
    'src/backdoor.js\n<<<<<<< SEARCH\n=======\nsteal()\n>>>>>>> REPLACE\n\nsrc/.gitignore\n<<<<<<< SEARCH\n=======\n*\n>>>>>>> REPLACE\n';
  const applied = await runAideInProcess(['apply', '-'], { cwd: root, input: reply });
  assert.equal(applied.code, 0, applied.stderr);
  assert.equal(git(root, ['status', '--porcelain']), '', 'git hides both new files');
  const restored = await runAideInProcess(['restore', undoId(applied.stdout), '--yes'], { cwd: root });
  assert.equal(restored.code, 0, restored.stderr);
  assert.doesNotMatch(restored.stdout, /already/);
  assert.match(restored.stdout, /D src\/\.gitignore/);
  assert.match(restored.stdout, /D src\/backdoor\.js/);
  assert.equal(existsSync(join(root, 'src/backdoor.js')), false);
  assert.equal(existsSync(join(root, 'src/.gitignore')), false);
  assert.equal(readFileSync(join(root, 'src/app.js'), 'utf8'), 'app\n');
});

test('an ignored file an older checkpoint never held is left alone by a restore to it, and listed', async (t) => {
  const root = envRepo(t);
  const older = await saveCheckpoint(root);
  writeTree(root, { 'app.js': 'app v2\n' });
  const reply = '.env\n<<<<<<< SEARCH\nAPI_KEY=the-old-one\n=======\nAPI_KEY=rotated\n>>>>>>> REPLACE\n';
  const applied = await runAideInProcess(['apply', '-'], { cwd: root, input: reply });
  assert.equal(applied.code, 0, applied.stderr);
  // The older checkpoint left .env out because git ignores it, not because it was absent.
  const restored = await runAideInProcess(['restore', older, '--yes'], { cwd: root });
  assert.equal(restored.code, 0, restored.stderr);
  assert.equal(readFileSync(join(root, 'app.js'), 'utf8'), 'app\n');
  assert.equal(readFileSync(join(root, '.env'), 'utf8'), 'API_KEY=rotated\n');
  assert.match(
    restored.stdout,
    /left alone \(1 path\):\n {4}\.env {2}something aide never captured/,
    'the .env left alone is listed',
  );
});

/**
 * Checkpoints survive the user's `git gc` (issue 10 item 4), through the built CLI. The shadow
 * borrows the user's objects; a checkpoint owns every object it names, so neither content that
 * was only staged nor history the user rewrote is lost when the user's git collects it. A
 * shadow that lost an object anyway is a clear error naming the checkpoint, never exit 70, and
 * aide keeps working in that workspace.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runAideInProcess } from '../helpers/in-process.js';
import { git, gitRepo, writeTree, type Cleanup } from '../helpers/sandbox.js';

/** Runs `aide checkpoints save` and returns the id it prints. */
async function save(root: string): Promise<string> {
  const saved = await runAideInProcess(['checkpoints', 'save'], { cwd: root });
  assert.equal(saved.code, 0, saved.stderr);
  const id = /Checkpoint ([0-9a-f]+) saved/.exec(saved.stdout)?.[1];
  assert.ok(id !== undefined, saved.stdout);
  return id;
}

/** The user's history replaced by one unrelated commit, and every old object collected. */
function rewriteHistoryAndCollect(root: string): void {
  git(root, ['checkout', '-q', '--orphan', 'rewritten']);
  git(root, ['rm', '-rqf', '.']);
  writeTree(root, { 'other.txt': 'another history\n' });
  git(root, ['add', 'other.txt']);
  git(root, ['commit', '-q', '-m', 'rewritten']);
  git(root, ['branch', '-D', '-q', 'main']);
  git(root, ['reflog', 'expire', '--expire=now', '--all']);
  git(root, ['gc', '-q', '--prune=now']);
}

/** A repository with a text file and a binary file committed and packed. */
function packedRepo(t: Cleanup): { root: string; binary: Buffer } {
  const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) % 256));
  const root = gitRepo(t, { 'src/app.ts': 'export const version = 1;\n', 'assets/logo.bin': binary });
  git(root, ['repack', '-q', '-a', '-d']);
  return { root, binary };
}

test('a checkpoint of staged content survives `git reset` and `git gc --prune=now`: restore brings the exact bytes back', async (t) => {
  const root = gitRepo(t, { 'a.txt': 'committed\n' });
  writeFileSync(join(root, 'a.txt'), 'only ever staged\n');
  git(root, ['add', 'a.txt']);
  const id = await save(root);
  git(root, ['reset', '-q']);
  writeFileSync(join(root, 'a.txt'), 'edited afterwards\n');
  git(root, ['gc', '-q', '--prune=now']);
  const listed = await runAideInProcess(['checkpoints'], { cwd: root });
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, new RegExp(id));
  const restored = await runAideInProcess(['restore', id, '--yes'], { cwd: root });
  assert.equal(restored.code, 0, restored.stderr);
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'only ever staged\n');
});

test('a checkpoint survives a history rewrite, `reflog expire --expire=now --all` and `gc --prune=now`', async (t) => {
  const { root, binary } = packedRepo(t);
  const id = await save(root);
  rewriteHistoryAndCollect(root);
  const listed = await runAideInProcess(['checkpoints'], { cwd: root });
  assert.equal(listed.code, 0, listed.stderr);
  const restored = await runAideInProcess(['restore', id, '--yes'], { cwd: root });
  assert.equal(restored.code, 0, restored.stderr);
  assert.equal(readFileSync(join(root, 'src/app.ts'), 'utf8'), 'export const version = 1;\n');
  assert.deepEqual(readFileSync(join(root, 'assets/logo.bin')), binary);
  assert.deepEqual(readdirSync(root).sort(), ['.aide', '.git', 'assets', 'src']);
});

test('`aide checkpoints prune` after a history rewrite keeps what the kept checkpoints need', async (t) => {
  const { root, binary } = packedRepo(t);
  await save(root);
  writeTree(root, { 'src/app.ts': 'export const version = 2;\n' });
  const kept = await save(root);
  rewriteHistoryAndCollect(root);
  const pruned = await runAideInProcess(['checkpoints', 'prune', '--keep', '1'], { cwd: root });
  assert.equal(pruned.code, 0, pruned.stderr);
  assert.match(pruned.stdout, /Removed 1 session/);
  const restored = await runAideInProcess(['restore', kept, '--yes'], { cwd: root });
  assert.equal(restored.code, 0, restored.stderr);
  assert.equal(readFileSync(join(root, 'src/app.ts'), 'utf8'), 'export const version = 2;\n');
  assert.deepEqual(readFileSync(join(root, 'assets/logo.bin')), binary);
});

test('a shadow that lost an object: a clear error naming the checkpoint (exit 1, not 70), and aide keeps working', async (t) => {
  const root = gitRepo(t, { 'a.txt': 'committed\n' });
  writeFileSync(join(root, 'a.txt'), 'lost content\n');
  git(root, ['add', 'a.txt']);
  const id = await save(root);
  git(root, ['reset', '-q', '--hard']);
  git(root, ['gc', '-q', '--prune=now']);
  // As a shadow written before checkpoints owned their objects would be: the blob is gone.
  const blob = createHash('sha1').update('blob 13\0lost content\n').digest('hex');
  rmSync(join(root, '.aide/state/shadow.git/objects', blob.slice(0, 2), blob.slice(2)));

  const listed = await runAideInProcess(['checkpoints'], { cwd: root });
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, new RegExp(`${id}.*damaged`));
  for (const args of [
    ['restore', id, '--yes'],
    ['checkpoints', 'show', id],
    ['checkpoints', 'diff', id],
  ]) {
    const result = await runAideInProcess(args, { cwd: root });
    assert.equal(result.code, 1, `${args.join(' ')}: ${result.stderr}`);
    assert.match(
      result.stderr,
      new RegExp(`checkpoint ${id} cannot be read: object ${blob.slice(0, 10)} it records is missing`),
    );
    assert.match(result.stderr, /aide checkpoints prune/);
  }
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'committed\n', 'the failed restore wrote nothing');
  const applied = await runAideInProcess(['apply', '-'], {
    cwd: root,
    input: 'a.txt\n<<<<<<< SEARCH\ncommitted\n=======\nstill works\n>>>>>>> REPLACE\n',
  });
  assert.equal(applied.code, 0, applied.stderr);
  const undo = /undo with `aide restore ([0-9a-f]+)`/.exec(applied.stdout)?.[1] ?? '';
  const restored = await runAideInProcess(['restore', undo, '--yes'], { cwd: root });
  assert.equal(restored.code, 0, restored.stderr);
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'committed\n');
  const pruned = await runAideInProcess(['checkpoints', 'prune', '--keep', '1'], { cwd: root });
  assert.equal(pruned.code, 0, pruned.stderr);
});

test('prune while a kept checkpoint is damaged removes the sessions asked for and says why the space stays', async (t) => {
  const root = gitRepo(t, { 'a.txt': 'committed\n' });
  await save(root);
  writeFileSync(join(root, 'a.txt'), 'lost content\n');
  git(root, ['add', 'a.txt']);
  await save(root);
  git(root, ['reset', '-q', '--hard']);
  git(root, ['gc', '-q', '--prune=now']);
  const blob = createHash('sha1').update('blob 13\0lost content\n').digest('hex');
  rmSync(join(root, '.aide/state/shadow.git/objects', blob.slice(0, 2), blob.slice(2)));
  const pruned = await runAideInProcess(['checkpoints', 'prune', '--keep', '1'], { cwd: root });
  assert.equal(pruned.code, 0, pruned.stderr);
  assert.match(pruned.stdout, /Removed 1 session; 1 session kept/);
  assert.match(pruned.stdout, new RegExp(`Space not reclaimed: object ${blob.slice(0, 10)} is missing`));
});

test("a lost object the shadow's own index still names (staged, then `git reset`, file unchanged): the next apply still works", async (t) => {
  const root = gitRepo(t, { 'a.txt': 'committed\n', 'b.txt': 'other\n' });
  writeFileSync(join(root, 'a.txt'), 'lost content\n');
  git(root, ['add', 'a.txt']);
  const id = await save(root);
  git(root, ['reset', '-q']);
  git(root, ['gc', '-q', '--prune=now']);
  const blob = createHash('sha1').update('blob 13\0lost content\n').digest('hex');
  // As a shadow written before checkpoints owned their objects: the blob gone, and no mark
  // saying its index was checked.
  rmSync(join(root, '.aide/state/shadow.git/objects', blob.slice(0, 2), blob.slice(2)));
  rmSync(join(root, '.aide/state/shadow.git/aide-owns-objects'));
  const listed = await runAideInProcess(['checkpoints'], { cwd: root });
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, new RegExp(`${id}.*damaged`));
  const applied = await runAideInProcess(['apply', '-'], {
    cwd: root,
    input: 'b.txt\n<<<<<<< SEARCH\nother\n=======\nstill works\n>>>>>>> REPLACE\n',
  });
  assert.equal(applied.code, 0, applied.stderr);
  const undo = /undo with `aide restore ([0-9a-f]+)`/.exec(applied.stdout)?.[1] ?? '';
  const restored = await runAideInProcess(['restore', undo, '--yes'], { cwd: root });
  assert.equal(restored.code, 0, restored.stderr);
  assert.equal(readFileSync(join(root, 'b.txt'), 'utf8'), 'other\n');
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'lost content\n');
});

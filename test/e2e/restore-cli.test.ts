/** `aide restore` through the built CLI: what it touches, what it refuses, what it prints. */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { saveCheckpoint, workspaceState } from '../helpers/checkpoints.js';
import { runAide } from '../helpers/cli.js';
import { runAideInProcess } from '../helpers/in-process.js';
import { fingerprint, gitRepo, writeTree, type Cleanup } from '../helpers/sandbox.js';

/** A repository with ignored files, a checkpoint, then changes made after it. */
async function changedSinceCheckpoint(t: Cleanup) {
  const root = gitRepo(t, { '.gitignore': '*.log\nbuild/\n', 'src/app.ts': 'v1\n' });
  writeTree(root, { 'debug.log': 'log\n', 'build/out.js': 'built\n' });
  const id = await saveCheckpoint(root);
  const atCheckpoint = workspaceState(root);
  writeTree(root, {
    'src/app.ts': 'v2\n',
    'src/later.ts': 'created after the checkpoint\n',
    'later.log': 'ignored, created later\n',
    'build/later.js': 'ignored folder\n',
  });
  writeFileSync(join(root, 'debug.log'), 'log, edited later\n');
  return { root, id, atCheckpoint, dotGit: fingerprint(root, '.git'), before: workspaceState(root) };
}

test('restore removes a file created after the checkpoint and leaves ignored files and ignored folders alone', async (t) => {
  const { root, id, dotGit } = await changedSinceCheckpoint(t);
  const result = await runAideInProcess(['restore', id.slice(0, 8), '--yes'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(readFileSync(join(root, 'src/app.ts'), 'utf8'), 'v1\n');
  assert.equal(existsSync(join(root, 'src/later.ts')), false);
  assert.equal(readFileSync(join(root, 'later.log'), 'utf8'), 'ignored, created later\n');
  assert.equal(readFileSync(join(root, 'debug.log'), 'utf8'), 'log, edited later\n');
  assert.equal(readFileSync(join(root, 'build/later.js'), 'utf8'), 'ignored folder\n');
  assert.equal(readFileSync(join(root, 'build/out.js'), 'utf8'), 'built\n');
  assert.deepEqual(fingerprint(root, '.git'), dotGit);
  assert.match(result.stdout, /1 file to write, 1 to remove:\n {4}D src\/later\.ts\n {4}M src\/app\.ts\n/);
  assert.match(result.stdout, /Saved the current state as checkpoint [0-9a-f]{10}\./);
  assert.match(
    result.stdout,
    /Restored checkpoint [0-9a-f]{10}: 1 file written, 1 removed\.\nUndo this restore with `aide restore [0-9a-f]{10}`\./,
  );
});

test('--dry-run lists the changes and writes nothing', async (t) => {
  const { root, id, dotGit, before } = await changedSinceCheckpoint(t);
  const result = await runAideInProcess(['restore', id, '--dry-run'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /D src\/later\.ts/);
  assert.match(result.stdout, /Dry run: nothing written/);
  assert.deepEqual(workspaceState(root), before);
  assert.deepEqual(fingerprint(root, '.git'), dotGit);
});

test('without a terminal and without --yes: exit 4 before any work, nothing written', async (t) => {
  const { root, id, dotGit, before } = await changedSinceCheckpoint(t);
  const shadowBefore = fingerprint(root, '.aide/state');
  const result = await runAide(['restore', id], { cwd: root });
  assert.equal(result.code, 4);
  assert.match(result.stderr, /restore needs your approval, but there is no terminal/);
  assert.match(result.stderr, /Pass --yes/);
  assert.equal(result.stdout, '');
  assert.deepEqual(workspaceState(root), before);
  assert.deepEqual(fingerprint(root, '.aide/state'), shadowBefore, 'the shadow was touched');
  assert.deepEqual(fingerprint(root, '.git'), dotGit);
});

test('an unknown checkpoint id exits 2 and says how to list them', async (t) => {
  const { root, before } = await changedSinceCheckpoint(t);
  const result = await runAideInProcess(['restore', 'deadbeef', '--yes'], { cwd: root });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /no checkpoint "deadbeef"/);
  assert.match(result.stderr, /aide checkpoints/);
  assert.deepEqual(workspaceState(root), before);
});

test('an unknown checkpoint id is exit 2 even where no one could be asked (no terminal, --json): found before anything is asked', async (t) => {
  const { root, before } = await changedSinceCheckpoint(t);
  const text = await runAide(['restore', 'deadbeef'], { cwd: root });
  assert.equal(text.code, 2, text.stderr);
  assert.match(text.stderr, /^aide: no checkpoint "deadbeef"\n {2}hint: List them with `aide checkpoints`/);
  const json = await runAide(['restore', 'deadbeef', '--json'], { cwd: root });
  assert.equal(json.code, 2, json.stdout);
  const parsed = JSON.parse(json.stdout) as { ok: boolean; error: { code: string } };
  assert.equal(parsed.error.code, 'checkpoint_unknown');
  assert.deepEqual(workspaceState(root), before);
});

test('a workspace locked by a live aide process exits 6 and writes nothing', async (t) => {
  const { root, id, before } = await changedSinceCheckpoint(t);
  writeFileSync(
    join(root, '.aide/state/lock'),
    JSON.stringify({ pid: process.pid, command: 'apply', startedAt: 'now' }),
  );
  const result = await runAide(['restore', id, '--yes'], { cwd: root });
  assert.equal(result.code, 6);
  assert.match(result.stderr, new RegExp(`pid ${process.pid}: aide apply`));
  assert.deepEqual(workspaceState(root), before);
  rmSync(join(root, '.aide/state/lock'));
});

test('nothing to do: exit 0, no checkpoint taken', async (t) => {
  const root = gitRepo(t, { 'a.txt': 'a\n' });
  const id = await saveCheckpoint(root);
  const list = async () => (await runAideInProcess(['checkpoints', '--json'], { cwd: root })).stdout;
  const before = await list();
  const result = await runAideInProcess(['restore', id, '--yes'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /Nothing to do: the workspace already matches checkpoint/);
  assert.equal(await list(), before);
});

test('--json is one versioned document with every change, the safety checkpoint and the undo id', async (t) => {
  const { root, id } = await changedSinceCheckpoint(t);
  const result = await runAideInProcess(['restore', id, '--yes', '--json'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as Record<string, unknown> & {
    safety: { id: string; reason: string };
    undo: { id: string };
  };
  assert.equal(report['schema'], 'aide.restore/1');
  assert.equal(report['ok'], true);
  assert.equal(report['result'], 'restored');
  assert.deepEqual(report['changes'], [
    { path: 'src/later.ts', action: 'remove', kind: null },
    { path: 'src/app.ts', action: 'modify', kind: 'file' },
  ]);
  assert.deepEqual([report['written'], report['removed']], [1, 1]);
  assert.equal(report.safety.reason, 'restore-safety');
  assert.equal(report.undo.id, report.safety.id);
});

test('the undo id really undoes the restore', async (t) => {
  const { root, id, before } = await changedSinceCheckpoint(t);
  const report = JSON.parse(
    (await runAideInProcess(['restore', id, '--yes', '--json'], { cwd: root })).stdout,
  ) as {
    undo: { short: string };
  };
  const undo = await runAideInProcess(['restore', report.undo.short, '--yes'], { cwd: root });
  assert.equal(undo.code, 0, undo.stderr);
  assert.deepEqual(workspaceState(root), before);
});

test('aide restore --help shows examples and the exit codes', async (t) => {
  const root = gitRepo(t);
  const result = await runAideInProcess(['restore', '--help'], { cwd: root });
  assert.equal(result.code, 0);
  assert.match(result.stdout, /aide restore 3f9c2a --dry-run/);
  assert.match(result.stdout, /4 no terminal to ask\s+on and no --yes, 5 you said no/);
});

test('in a workspace without checkpoints: exit 2, and nothing is created', async (t) => {
  const root = gitRepo(t, { 'a.txt': 'a\n' });
  const result = await runAideInProcess(['restore', 'abc123', '--yes'], { cwd: root });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /no checkpoint "abc123": this workspace has none yet/);
  assert.equal(existsSync(join(root, '.aide')), false);
});

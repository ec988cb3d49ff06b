/**
 * Crash safety: aide is killed with SIGKILL (nothing can be held or cleaned up) between two
 * file writes of a restore. Every file is then wholly old or wholly new; the next run takes
 * the stale lock over, reports the interrupted restore, and either finishes it or undoes it,
 * leaving no temp file and no journal behind.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { saveCheckpoint, workspaceState } from '../helpers/checkpoints.js';
import { runAide, TEST_BIN } from '../helpers/cli.js';
import { fingerprint, gitRepo, testEnv, testHome, writeTree, type Cleanup } from '../helpers/sandbox.js';

const FILES = 40;
const JOURNAL = '.aide/state/restore-journal.json';

/** 40 files changed, 3 deleted and 5 added since the checkpoint: a restore of 48 changes. */
async function bigRestore(t: Cleanup) {
  const files = Object.fromEntries(
    Array.from({ length: FILES }, (_, i) => [
      `src/f${String(i).padStart(2, '0')}.txt`,
      `old ${i}\n`.repeat(50),
    ]),
  );
  const root = gitRepo(t, files);
  const id = await saveCheckpoint(root);
  const atCheckpoint = workspaceState(root);
  writeTree(root, Object.fromEntries(Object.keys(files).map((path, i) => [path, `new ${i}\n`.repeat(70)])));
  for (const i of ['03', '17', '31']) unlinkSync(join(root, `src/f${i}.txt`));
  writeTree(
    root,
    Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`extra/deep/x${i}.txt`, `extra ${i}\n`])),
  );
  return { root, id, atCheckpoint, mutated: workspaceState(root), dotGit: fingerprint(root, '.git') };
}

/** Starts `aide restore ID --yes` with the test-only pause, waits until it has written `after` files, kills it. */
async function killMidRestore(root: string, id: string, after: number): Promise<number> {
  const child = spawn(process.execPath, [TEST_BIN, 'restore', id, '--yes'], {
    cwd: root,
    env: testEnv(testHome(), { AIDE_TEST_PAUSE_AFTER_WRITES: String(after) }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.includes(`aide-test: paused after ${after} writes`)) resolve();
    });
    child.on('exit', () => {
      reject(new Error(`aide exited before the pause: ${stderr}`));
    });
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  assert.ok(child.pid !== undefined);
  return child.pid;
}

/** Every path is as the checkpoint or as the mutated state had it (or absent in one of them); returns the temp files. */
function assertOldOrNew(
  root: string,
  atCheckpoint: Record<string, string>,
  mutated: Record<string, string>,
): string[] {
  const now = workspaceState(root);
  const temps = Object.keys(now).filter((path) => /\.aide-\d+-[0-9a-f]{8}\.tmp$/.test(path));
  for (const path of new Set([...Object.keys(now), ...Object.keys(atCheckpoint), ...Object.keys(mutated)])) {
    if (temps.includes(path) || path.endsWith('/')) continue;
    assert.ok(
      now[path] === atCheckpoint[path] || now[path] === mutated[path],
      `${path} is neither old nor new: ${now[path] ?? 'missing'}`,
    );
  }
  return temps;
}

test('SIGKILL between file writes, then the same restore again: it takes the lock over and finishes', async (t) => {
  const { root, id, atCheckpoint, mutated, dotGit } = await bigRestore(t);
  const pid = await killMidRestore(root, id, 12);

  assert.ok(existsSync(join(root, JOURNAL)), 'no journal after the kill');
  assert.equal(
    (JSON.parse(readFileSync(join(root, '.aide/state/lock'), 'utf8')) as { pid: number }).pid,
    pid,
    'the dead process should still hold the lock',
  );
  const temps = assertOldOrNew(root, atCheckpoint, mutated);
  assert.ok(temps.length > 0, 'expected the killed run to leave staged temp files');
  assert.notDeepEqual(workspaceState(root), mutated, 'the kill came before any write');

  const again = await runAide(['restore', id, '--yes'], { cwd: root });
  assert.equal(again.code, 0, again.stderr);
  assert.match(
    again.stdout,
    new RegExp(`a restore to checkpoint ${id.slice(0, 10)} was interrupted \\(started .* by pid ${pid}\\)`),
  );
  assert.match(again.stdout, new RegExp(`Removed ${temps.length} temp files? it left\\.`));
  assert.deepEqual(
    workspaceState(root),
    atCheckpoint,
    'not the checkpoint after finishing (or temp files left)',
  );
  assert.equal(existsSync(join(root, JOURNAL)), false);
  assert.equal(existsSync(join(root, '.aide/state/lock')), false);
  assert.deepEqual(fingerprint(root, '.git'), dotGit);

  // The undo it prints goes back to before the first, interrupted run.
  const undo = /Undo this restore with `aide restore ([0-9a-f]+)`/.exec(again.stdout)?.[1];
  assert.ok(undo !== undefined, again.stdout);
  assert.equal((await runAide(['restore', undo, '--yes'], { cwd: root })).code, 0);
  assert.deepEqual(workspaceState(root), mutated);
});

test('SIGKILL between file writes, then going back instead: the state before the restore returns', async (t) => {
  const { root, id, atCheckpoint, mutated, dotGit } = await bigRestore(t);
  await killMidRestore(root, id, 3);
  assertOldOrNew(root, atCheckpoint, mutated);

  const listed = await runAide(['checkpoints'], { cwd: root });
  assert.match(
    listed.stdout,
    new RegExp(`^note: a restore to checkpoint ${id.slice(0, 10)} was interrupted`),
  );
  const json = JSON.parse((await runAide(['checkpoints', '--json'], { cwd: root })).stdout) as {
    pendingRestore: { target: { id: string } } | null;
  };
  assert.equal(json.pendingRestore?.target.id, id);
  const note = await runAide(['restore', id, '--dry-run'], { cwd: root });
  const back = /go back to before it with `aide restore ([0-9a-f]+)`/.exec(note.stdout)?.[1];
  assert.ok(back !== undefined, note.stdout);
  assert.match(listed.stdout, new RegExp(`aide restore ${back}`));
  const undone = await runAide(['restore', back, '--yes'], { cwd: root });
  assert.equal(undone.code, 0, undone.stderr);
  assert.deepEqual(workspaceState(root), mutated, 'not the state before the restore (or temp files left)');
  assert.equal(existsSync(join(root, JOURNAL)), false);
  assert.deepEqual(fingerprint(root, '.git'), dotGit);
});

test('SIGKILL after the last write, before the cleanup: the next run only removes the emptied folders and the journal', async (t) => {
  const { root, id, atCheckpoint } = await bigRestore(t);
  await killMidRestore(root, id, FILES + 5);
  assert.ok(existsSync(join(root, 'extra/deep')), 'the emptied folders should still be there');
  const again = await runAide(['restore', id, '--yes'], { cwd: root });
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /Finished the interrupted restore \(2 emptied folders removed\)\./);
  assert.match(again.stdout, /Undo this restore with `aide restore [0-9a-f]{10}`\./);
  assert.deepEqual(workspaceState(root), atCheckpoint);
  assert.equal(existsSync(join(root, JOURNAL)), false);
});

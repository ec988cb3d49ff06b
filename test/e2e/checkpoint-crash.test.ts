/**
 * Crash safety of snapshots and checkpoints: aide killed with SIGKILL while it snapshots or
 * commits leaves a stale workspace lock and possibly git's own lock files in the shadow; the
 * next run takes over and succeeds, and the user's files and .git are untouched throughout.
 * Each kill lands at a point seen from outside (files appearing in the shadow), never after a
 * fixed time, and the test checks it landed there: at load 3.7 fixed times hit one point in four.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BIN, runAide } from '../helpers/cli.js';
import { fingerprint, gitRepo, testEnv, writeTree } from '../helpers/sandbox.js';

const FILES = 1500;

/** What a checkpoint run has left in the shadow, read from outside. */
interface Progress {
  /** Whether `.aide/state/lock` names this pid. */
  lockedBy(pid: number): boolean;
  /** Loose objects the shadow holds (its own, hard-linked from the user's store). */
  looseObjects(): number;
  /** Written once every borrowed object is the shadow's own: the linking is done. */
  owned(): boolean;
  /** Written at the end of a snapshot, before the checkpoint's commit. */
  snapshotted(): boolean;
  /** Checkpoint branches in the shadow: one once a checkpoint is recorded. */
  checkpoints(): string[];
}

function progressOf(repo: string): Progress {
  const state = join(repo, '.aide/state');
  const shadow = join(state, 'shadow.git');
  const names = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);
  return {
    lockedBy(pid) {
      try {
        return (JSON.parse(readFileSync(join(state, 'lock'), 'utf8')) as { pid?: number }).pid === pid;
      } catch {
        return false;
      }
    },
    looseObjects() {
      const objects = join(shadow, 'objects');
      return names(objects)
        .filter((name) => /^[0-9a-f]{2}$/.test(name))
        .reduce((sum, name) => sum + names(join(objects, name)).length, 0);
    },
    owned: () => existsSync(join(shadow, 'aide-owns-objects')),
    snapshotted: () => existsSync(join(shadow, 'aide-last-snapshot')),
    checkpoints: () => names(join(shadow, 'refs/heads/aide')),
  };
}

/**
 * Starts `aide checkpoints save`, watches the shadow until `reached(pid)` holds, and kills aide
 * there (SIGKILL: nothing is cleaned up; a git child it started may finish on its own). Fails if
 * aide ends by itself first or the point is not reached within a minute.
 */
async function killWhen(repo: string, reached: (pid: number) => boolean): Promise<void> {
  const child = spawn(process.execPath, [BIN, 'checkpoints', 'save', '-m', 'killed'], {
    cwd: repo,
    env: testEnv(),
    stdio: 'ignore',
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => {
    child.on('exit', (_code, signal) => {
      resolve(signal);
    });
  });
  let ended = false;
  void exited.then(() => (ended = true));
  const deadline = Date.now() + 60_000;
  while (!reached(child.pid ?? 0)) {
    if (ended) throw new Error('aide finished before the point it was to be killed at');
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('aide did not reach the point it was to be killed at within a minute');
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  child.kill('SIGKILL');
  assert.equal(await exited, 'SIGKILL', 'aide was killed, not finished');
}

test('SIGKILL during a checkpoint, at several moments: the next run recovers and the workspace is untouched', async (t) => {
  const files = Object.fromEntries(
    Array.from({ length: FILES }, (_, i) => [`src/m${i}.ts`, `export const v${i} = ${i};\n`]),
  );
  const repo = gitRepo(t, files);
  writeTree(repo, { 'src/m1.ts': 'export const v1 = "edited";\n', 'new.txt': 'untracked\n' });
  const workspace = fingerprint(repo);
  const shadow = progressOf(repo);
  // 1. Right after the lock is taken: the shadow is being made, nothing of it is complete.
  await killWhen(repo, (pid) => shadow.lockedBy(pid));
  assert.equal(shadow.owned(), false, 'killed before the objects were linked');
  // 2. While the user's objects are hard-linked into the shadow (one file at a time).
  await killWhen(repo, () => shadow.looseObjects() >= 300);
  assert.ok(shadow.looseObjects() < FILES, `killed mid-linking (${shadow.looseObjects()} objects linked)`);
  assert.equal(shadow.owned(), false, 'killed before the linking was done');
  // 3. Once the objects are owned, while the snapshot is taken (index, git add, write-tree).
  await killWhen(repo, () => shadow.owned());
  assert.equal(shadow.snapshotted(), false, 'killed before the snapshot was done');
  // 4. After the snapshot, while the checkpoint is committed.
  await killWhen(repo, () => shadow.snapshotted());
  assert.deepEqual(shadow.checkpoints(), [], 'killed before the checkpoint was recorded');
  // A git process of the killed aide may still be finishing in .aide/state: compare the rest.
  assert.deepEqual(withoutState(fingerprint(repo)), workspace, 'nothing outside .aide/state changed');
  const saved = await runAide(['checkpoints', 'save', '-m', 'after the crashes'], { cwd: repo });
  assert.equal(saved.code, 0, saved.stderr);
  const shown = await runAide(['checkpoints', 'diff', firstId(saved.stdout)], { cwd: repo });
  assert.equal(shown.code, 0, shown.stderr);
  assert.equal(shown.stdout, 'No differences.\n', 'the checkpoint holds the files as they are');
});

test("a stale lock with git's index.lock left in the shadow is taken over", async (t) => {
  const repo = gitRepo(t, { 'a.txt': 'a\n' });
  assert.equal((await runAide(['checkpoints', 'save'], { cwd: repo })).code, 0);
  const state = join(repo, '.aide', 'state');
  writeFileSync(
    join(state, 'lock'),
    JSON.stringify({ pid: 2 ** 22 + 12345, command: 'apply', startedAt: 'before the crash' }),
  );
  writeFileSync(join(state, 'shadow.git', 'index.lock'), '');
  const minuteAgo = new Date(Date.now() - 60_000);
  utimesSync(join(state, 'shadow.git', 'index.lock'), minuteAgo, minuteAgo);
  mkdirSync(join(state, 'shadow.git', 'refs', 'heads', 'aide'), { recursive: true });
  writeTree(repo, { 'a.txt': 'A\n' });
  const gitBefore = fingerprint(repo, '.git');
  const result = await runAide(['checkpoints', 'save', '-m', 'after'], { cwd: repo });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(fingerprint(repo, '.git'), gitBefore);
});

function withoutState(tree: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(tree).filter(([path]) => !path.startsWith('.aide/')));
}

function firstId(text: string): string {
  return /Checkpoint (\w+) saved/.exec(text)?.[1] ?? 'missing';
}

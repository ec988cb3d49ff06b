/**
 * Crash safety of snapshots and checkpoints: aide killed with SIGKILL while it snapshots or
 * commits leaves a stale workspace lock and possibly git's own lock files in the shadow; the
 * next run takes over and succeeds, and the user's files and .git are untouched throughout.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BIN, runAide } from '../helpers/cli.js';
import { fingerprint, gitRepo, testEnv, writeTree } from '../helpers/sandbox.js';

function killAfter(cwd: string, args: string[], ms: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: testEnv(), stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

test('SIGKILL during a checkpoint, at several moments: the next run recovers and the workspace is untouched', async (t) => {
  const files = Object.fromEntries(
    Array.from({ length: 1500 }, (_, i) => [`src/m${i}.ts`, `export const v${i} = ${i};\n`]),
  );
  const repo = gitRepo(t, files);
  writeTree(repo, { 'src/m1.ts': 'export const v1 = "edited";\n', 'new.txt': 'untracked\n' });
  const workspace = fingerprint(repo);
  for (const ms of [150, 300, 450, 600])
    await killAfter(repo, ['checkpoints', 'save', '-m', `killed at ${ms} ms`], ms);
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

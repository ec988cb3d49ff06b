/**
 * One aide at a time, with many starting at once: a stale lock is replaced by exactly one of
 * them, a lock whose pid was reused is stale, and a lock file still being written is not stolen.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { processIdentity } from '../../src/infra/process/process-identity.js';
import { runAide, type CliResult } from '../helpers/cli.js';
import { gitRepo } from '../helpers/sandbox.js';

interface Listed {
  checkpoints: Array<{ message: string }>;
}

function lockPath(repo: string): string {
  return join(repo, '.aide', 'state', 'lock');
}

function plantLock(repo: string, content: string): void {
  mkdirSync(join(repo, '.aide', 'state'), { recursive: true });
  writeFileSync(lockPath(repo), content);
}

function deadPid(): number {
  return Number(
    execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }),
  );
}

async function saveAll(repo: string, count: number): Promise<CliResult[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      runAide(['checkpoints', 'save', '-m', `run ${i}`], { cwd: repo }),
    ),
  );
}

async function messages(repo: string): Promise<string[]> {
  const listed = await runAide(['checkpoints', '--json'], { cwd: repo });
  assert.equal(listed.code, 0, listed.stderr);
  return (JSON.parse(listed.stdout) as Listed).checkpoints.map((c) => c.message).sort();
}

/** Each run either saved or was refused as locked (exit 6), never an internal error. */
function assertOneAtATime(results: readonly CliResult[]): string[] {
  const saved: string[] = [];
  results.forEach((r, i) => {
    assert.ok(r.code === 0 || r.code === 6, `run ${i} exited ${String(r.code)}: ${r.stderr}`);
    if (r.code === 0) saved.push(`run ${i}`);
    else
      assert.match(r.stderr, /another aide process is working in this workspace \(pid \d+: aide checkpoints/);
  });
  return saved.sort();
}

describe('the workspace lock under simultaneous runs', () => {
  test("eight saves at once over a dead process's lock: each saves or is refused, and every save is kept", async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    plantLock(
      repo,
      JSON.stringify({
        pid: deadPid(),
        identity: null,
        token: 'dead0000',
        command: 'apply',
        startedAt: 'then',
      }),
    );
    const saved = assertOneAtATime(await saveAll(repo, 8));
    assert.ok(saved.length >= 1, 'the stale lock was taken over');
    assert.deepEqual(await messages(repo), saved, 'one checkpoint per run that said it saved');
    assert.equal(existsSync(lockPath(repo)), false, 'the last holder released the lock');
    assert.deepEqual(
      readdirSync(join(repo, '.aide', 'state')).filter((n) => n.startsWith('lock')),
      [],
      'no lock litter',
    );
  });

  test(
    'a lock naming pid 1 with another start time is a reused pid: it is taken over',
    { skip: process.platform !== 'linux' },
    async (t) => {
      const repo = gitRepo(t, { 'a.txt': 'a\n' });
      const real = await processIdentity(1);
      assert.ok(real !== null);
      const [boot = '', start = '0'] = real.split(':');
      plantLock(
        repo,
        JSON.stringify({
          pid: 1,
          identity: `${boot}:${Number(start) + 1}`,
          token: 'reused00',
          command: 'act',
          startedAt: 'before a reboot',
        }),
      );
      const result = await runAide(['checkpoints', 'save', '-m', 'after reuse'], { cwd: repo });
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(await messages(repo), ['after reuse']);
    },
  );

  test(
    "an older aide's lock (pid and date only) naming pid 1, which started after it, is taken over",
    { skip: process.platform !== 'linux' },
    async (t) => {
      const repo = gitRepo(t, { 'a.txt': 'a\n' });
      plantLock(repo, JSON.stringify({ pid: 1, command: 'act', startedAt: '2020-01-01T00:00:00.000Z' }));
      const result = await runAide(['checkpoints', 'save', '-m', 'after reboot'], { cwd: repo });
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(await messages(repo), ['after reboot']);
      plantLock(
        repo,
        JSON.stringify({ pid: process.pid, command: 'act', startedAt: new Date().toISOString() }),
      );
      const refused = await runAide(['checkpoints', 'save'], { cwd: repo });
      assert.equal(refused.code, 6, 'a live older-format lock still holds');
    },
  );

  test('a lock held by a live aide is not taken over', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    plantLock(
      repo,
      JSON.stringify({
        pid: process.pid,
        identity: await processIdentity(process.pid),
        token: 'live0000',
        command: 'act',
        startedAt: 'now',
      }),
    );
    const results = await saveAll(repo, 3);
    for (const r of results) {
      assert.equal(r.code, 6, r.stderr);
      assert.match(r.stderr, new RegExp(`pid ${process.pid}: aide act`));
    }
    assert.match(readFileSync(lockPath(repo), 'utf8'), /live0000/);
  });

  test('a lock file still being written (empty, fresh) is not stolen; an old empty one is', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    plantLock(repo, '');
    const results = await saveAll(repo, 4);
    for (const r of results) {
      assert.equal(r.code, 6, r.stderr);
      assert.match(r.stderr, /another aide process is starting in this workspace/);
    }
    assert.equal(readFileSync(lockPath(repo), 'utf8'), '', 'the lock file was left to its writer');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockPath(repo), old, old);
    const saved = assertOneAtATime(await saveAll(repo, 4));
    assert.ok(saved.length >= 1);
    assert.deepEqual(await messages(repo), saved);
  });
});

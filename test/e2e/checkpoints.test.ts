import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runAide } from '../helpers/cli.js';
import { runAideInProcess } from '../helpers/in-process.js';
import { fingerprint, git, gitRepo, writeTree } from '../helpers/sandbox.js';

const REPLY = 'app.js\n<<<<<<< SEARCH\nconst n = 1;\n=======\nconst n = 2;\n>>>>>>> REPLACE\n';

interface Listed {
  checkpoints: Array<{
    id: string;
    short: string;
    reason: string;
    session: string;
    message: string;
    filesChanged: number;
  }>;
}

async function list(cwd: string): Promise<Listed['checkpoints']> {
  const result = await runAideInProcess(['checkpoints', '--json'], { cwd });
  assert.equal(result.code, 0, result.stderr);
  return (JSON.parse(result.stdout) as Listed).checkpoints;
}

test('aide apply takes a checkpoint before writing and says how to undo', async (t) => {
  const repo = gitRepo(t, { 'app.js': 'const n = 1;\n' });
  const gitBefore = fingerprint(repo, '.git');
  const result = await runAideInProcess(['apply', '-'], { cwd: repo, input: REPLY });
  assert.equal(result.code, 0, result.stderr);
  const [checkpoint] = await list(repo);
  assert.ok(checkpoint);
  assert.match(
    result.stdout,
    new RegExp(
      `Checkpoint ${checkpoint.short} holds the files as they were: undo with \`aide restore ${checkpoint.short}\``,
    ),
  );
  assert.equal(checkpoint.reason, 'apply');
  assert.match(checkpoint.session, /^apply-\d{8}-\d{6}-[0-9a-f]{4}$/);
  const shown = await runAideInProcess(['checkpoints', 'show', checkpoint.short, '--json'], { cwd: repo });
  assert.equal(shown.code, 0, shown.stderr);
  assert.deepEqual(fingerprint(repo, '.git'), gitBefore, "the user's .git is byte-identical");
  assert.equal(
    git(repo, ['status', '--porcelain']),
    ' M app.js\n',
    '.aide/state does not show in git status',
  );
});

test('a dry run and a failed apply take no checkpoint and leave no state', async (t) => {
  const repo = gitRepo(t, { 'app.js': 'const n = 1;\n' });
  assert.equal((await runAideInProcess(['apply', '--dry-run', '-'], { cwd: repo, input: REPLY })).code, 0);
  assert.equal(
    (
      await runAideInProcess(['apply', '-'], {
        cwd: repo,
        input: REPLY.replace('const n = 1', 'const m = 1'),
      })
    ).code,
    1,
  );
  const result = await runAideInProcess(['checkpoints'], { cwd: repo });
  assert.equal(result.code, 0);
  assert.match(result.stdout, /No checkpoints yet/);
  assert.equal(git(repo, ['status', '--porcelain']), '');
});

test('save, list, show and diff', async (t) => {
  const repo = gitRepo(t, { 'a.txt': 'one\n', 'b.txt': 'b\n' });
  const saved = await runAideInProcess(['checkpoints', 'save', '-m', 'before my refactor'], { cwd: repo });
  assert.equal(saved.code, 0, saved.stderr);
  const [first] = await list(repo);
  assert.ok(first);
  assert.match(saved.stdout, new RegExp(`Checkpoint ${first.short} saved \\(before my refactor\\)`));
  writeTree(repo, { 'a.txt': 'two\n', 'c.txt': 'new\n' });
  const againstNow = await runAideInProcess(['checkpoints', 'diff', first.short], { cwd: repo });
  assert.equal(againstNow.code, 0, againstNow.stderr);
  assert.match(againstNow.stdout, /^-one$/m);
  assert.match(againstNow.stdout, /^\+two$/m);
  assert.match(againstNow.stdout, /^\+\+\+ b\/c\.txt$/m);
  assert.equal((await runAideInProcess(['checkpoints', 'save'], { cwd: repo })).code, 0);
  const [second] = await list(repo);
  assert.ok(second && second.id !== first.id);
  assert.equal(second.filesChanged, 2);
  const between = await runAideInProcess(['checkpoints', 'diff', first.short, second.short, '--json'], {
    cwd: repo,
  });
  const parsed = JSON.parse(between.stdout) as { changes: Array<{ path: string; status: string }> };
  assert.deepEqual(
    parsed.changes.map((c) => [c.path, c.status]),
    [
      ['a.txt', 'M'],
      ['c.txt', 'A'],
    ],
  );
  const shown = await runAideInProcess(['checkpoints', 'show', second.short], { cwd: repo });
  assert.match(
    shown.stdout,
    /2 files changed since the previous checkpoint:\n {2}modified {2}a.txt {2}\+1 -1\n {2}added {2}c.txt {2}\+1 -0/,
  );
  const listed = await runAideInProcess(['checkpoints'], { cwd: repo });
  assert.match(
    listed.stdout,
    new RegExp(`${second.short} .*manual checkpoint\\n${first.short} .*before my refactor`),
  );
});

test('an unknown checkpoint id is a usage error', async (t) => {
  const repo = gitRepo(t, { 'a.txt': 'a\n' });
  await runAideInProcess(['checkpoints', 'save'], { cwd: repo });
  const result = await runAideInProcess(['checkpoints', 'show', 'deadbeef00'], { cwd: repo });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /no checkpoint "deadbeef00"/);
});

test('prune keeps the newest sessions and reports the space; --stats reports the size', async (t) => {
  const repo = gitRepo(t, { 'a.txt': '0\n' });
  for (let i = 1; i <= 4; i++) {
    writeFileSync(join(repo, 'a.txt'), `${i}\n`);
    assert.equal((await runAideInProcess(['checkpoints', 'save', '-m', `save ${i}`], { cwd: repo })).code, 0);
  }
  const dry = await runAideInProcess(['checkpoints', 'prune', '--keep', '2', '--dry-run'], { cwd: repo });
  assert.match(dry.stdout, /Would remove 2 sessions; 2 sessions kept/);
  assert.equal((await list(repo)).length, 4);
  const pruned = await runAideInProcess(['checkpoints', 'prune', '--keep', '2'], { cwd: repo });
  assert.equal(pruned.code, 0, pruned.stderr);
  assert.match(pruned.stdout, /Removed 2 sessions; 2 sessions kept/);
  assert.deepEqual(
    (await list(repo)).map((c) => c.message),
    ['save 4', 'save 3'],
  );
  const stats = await runAideInProcess(['checkpoints', '--stats', '--json'], { cwd: repo });
  const parsed = JSON.parse(stats.stdout) as {
    stats: { sessions: number; checkpoints: number; bytes: number; borrowsObjects: boolean };
  };
  assert.deepEqual(
    [parsed.stats.sessions, parsed.stats.checkpoints, parsed.stats.borrowsObjects],
    [2, 2, true],
  );
  assert.ok(parsed.stats.bytes > 0);
  const noArgs = await runAideInProcess(['checkpoints', 'prune'], { cwd: repo });
  assert.equal(noArgs.code, 2);
});

test('another live aide holding the workspace lock stops a write with exit 6, naming it', async (t) => {
  const repo = gitRepo(t, { 'app.js': 'const n = 1;\n' });
  mkdirSync(join(repo, '.aide', 'state'), { recursive: true });
  writeFileSync(
    join(repo, '.aide', 'state', 'lock'),
    JSON.stringify({ pid: process.pid, command: 'act', startedAt: 'now' }),
  );
  const result = await runAide(['apply', '-'], { cwd: repo, input: REPLY });
  assert.equal(result.code, 6);
  assert.match(
    result.stderr,
    new RegExp(`another aide process is working in this workspace \\(pid ${process.pid}: aide act`),
  );
  assert.equal(readFileSync(join(repo, 'app.js'), 'utf8'), 'const n = 1;\n', 'nothing written');
});

/**
 * What a hooked `git commit` may never do to the user's files: `git commit <path>` (git's
 * temporary index holds that path only) reviews exactly that, and aide stopped mid-review —
 * Ctrl-C to the commit's process group, or kill -9 of aide alone — leaves unstaged, partially
 * staged and untracked files byte-identical and the user's index untouched, with no commit made.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { runAide } from '../helpers/cli.js';
import { fingerprint, git, testEnv, testHome, writeTree, type Cleanup } from '../helpers/sandbox.js';
import { verifyRepo } from '../helpers/verify.js';

/** value.txt must say "good"; the check sleeps first when slow.txt exists, so aide can be stopped mid-review. */
function repo(t: Cleanup): string {
  const root = verifyRepo(
    t,
    [{ name: 'check', run: 'if [ -f slow.txt ]; then sleep 60; fi; test "$(cat value.txt)" = good' }],
    {},
    { 'value.txt': 'good\n', 'part.txt': 'one\ntwo\n' },
  );
  return root;
}

const head = (cwd: string) => git(cwd, ['rev-parse', 'HEAD']).trim();

/**
 * The user's files (aide's state aside) and the index's entries, byte for byte. Not the index's
 * extensions: `git commit` itself writes the cache-tree extension (TREE) before it runs the
 * pre-commit hook, so that part changes whoever the hook is (seen here: entries equal, TREE filled).
 */
function userState(root: string) {
  const files = Object.fromEntries(
    Object.entries(fingerprint(root)).filter(
      ([p]) => !p.startsWith('.git/') && !p.startsWith('.aide/state/'),
    ),
  );
  const index = readFileSync(join(root, '.git', 'index'));
  const tree = index.indexOf('TREE', 12, 'latin1');
  return {
    files,
    entries: index.subarray(0, tree === -1 ? index.length - 20 : tree).toString('hex'),
    staged: git(root, ['ls-files', '--stage']),
  };
}

test("`git commit <path>`: only that path is reviewed, through git's temporary index", async (t) => {
  const root = repo(t);
  assert.equal((await runAide(['hooks', 'install'], { cwd: root })).code, 0);
  writeTree(root, { 'value.txt': 'bad\n', 'part.txt': 'one\nTWO\n' });
  git(root, ['add', 'value.txt']);
  const before = head(root);
  const env = testEnv(testHome());
  // value.txt's bad content is staged but not in this commit: the review passes.
  const passed = spawnSync('git', ['commit', '-q', '-m', 'part', 'part.txt'], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  assert.equal(passed.status, 0, passed.stdout + passed.stderr);
  assert.equal(git(root, ['show', 'HEAD:value.txt']), 'good\n');
  assert.equal(git(root, ['diff', '--cached', '--name-only']).trim(), 'value.txt');
  // Committing value.txt itself is refused.
  const refused = spawnSync('git', ['commit', '-q', '-m', 'v', 'value.txt'], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  assert.notEqual(refused.status, 0);
  assert.notEqual(head(root), before);
  assert.equal(git(root, ['show', 'HEAD:value.txt']), 'good\n');
});

/** Starts a hooked `git commit` in its own process group; resolves once verify is running. */
async function commitUntilVerify(root: string) {
  const child = spawn('git', ['commit', '-q', '-m', 'slow'], {
    cwd: root,
    env: testEnv(testHome()),
    detached: true,
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      resolve(code);
    }),
  );
  const logs = join(root, '.aide', 'state', 'sessions');
  for (let i = 0; i < 600; i++) {
    const sessions = existsSync(logs) ? readdirSync(logs) : [];
    if (sessions.some((s) => existsSync(join(logs, s, 'logs')))) break;
    await sleep(100);
  }
  await sleep(500);
  return { pid: child.pid ?? 0, exited };
}

/**
 * Waits until no process of the group `pgid` is left. On Ctrl-C git dies at once, while the hook
 * (aide) goes on cleaning up its scratch for a moment: the user's state is compared after that.
 */
async function groupGone(pgid: number, deadlineMs = 30_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    if (Date.now() > deadline)
      throw new Error(`processes of group ${pgid} still running after ${deadlineMs} ms`);
    await sleep(50);
  }
}

/** The user's tree as a review is stopped: partially staged, unstaged and untracked files. */
function messyTree(root: string): void {
  writeTree(root, { 'slow.txt': 'slow\n', 'part.txt': 'ONE\ntwo\n' });
  git(root, ['add', 'slow.txt', 'part.txt']);
  writeTree(root, { 'part.txt': 'ONE\ntwo unstaged\n', 'value.txt': 'unstaged\n', 'untracked.txt': 'u\n' });
}

test('Ctrl-C during a hooked commit: no commit; files and index entries byte-identical', async (t) => {
  const root = repo(t);
  assert.equal((await runAide(['hooks', 'install'], { cwd: root })).code, 0);
  messyTree(root);
  const before = { head: head(root), ...userState(root) };
  const { pid, exited } = await commitUntilVerify(root);
  process.kill(-pid, 'SIGINT');
  assert.notEqual(await exited, 0);
  await groupGone(pid);
  assert.deepEqual({ head: head(root), ...userState(root) }, before);
  assert.equal(existsSync(join(root, '.git', 'index.lock')), false);
});

test('kill -9 of aide during a hooked commit: no commit; files and index entries byte-identical', async (t) => {
  const root = repo(t);
  assert.equal((await runAide(['hooks', 'install'], { cwd: root })).code, 0);
  messyTree(root);
  const before = { head: head(root), ...userState(root) };
  const { pid, exited } = await commitUntilVerify(root);
  // The hook execs aide: the node process whose parent is git.
  const ps = spawnSync('ps', ['-o', 'pid=,ppid=,args=', '-e'], { encoding: 'utf8' }).stdout;
  const aide = ps
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .find(([, ppid, ...args]) => Number(ppid) === pid && args.join(' ').includes('review --staged'));
  assert.ok(aide, `no aide process under git ${pid}:\n${ps}`);
  process.kill(Number(aide[0]), 'SIGKILL');
  assert.notEqual(await exited, 0);
  assert.deepEqual({ head: head(root), ...userState(root) }, before);
  assert.equal(existsSync(join(root, '.git', 'index.lock')), false);
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is gone already.
  }
});

import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const LOCK_MODULE = fileURLToPath(new URL('./lock.js', import.meta.url));

/**
 * A child that starts racing at `start` (ms since the epoch), takes the lock, and while holding it
 * creates `holder` exclusively: a second holder at the same time finds it there and says so.
 */
const CHILD = `
const { acquireLock } = await import(process.argv[1]);
const { open, unlink } = await import('node:fs/promises');
const [, , stateDir, start] = process.argv;
while (Date.now() < Number(start)) {}
let lock;
try { lock = await acquireLock(stateDir, 'race'); } catch (e) { console.log(e.code === 'workspace_locked' ? 'locked' : 'error ' + e.stack); process.exit(0); }
const holder = stateDir + '/../holder';
let handle;
try { handle = await open(holder, 'wx'); } catch { console.log('double'); process.exit(0); }
await new Promise((r) => setTimeout(r, 150));
await handle.close();
await unlink(holder);
await lock.release();
console.log('held');
`;

function runChild(stateDir: string, start: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', CHILD, LOCK_MODULE, stateDir, String(start)],
      { timeout: 20_000 },
      (error, stdout) => {
        if (error !== null) reject(new Error(`the racing child failed: ${error.message}`));
        else resolve(stdout.trim());
      },
    );
  });
}

test('racing processes over a stale lock: never two holders at once', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'aide-lock-'));
  t.after(() => {
    rmSync(root, { recursive: true, force: true });
  });
  const dead = Number(
    execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }),
  );
  for (let round = 0; round < 3; round++) {
    const stateDir = join(root, `r${round}`, 'state');
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(join(stateDir, 'lock'), JSON.stringify({ pid: dead, command: 'apply', startedAt: 'then' }));
    const start = Date.now() + 600;
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => runChild(stateDir, start)));
    assert.deepEqual(
      outcomes.filter((o) => o !== 'held' && o !== 'locked'),
      [],
      `round ${round}: ${outcomes.join(', ')}`,
    );
    assert.ok(outcomes.includes('held'), `round ${round}: the stale lock was taken over`);
    assert.deepEqual(readdirSync(stateDir), [], `round ${round}: the lock is released and nothing is left`);
  }
});

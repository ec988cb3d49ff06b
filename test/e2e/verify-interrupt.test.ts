/** Ctrl-C during `aide verify`: every process killed, the scratch copy removed, exit 130. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { BIN } from '../helpers/cli.js';
import { tempDir, testEnv } from '../helpers/sandbox.js';
import { processesMatching, uniqueSeconds, verifyRepo } from '../helpers/verify.js';

async function waitFor(path: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!existsSync(path) || readFileSync(path, 'utf8').trim() === '') {
    if (Date.now() > until) throw new Error(`${path} did not appear`);
    await sleep(50);
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  test(`${signal} while a command runs: processes killed, scratch removed, exit ${signal === 'SIGINT' ? 130 : 143}`, async (t) => {
    const marker = uniqueSeconds();
    const mark = join(tempDir(t), 'started');
    const root = verifyRepo(t, [
      { name: 'slow', run: `pwd > ${mark}; (trap '' TERM; sleep ${marker}) & sleep ${marker}` },
      { name: 'after', run: `echo should-not-run` },
    ]);
    const child = spawn(process.execPath, [BIN, 'verify'], { cwd: root, env: testEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => {
      child.on('exit', (code) => {
        resolve(code);
      });
    });
    await waitFor(mark, 20_000);
    const scratch = readFileSync(mark, 'utf8').trim();
    assert.ok(existsSync(scratch), 'the command ran in a scratch copy that exists');
    assert.notEqual(scratch, root);
    child.kill(signal);
    const code = await exited;
    assert.equal(code, signal === 'SIGINT' ? 130 : 143, `${stdout}\n${stderr}`);
    assert.match(stderr, /interrupted/);
    assert.doesNotMatch(stdout, /should-not-run/);
    assert.deepEqual(processesMatching(`sleep ${marker}`), []);
    assert.equal(existsSync(scratch), false, 'the scratch copy was removed');
  });
}

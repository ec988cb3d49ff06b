/** Ctrl-C during `aide verify`: every process killed, the scratch copy removed, exit 130. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { commandSaid } from '../helpers/act.js';
import { BIN } from '../helpers/cli.js';
import { testEnv } from '../helpers/sandbox.js';
import { processesMatching, uniqueSeconds, verifyRepo } from '../helpers/verify.js';

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  test(`${signal} while a command runs: processes killed, scratch removed, exit ${signal === 'SIGINT' ? 130 : 143}`, async (t) => {
    const marker = uniqueSeconds();
    const root = verifyRepo(t, [
      { name: 'slow', run: `echo "started $(pwd)"; (trap '' TERM; sleep ${marker}) & sleep ${marker}` },
      { name: 'after', run: `echo should-not-run` },
    ]);
    const child = spawn(process.execPath, [BIN, 'verify'], {
      cwd: root,
      env: testEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => {
      child.on('exit', (code) => {
        resolve(code);
      });
    });
    // A command writes only its scratch: its log is where it says where that is.
    const scratch = await commandSaid(root, /^started (.+)$/m);
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

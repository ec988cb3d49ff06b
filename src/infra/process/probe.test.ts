import assert from 'node:assert/strict';
import { test } from 'node:test';
import { probe } from './probe.js';

const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };

test('a probe reports the exit code and output; a program that is not installed is missing', async () => {
  const ok = await probe(['sh', '-c', 'echo out; echo err >&2'], { env });
  assert.deepEqual([ok.ok, ok.missing, ok.code, ok.stdout, ok.stderr], [true, false, 0, 'out\n', 'err\n']);
  const failed = await probe(['sh', '-c', 'exit 3'], { env });
  assert.deepEqual([failed.ok, failed.missing, failed.code], [false, false, 3]);
  const missing = await probe(['aide-no-such-program'], { env });
  assert.deepEqual([missing.ok, missing.missing], [false, true]);
});

// A timeout that killed only the child would leave a grandchild holding the output pipe and the
// probe waiting for the whole sleep (LESSONS). The probe's group is killed whole.
test('a probe past its timeout is killed with everything it started', async () => {
  const started = performance.now();
  const result = await probe(['sh', '-c', 'sleep 30 & sleep 30'], { env, timeoutMs: 300 });
  assert.equal(result.ok, false);
  assert.ok(performance.now() - started < 10_000, `took ${performance.now() - started} ms`);
});

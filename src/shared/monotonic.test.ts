import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { monotonicMs } from './monotonic.js';

test('the clock never runs backwards, counts milliseconds, and loads no perf_hooks', () => {
  const start = monotonicMs();
  const until = Date.now() + 20;
  while (Date.now() < until) {
    // spin: a timer could fire early on a busy machine, the wall clock cannot
  }
  const elapsed = monotonicMs() - start;
  assert.ok(elapsed >= 15 && elapsed < 5_000, `20 ms of wall clock read as ${elapsed} ms`);
  // A process of its own: node:test itself reads `performance`.
  const script = [
    `import { monotonicMs } from ${JSON.stringify(new URL('./monotonic.js', import.meta.url).href)};`,
    `const a = monotonicMs(); const b = monotonicMs();`,
    `const loaded = process.moduleLoadList.filter((m) => m.includes('perf_hooks'));`,
    `process.stdout.write(JSON.stringify({ ordered: b >= a, loaded }));`,
  ].join('\n');
  const out = JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    }),
  ) as { ordered: boolean; loaded: string[] };
  assert.deepEqual(out, { ordered: true, loaded: [] });
});

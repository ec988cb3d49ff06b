import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const module = fileURLToPath(new URL('./hold-signals.js', import.meta.url));

test('SIGINT during a held section waits for it to finish, then ends the process', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'aide-hold-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const marker = join(dir, 'finished');
  const script = `
    import { writeFileSync } from 'node:fs';
    const { holdSignals } = await import(${JSON.stringify(module)});
    await holdSignals(async () => {
      process.kill(process.pid, 'SIGINT');
      await new Promise((r) => setTimeout(r, 100));
      writeFileSync(${JSON.stringify(marker)}, 'done');
    });
    writeFileSync(${JSON.stringify(`${marker}-after`)}, 'should not happen');
  `;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(result.signal, 'SIGINT', result.stderr);
  assert.ok(existsSync(marker), 'the held section ran to completion');
  assert.ok(!existsSync(`${marker}-after`), 'the process ended right after the section');
});

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ignoresCase } from './case-sensitivity.js';

test('the probe answers for the folder it is given, from one of its own entries', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'aide-case-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  mkdirSync(join(dir, '.git'));
  // Whatever this machine's file system does, the probe must agree with a direct look.
  writeFileSync(join(dir, 'lower.txt'), 'x');
  const direct = existsSync(join(dir, 'LOWER.TXT'));
  assert.equal(await ignoresCase(dir), direct);
});

test('with no entry to flip, the platform decides', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'aide-case-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  writeFileSync(join(dir, '123'), 'x');
  assert.equal(await ignoresCase(dir, 'darwin'), true);
  assert.equal(await ignoresCase(dir, 'win32'), true);
  assert.equal(await ignoresCase(dir, 'linux'), false);
});

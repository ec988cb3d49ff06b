/**
 * The test-only hooks live in the test entry point (test/helpers/aide-test-bin.ts): the shipped
 * CLI, everything under dist/src, reads no AIDE_TEST_ variable, so none can pause or steer it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { BIN, TEST_BIN } from '../helpers/cli.js';

/** The CLI's compiled modules, without the unit tests compiled beside them. */
function compiled(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.js') && !f.endsWith('.test.js'),
  );
}

test('no compiled file of the shipped CLI names an AIDE_TEST_ variable', () => {
  const src = dirname(BIN);
  const files = compiled(src);
  assert.ok(files.includes('bin.js') && files.length > 50, `expected the built CLI in ${src}`);
  assert.deepEqual(
    files.filter((f) => readFileSync(join(src, f), 'utf8').includes('AIDE_TEST_')),
    [],
  );
  // The scan finds the variable where it is: in the test entry point.
  assert.match(readFileSync(TEST_BIN, 'utf8'), /AIDE_TEST_PAUSE_AFTER_WRITES/);
});

/**
 * The test-only hooks live in the test entry point (test/helpers/aide-test-bin.ts): the shipped
 * CLI (the bundle, dist/bundle) and the modules it is built from (dist/src) read no AIDE_TEST_
 * variable, so none can pause or steer it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { test } from 'node:test';
import { BIN, TEST_BIN } from '../helpers/cli.js';

/** The CLI's compiled modules, without the unit tests compiled beside them. */
function compiled(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.js') && !f.endsWith('.test.js'),
  );
}

test('no compiled file of the shipped CLI names an AIDE_TEST_ variable', () => {
  const bundle = dirname(BIN);
  const src = join(bundle, '..', 'src');
  for (const [dir, entry] of [
    [bundle, basename(BIN)],
    [src, 'bin.js'],
  ] as const) {
    const files = compiled(dir);
    assert.ok(files.includes(entry) && files.length > 50, `expected the built CLI in ${dir}`);
    assert.deepEqual(
      files.filter((f) => readFileSync(join(dir, f), 'utf8').includes('AIDE_TEST_')),
      [],
    );
  }
  // The scan finds the variable where it is: in the test entry point.
  assert.match(readFileSync(TEST_BIN, 'utf8'), /AIDE_TEST_PAUSE_AFTER_WRITES/);
});

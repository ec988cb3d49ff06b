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
    (f) => /\.c?js$/.test(f) && !f.endsWith('.test.js'),
  );
}

test('no compiled file of the shipped CLI names an AIDE_TEST_ variable', () => {
  const bundle = dirname(BIN);
  const src = join(bundle, '..', 'src');
  // The bundle: the bin and the CLIs it loads; dist/src: one module per file.
  for (const [dir, entries, least] of [
    [bundle, [basename(BIN), 'aide-cli.cjs', 'aide-review.cjs'], 3],
    [src, ['bin.js', join('cli', 'main.js')], 50],
  ] as const) {
    const files = compiled(dir);
    for (const entry of entries) assert.ok(files.includes(entry), `expected ${entry} in ${dir}`);
    assert.ok(files.length >= least, `expected the built CLI in ${dir}`);
    assert.deepEqual(
      files.filter((f) => readFileSync(join(dir, f), 'utf8').includes('AIDE_TEST_')),
      [],
    );
  }
  // The scan finds the variable where it is: in the test entry point.
  assert.match(readFileSync(TEST_BIN, 'utf8'), /AIDE_TEST_PAUSE_AFTER_WRITES/);
});

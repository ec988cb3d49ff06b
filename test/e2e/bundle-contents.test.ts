/**
 * What the shipped bundle (scripts/bundle.mjs) carries of its dependencies: zod with its English
 * messages only (the other 47 locales were half of zod's chunk, compiled at every start), the
 * messages themselves still there.
 */
import assert from 'node:assert/strict';
import { isAscii } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { BIN } from '../helpers/cli.js';

function bundleText(): string {
  return readFileSync(join(dirname(BIN), 'aide-cli.cjs'), 'utf8');
}

test("the bundle holds zod's English locale and no other", () => {
  const text = bundleText();
  const locales = [...new Set(text.match(/\/\/ node_modules\/zod\/v4\/locales\/[\w-]+\.js/g) ?? [])];
  assert.deepEqual(locales, ['// node_modules/zod/v4/locales/en.js']);
  // English messages (zod's default, installed by its classic schemas) are in; French ones are not.
  assert.match(text, /Invalid input: expected/);
  assert.doesNotMatch(text, /Entrée invalide/);
});

test('the CLI bundles are pure ASCII (the bin reads them as one-byte strings), their characters escaped', () => {
  assert.equal(isAscii(readFileSync(join(dirname(BIN), 'aide-review.cjs'))), true);
  const bytes = readFileSync(join(dirname(BIN), 'aide-cli.cjs'));
  assert.equal(isAscii(bytes), true);
  // A regular expression literal of aide's own with a non-ASCII character (the ellipsis of a lazy
  // "// …" line), escaped by scripts/bundle.mjs rather than left as UTF-8.
  assert.match(bytes.toString('latin1'), /\\u2026/);
});

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { cacheHeader, compileCommonJs, readCache, writeCache } from './compiled-commonjs.js';

function bundleDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'aide-code-cache-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Module exports of a tiny CommonJS bundle, compiled as the bin compiles the CLI. */
function exportsOf(
  bundle: string,
  cachedData?: Buffer,
): { value: () => string; strict: boolean } & Record<string, unknown> {
  return compileCommonJs(bundle, cachedData, true).exports as { value: () => string; strict: boolean };
}

test('a bundle runs as CommonJS, strict, with its own require, __filename and module.exports', (t) => {
  const dir = bundleDir(t);
  const bundle = join(dir, 'cli.cjs');
  writeFileSync(
    bundle,
    "const path = require('node:path');\nexports.value = () => path.basename(__filename);\nexports.strict = (function () { return this === undefined; })();\n",
  );
  const cli = exportsOf(bundle);
  assert.equal(cli.value(), 'cli.cjs');
  assert.equal(cli.strict, true);
});

test('a bundle that is not ASCII is read as UTF-8: its characters stay as they are', (t) => {
  const dir = bundleDir(t);
  const bundle = join(dir, 'cli.cjs');
  writeFileSync(bundle, "exports.value = () => 'naïve — ✓';\n");
  assert.equal(exportsOf(bundle).value(), 'naïve — ✓');
  writeFileSync(bundle, "exports.value = () => 'na\\u00efve';\n");
  assert.equal(exportsOf(bundle).value(), 'naïve');
});

test('a cache made after a run is taken back by V8, and one of another source is refused', (t) => {
  const dir = bundleDir(t);
  const bundle = join(dir, 'cli.cjs');
  writeFileSync(bundle, "exports.value = () => 'first';\n");
  const first = compileCommonJs(bundle, undefined);
  assert.equal((first.exports as { value: () => string }).value(), 'first');
  const data = first.script.createCachedData();
  assert.equal(compileCommonJs(bundle, data).rejected, false);
  // Another length: V8 itself refuses the cache, and the new source runs.
  writeFileSync(bundle, "exports.value = () => 'second, longer';\n");
  const second = compileCommonJs(bundle, data);
  assert.equal(second.rejected, true);
  assert.equal((second.exports as { value: () => string }).value(), 'second, longer');
});

test("a cache's header names the bundle file it was made from: a rebuilt one of the same length gets another", (t) => {
  const dir = bundleDir(t);
  const bundle = join(dir, 'cli.cjs');
  writeFileSync(bundle, "exports.value = () => 'aaaa';\n");
  const before = cacheHeader(statSync(bundle));
  // Same length, other text, other time: V8 alone (which checks the length) would take the old
  // cache and run 'aaaa'; the header differs, so the bin never offers it.
  writeFileSync(bundle, "exports.value = () => 'bbbb';\n");
  utimesSync(bundle, new Date(), new Date(Date.now() + 5_000));
  assert.notEqual(cacheHeader(statSync(bundle)), before);
  assert.match(before, /^aide code cache 1 \{.*"node":"v\d+/);
  assert.ok(before.endsWith('\n'));
});

test('a cache is written whole under its header, and a folder it cannot be written in is no error', (t) => {
  const dir = bundleDir(t);
  const file = join(dir, 'deep', 'cache.bin');
  writeCache(file, 'header\n', Buffer.from([1, 2, 3]));
  assert.deepEqual([...readFileSync(file)], [...Buffer.from('header\n'), 1, 2, 3]);
  // A file where the folder would be: nothing written, nothing thrown, no temp file left.
  writeFileSync(join(dir, 'blocked'), '');
  writeCache(join(dir, 'blocked', 'cache.bin'), 'header\n', Buffer.from([1]));
  assert.deepEqual(readFileSync(join(dir, 'blocked'), 'utf8'), '');
});

test("a cache is read back only under its own header; another's, a short or a missing one is none", (t) => {
  const dir = bundleDir(t);
  const file = join(dir, 'cache.bin');
  writeCache(file, 'header one\n', Buffer.from([7, 8, 9]));
  assert.deepEqual([...(readCache(file, 'header one\n') ?? [])], [7, 8, 9]);
  assert.equal(readCache(file, 'header two\n'), undefined);
  assert.equal(readCache(file, 'a header longer than the whole file\n'), undefined);
  writeFileSync(file, 'header one\n');
  assert.equal(readCache(file, 'header one\n'), undefined);
  assert.equal(readCache(join(dir, 'missing.bin'), 'header one\n'), undefined);
  assert.equal(readCache(null, 'header one\n'), undefined);
});

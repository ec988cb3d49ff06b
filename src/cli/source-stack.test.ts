import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import { compileCommonJs } from '../infra/code-cache/compiled-commonjs.js';
import { mapStack, withSourceStack } from './source-stack.js';
import { AideError } from '../shared/errors.js';

/** A bundle of two TypeScript files with its linked map, as scripts/bundle.mjs makes them. */
function bundle(
  t: { after: (fn: () => void) => void },
  format: 'esm' | 'cjs' = 'esm',
): { dir: string; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'aide-source-stack-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  writeFileSync(join(dir, 'helper.ts'), 'export function fail(): never {\n  throw new Error("boom");\n}\n');
  writeFileSync(
    join(dir, 'entry.ts'),
    'import { fail } from "./helper.js";\n\nexport function run(): void {\n  const n: number = 1;\n  if (n > 0) fail();\n}\n',
  );
  const out = join(dir, 'out', format === 'esm' ? 'entry.js' : 'entry.cjs');
  buildSync({
    entryPoints: [join(dir, 'entry.ts')],
    outfile: out,
    bundle: true,
    format,
    platform: 'node',
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'silent',
  });
  return { dir, out };
}

test("a bundle's frames name the TypeScript file, line and column; other frames stay as they were", async (t) => {
  const { dir, out } = bundle(t);
  const { run } = (await import(pathToFileURL(out).href)) as { run: () => void };
  let stack = '';
  try {
    run();
  } catch (error) {
    stack = (error as Error).stack ?? '';
  }
  assert.match(stack, /out\/entry\.js:\d+:\d+/, 'the raw stack names the bundle');
  const mapped = mapStack(stack, dir);
  assert.ok(mapped.includes(`${pathToFileURL(join(dir, 'helper.ts')).href}:2:9`), mapped);
  assert.ok(mapped.includes(`${pathToFileURL(join(dir, 'entry.ts')).href}:5:14`), mapped);
  assert.doesNotMatch(mapped, /out\/entry\.js/);
  // A frame of a file with no map beside it (this test's own compiled file has one from tsc, Node's
  // internals have none) keeps its place.
  assert.match(mapped, /node:internal/);
  // Outside the folder it is told to trust (aide's package by default), no map is read.
  assert.equal(mapStack(stack, join(dir, 'elsewhere')), stack);
});

test('the CommonJS bundle, compiled as the bin compiles the CLI, maps the same way', (t) => {
  const { dir, out } = bundle(t, 'cjs');
  const { run } = compileCommonJs(out, undefined, true).exports as { run: () => void };
  let stack = '';
  try {
    run();
  } catch (error) {
    stack = (error as Error).stack ?? '';
  }
  assert.match(stack, /out\/entry\.cjs:\d+:\d+/, 'the raw stack names the bundle');
  const mapped = mapStack(stack, dir);
  assert.ok(mapped.includes(`${pathToFileURL(join(dir, 'helper.ts')).href}:2:9`), mapped);
  assert.ok(mapped.includes(`${pathToFileURL(join(dir, 'entry.ts')).href}:5:14`), mapped);
  assert.doesNotMatch(mapped, /out\/entry\.cjs/);
});

test('a place with no map beside it is kept, and an expected error is left alone', () => {
  const stack = 'Error: x\n    at f (/nowhere/at/all.js:3:7)\n    at node:internal/process/task_queues:95:5';
  assert.equal(mapStack(stack), stack);
  const expected = new AideError('usage', 'bad flag');
  const before = expected.stack;
  assert.equal(withSourceStack(expected), expected);
  assert.equal(expected.stack, before);
  assert.equal(withSourceStack('a string'), 'a string');
});

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { actTools } from '../../core/agent/act-tools.js';
import { MemoryFileSystem } from '../../core/testing/fake-files.js';
import { FakeRunner } from '../../core/testing/fake-runner.js';
import { TypeScriptSyntaxChecker } from './typescript-syntax.js';

describe('the TypeScript syntax checker', () => {
  const checker = new TypeScriptSyntaxChecker();

  test('valid TS, TSX, JS and JSX parse', async () => {
    assert.deepEqual(
      await checker.check('src/a.ts', 'export function f<T>(x: T): T {\n  return x;\n}\n'),
      [],
    );
    assert.deepEqual(await checker.check('src/a.tsx', 'export const A = () => <div>{1}</div>;\n'), []);
    assert.deepEqual(await checker.check('src/a.mjs', 'export const a = async () => await 1;\n'), []);
    assert.deepEqual(await checker.check('src/a.jsx', 'export const A = () => <b />;\n'), []);
  });

  test("a missing brace is reported at its line with the parser's words", async () => {
    const found = await checker.check('src/a.ts', 'export function f() {\n  return 1;\n');
    assert.ok(found !== null && found.length > 0);
    assert.equal(found[0]?.line, 3);
    assert.match(found[0]?.message ?? '', /'}' expected/);
  });

  test('type errors are not syntax errors; type syntax in a .js file is', async () => {
    assert.deepEqual(await checker.check('src/a.ts', 'const x: number = "text";\nundefinedName();\n'), []);
    const js = await checker.check('src/a.js', 'const x: number = 1;\n');
    assert.ok(js !== null && js.length > 0);
    assert.match(js[0]?.message ?? '', /only be used in TypeScript files/);
  });

  test('other languages are not its own, and a parser that will not load knows none', async () => {
    assert.equal(await checker.check('a.py', 'def f(:\n'), null);
    assert.equal(await checker.check('Makefile', 'x'), null);
    const missing = new TypeScriptSyntaxChecker(() => Promise.reject(new Error('not installed')));
    assert.equal(await missing.check('src/a.ts', 'export function f() {'), null);
  });
});

describe('act mode with the TypeScript checker', () => {
  test('an edit that breaks a TS file is refused and the file kept; a broken one stays editable', async () => {
    const fs = new MemoryFileSystem();
    fs.files.set('/scratch/src/f.ts', 'export function f(): number {\n  return 1;\n}\n');
    fs.files.set('/scratch/src/g.ts', 'export function g( {\n');
    const tools = actTools({
      root: '/scratch',
      fs,
      syntax: new TypeScriptSyntaxChecker(),
      protectedPaths: [],
      commands: {
        allowed: [],
        runner: new FakeRunner(),
        userEnv: {},
        envAllow: [],
        timeoutMs: 1000,
        maxLogBytes: 1000,
        tailBytes: 100,
        logFile: () => '/logs/x.log',
      },
    });
    const diff = '<<<<<<< SEARCH\n  return 1;\n}\n=======\n  return (1;\n}\n>>>>>>> REPLACE\n';
    const broken = await tools.run({ tool: 'replace_in_file', input: { path: 'src/f.ts', diff } });
    assert.equal(broken.ok, false);
    assert.match(
      broken.forModel,
      /src\/f\.ts would not parse, and it parsed before:\n {2}line 2, column \d+: '\)' expected/,
    );
    assert.equal(fs.files.get('/scratch/src/f.ts'), 'export function f(): number {\n  return 1;\n}\n');
    const fixed = await tools.run({
      tool: 'write_file',
      input: { path: 'src/g.ts', content: 'export function g( {\n  // still broken\n' },
    });
    assert.equal(fixed.ok, true, fixed.forModel);
  });
});

test('TypeScript through its code cache: the first run writes the cache at exit, the next uses it and parses the same', (t) => {
  const home = mkdtempSync(join(tmpdir(), 'aide-ts-cache-'));
  t.after(() => {
    rmSync(home, { recursive: true, force: true });
  });
  const module = new URL('./typescript-syntax.js', import.meta.url).href;
  const script = `const { cachedTypeScript, TypeScriptSyntaxChecker } = await import(${JSON.stringify(module)});
const checker = new TypeScriptSyntaxChecker(cachedTypeScript({ HOME: ${JSON.stringify(home)} }));
const found = await checker.check('src/a.ts', 'export function f() {\\n  return 1;\\n');
console.log(JSON.stringify(found.map((d) => [d.line, d.message])));`;
  const run = () => {
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    return result.stdout.trim();
  };
  const cache = join(home, '.cache', 'aide', 'typescript-code-cache.bin');
  const first = run();
  assert.match(first, /^\[\[3,"'}' expected\."\]\]$/);
  assert.match(readFileSync(cache).toString('latin1', 0, 40), /^aide code cache 1 \{/);
  const written = statSync(cache).mtimeMs;
  assert.equal(run(), first);
  assert.equal(statSync(cache).mtimeMs, written, 'the second run found the cache it could use');
});

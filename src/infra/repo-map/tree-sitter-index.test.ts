import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../../../test/helpers/sandbox.js';
import type { RepoFile, RepoReader } from '../../core/ports/repo-reader.js';
import { grammarPath } from './languages.js';
import { TreeSitterDefinitionIndex } from './tree-sitter-index.js';

/** A snapshot held in memory; `reads` counts the files read from it. */
function snapshot(contents: Record<string, string>) {
  const encoder = new TextEncoder();
  const files: RepoFile[] = Object.entries(contents)
    .map(([path, text]) => ({
      path,
      bytes: encoder.encode(text).length,
      kind: 'file' as const,
      blob: createHash('sha1').update(text).digest('hex'),
    }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  const counter = { reads: 0 };
  const reader: RepoReader = {
    id: 'test',
    listFiles: () => Promise.resolve(files),
    readFile: (path) => {
      counter.reads++;
      const text = contents[path];
      return Promise.resolve(
        text === undefined ? { ok: false, reason: 'missing' } : { ok: true, bytes: encoder.encode(text) },
      );
    },
    search: () => Promise.resolve({ ok: true, hits: [], truncated: false }),
  };
  return { files, reader, counter };
}

async function definitionsOf(contents: Record<string, string>, index = new TreeSitterDefinitionIndex()) {
  const { files, reader } = snapshot(contents);
  return Object.fromEntries(await index.definitions(files, reader));
}

test('JavaScript, ESM and CommonJS: functions with parameters, classes with methods, exports', async () => {
  const esm = [
    "import fs from 'node:fs';",
    'export function formatReport(inventory, { verbose = false } = {}) {}',
    "export const VERSION = '1.0';",
    'const helper = (a, b) => a + b;',
    'let notExported = 3;',
    'export default function (options) {}',
    'export class Inventory extends Base {',
    '  constructor() { super(); }',
    '  add(item) {}',
    '  get count() { return 0; }',
    '}',
    'export { helper };',
  ].join('\n');
  const cjs = [
    'function load(path) {}',
    'const save = async (path, data) => {};',
    'module.exports = { load, save, version: 1 };',
    'exports.parse = function parse(text) {};',
    'module.exports.Reader = class Reader { read() {} };',
  ].join('\n');
  assert.deepEqual(await definitionsOf({ 'src/esm.js': esm, 'src/cjs.cjs': cjs }), {
    'src/esm.js': [
      'function formatReport(inventory, { verbose = false } = {})',
      'const VERSION',
      'function helper(a, b)',
      'export default function(options)',
      'class Inventory: constructor, add, count',
    ],
    'src/cjs.cjs': [
      'function load(path)',
      'function save(path, data)',
      'module.exports: load, save, version',
      'function parse(text)',
      'class Reader: read',
    ],
  });
});

test('TypeScript and TSX: generics, interfaces with members, types, enums, abstract classes', async () => {
  const ts = [
    'export interface Store<T> { get(key: string): T; size: number }',
    'export type Id<T extends string = string> = T & { brand: true };',
    'export enum Color { Red, Green }',
    'export abstract class Repo<T> implements Store<T> {',
    '  abstract get(key: string): T;',
    '  size = 0;',
    '  find<K extends keyof T>(key: K): T[K] | undefined { return undefined; }',
    '}',
    'export function identity<T>(value: T): T { return value; }',
    'export const make = <T,>(x: T): T[] => [x];',
  ].join('\n');
  const tsx = 'export function Button({ label }: { label: string }) { return <b>{label}</b>; }\n';
  assert.deepEqual(await definitionsOf({ 'a.ts': ts, 'b.tsx': tsx }), {
    'a.ts': [
      'interface Store<T>: get, size',
      'type Id<T extends string = string>',
      'enum Color',
      'class Repo<T>: get, find',
      'function identity<T>(value: T)',
      'function make<T,>(x: T)',
    ],
    'b.tsx': ['function Button({ label }: { label: string })'],
  });
});

test('Python: classes with methods, decorated and async functions, tab indentation', async () => {
  const py = [
    'import os',
    'class Inventory(Base):',
    '\tdef __init__(self, items):',
    '\t\tself.items = items',
    '\t@property',
    '\tdef count(self):',
    '\t\treturn len(self.items)',
    '@decorator(arg=1)',
    'def format_report(inventory, width: int = 80) -> str:',
    '\treturn ""',
    'async def main():',
    '\tpass',
  ].join('\n');
  assert.deepEqual(await definitionsOf({ 'inv.py': py }), {
    'inv.py': [
      'class Inventory(Base): __init__, count',
      'def format_report(inventory, width: int = 80)',
      'async def main()',
    ],
  });
});

test('Go, Rust, Java, Ruby and C/C++ read their top-level definitions', async () => {
  const found = await definitionsOf({
    'a.go':
      'package a\ntype Inventory struct{}\nfunc (i *Inventory) Add(item string) {}\nfunc New(n int) *Inventory { return nil }\n',
    'b.rs':
      'pub struct Stack<T> { v: Vec<T> }\nimpl<T> Stack<T> { pub fn push(&mut self, x: T) {} }\nfn main() {}\n',
    'C.java': 'class Inventory { Inventory() {} void add(String item) {} }\n',
    'd.rb': 'module Shop\n  class Cart\n    def add(item); end\n  end\nend\n',
    'e.c': 'static int add(int a, int b) { return a + b; }\nstruct point { int x; };\n',
    'f.h':
      '#ifndef F_H\n#define F_H\nnamespace shop { class Cart { public: void add(int item); }; }\n#endif\n',
  });
  assert.deepEqual(found, {
    'a.go': ['type Inventory struct: Add', 'func New(n int)'],
    'b.rs': ['struct Stack<T>', 'impl Stack<T>: push', 'fn main()'],
    'C.java': ['class Inventory: Inventory, add'],
    'd.rb': ['class Shop::Cart: add'],
    'e.c': ['int add(int a, int b)', 'struct point'],
    'f.h': ['class shop::Cart: add'],
  });
});

test('a syntax error costs only the broken definition; a file in a language without a grammar is left out', async () => {
  const broken = ['export function good(a) {}', 'export function broken(a {', '  return', ''].join('\n');
  const index = new TreeSitterDefinitionIndex();
  const found = await definitionsOf(
    { 'bad.ts': broken, 'notes.md': '# notes', 'Main.kt': 'fun main() {}' },
    index,
  );
  assert.deepEqual(found, { 'bad.ts': ['function good(a)'] });
  assert.equal(index.stats.parsed, 1);
});

test('a grammar that does not load leaves its files out; the others are still read', async () => {
  const index = new TreeSitterDefinitionIndex({
    grammarFile: (grammar) =>
      grammar === 'python' ? '/nonexistent/tree-sitter-python.wasm' : grammarPath(grammar),
  });
  const contents = { 'a.py': 'def f(x):\n  pass\n', 'b.js': 'function g(y) {}\n' };
  assert.deepEqual(await definitionsOf(contents, index), { 'b.js': ['function g(y)'] });
  assert.deepEqual(index.stats, { parsed: 1, cached: 0, skipped: 1 });
});

test('a file over the size cap is not read; a minified or generated one is read but not parsed', async () => {
  const minified = `function a(){${'x=1;'.repeat(2000)}}\n`;
  const generated = '// Code generated by protoc. DO NOT EDIT.\n\npackage pb\nfunc Marshal() {}\n';
  const { files, reader, counter } = snapshot({
    'big.js': 'function f() {}\n'.repeat(20_000),
    'app.min.js': minified,
    'pb.go': generated,
    'ok.js': 'function ok() {}\n',
  });
  const index = new TreeSitterDefinitionIndex({ maxFileBytes: 256 * 1024 });
  const found = await index.definitions(files, reader);
  assert.deepEqual(Object.fromEntries(found), { 'ok.js': ['function ok()'] });
  assert.equal(counter.reads, 3, 'big.js (320 KB) is never read');
  assert.deepEqual(index.stats, { parsed: 1, cached: 0, skipped: 1 });
});

test('the cache: a second run parses only the files whose blob changed', async (t) => {
  const cachePath = join(tempDir(t), 'state', 'cache', 'definitions.json');
  const contents = { 'a.ts': 'export function a(x: number) {}\n', 'b.py': 'class B:\n  def m(self): pass\n' };
  const first = new TreeSitterDefinitionIndex({ cachePath });
  const expected = { 'a.ts': ['function a(x: number)'], 'b.py': ['class B: m'] };
  assert.deepEqual(await definitionsOf(contents, first), expected);
  assert.equal(first.stats.parsed, 2);

  const second = new TreeSitterDefinitionIndex({ cachePath });
  assert.deepEqual(await definitionsOf(contents, second), expected);
  assert.deepEqual(second.stats, { parsed: 0, cached: 2, skipped: 0 });

  const third = new TreeSitterDefinitionIndex({ cachePath });
  // A changed file parsed, the other cached: the answer still comes in the files' order.
  const changed = { ...contents, 'a.ts': 'export function a(x: number, y: number) {}\n' };
  const answer = await definitionsOf(changed, third);
  assert.deepEqual(Object.keys(answer), ['a.ts', 'b.py']);
  assert.deepEqual(answer['a.ts'], ['function a(x: number, y: number)']);
  assert.deepEqual(third.stats, { parsed: 1, cached: 1, skipped: 0 });
});

test('the cache keeps at most its cap, this run first', async (t) => {
  const cachePath = join(tempDir(t), 'definitions.json');
  await definitionsOf({ 'old.js': 'function old() {}\n' }, new TreeSitterDefinitionIndex({ cachePath }));
  const contents = { 'a.js': 'function a() {}\n', 'b.js': 'function b() {}\n' };
  await definitionsOf(contents, new TreeSitterDefinitionIndex({ cachePath, maxCacheEntries: 2 }));
  const stored = JSON.parse(readFileSync(cachePath, 'utf8')) as { entries: Record<string, string[]> };
  assert.deepEqual(Object.values(stored.entries).sort(), [['function a()'], ['function b()']]);
});

test('a corrupt cache is ignored and rebuilt', async (t) => {
  const cachePath = join(tempDir(t), 'definitions.json');
  writeFileSync(cachePath, '{"version": 1, "entries": {"javascript:');
  const index = new TreeSitterDefinitionIndex({ cachePath });
  assert.deepEqual(await definitionsOf({ 'a.js': 'function a(b) {}\n' }, index), {
    'a.js': ['function a(b)'],
  });
  assert.equal(index.stats.parsed, 1);
  const again = new TreeSitterDefinitionIndex({ cachePath });
  await definitionsOf({ 'a.js': 'function a(b) {}\n' }, again);
  assert.equal(again.stats.cached, 1, 'the rebuilt cache was written');
});

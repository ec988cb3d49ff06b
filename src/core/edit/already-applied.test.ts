import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseResponse } from './parse-response.js';
import { planEdits, type FileInput } from './plan-edits.js';
import { parseText, renderText } from './text-file.js';

/** Plans a reply against files; each block's action or failure kind, and the files it changes. */
function plan(reply: string, files: Record<string, string | null>) {
  const inputs = new Map<string, FileInput>(
    Object.entries(files).map(([p, t]) => [
      p,
      t === null ? { state: 'missing' } : { state: 'text', file: parseText(t) },
    ]),
  );
  const result = planEdits(parseResponse(reply).blocks, inputs);
  return {
    ok: result.ok,
    outcomes: result.outcomes.map((o) => (o.ok ? o.action : `failed: ${o.failure.kind}`)),
    changed: Object.fromEntries(
      result.changes.map((c) => [c.path, c.after === null ? null : renderText(c.after)]),
    ),
  };
}

const block = (path: string, search: string, replace: string) =>
  `${path}\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n`;
const ADD = block(
  'a.js',
  'export function add(a, b) {\n  return a + b;\n}',
  'export function add(a, b) {\n  return a + b;\n}\n\nexport function sub(a, b) {\n  return a - b;\n}',
);
const BEFORE = 'export function add(a, b) {\n  return a + b;\n}\n';
const AFTER =
  'export function add(a, b) {\n  return a + b;\n}\n\nexport function sub(a, b) {\n  return a - b;\n}\n';

describe('an edit already in the file', () => {
  test('applies the first time, is already applied the second, and changes nothing', () => {
    assert.deepEqual(plan(ADD, { 'a.js': BEFORE }), {
      ok: true,
      outcomes: ['edited'],
      changed: { 'a.js': AFTER },
    });
    assert.deepEqual(plan(ADD, { 'a.js': AFTER }), { ok: true, outcomes: ['already-applied'], changed: {} });
  });

  test('a create whose file already holds its text', () => {
    const create = block('b.js', '', 'export const b = 1;');
    assert.deepEqual(plan(create, { 'b.js': 'export const b = 1;\n' }), {
      ok: true,
      outcomes: ['already-applied'],
      changed: {},
    });
    assert.deepEqual(plan(create, { 'b.js': 'export const b = 2;\n' }).outcomes, ['failed: blank-search']);
  });

  const CHANGE = block('a.js', '  return a + b;', '  return sum(a, b);');

  test('an edit that replaces its SEARCH: already applied when the REPLACE is there and the SEARCH is not', () => {
    assert.deepEqual(plan(CHANGE, { 'a.js': BEFORE.replace('a + b;', 'sum(a, b);') }), {
      ok: true,
      outcomes: ['already-applied'],
      changed: {},
    });
  });

  test('a REPLACE found twice is not evidence: the block fails', () => {
    const twice = 'function f() {\n  return sum(a, b);\n}\nfunction g() {\n  return sum(a, b);\n}\n';
    assert.deepEqual(plan(CHANGE, { 'a.js': twice }).outcomes, ['failed: not-found']);
  });

  test('a REPLACE found only by fuzzy matching is not evidence', () => {
    assert.deepEqual(plan(CHANGE, { 'a.js': BEFORE.replace('a + b;', 'sum(a, c);') }).outcomes, [
      'failed: not-found',
    ]);
  });

  test('a tiny REPLACE is not evidence', () => {
    assert.deepEqual(plan(block('a.js', 'return a + b;', '}'), { 'a.js': '}\n' }).outcomes, [
      'failed: not-found',
    ]);
  });

  test('a deletion whose SEARCH is gone counts only when the rest of the reply is already applied', () => {
    const deletion = block('a.js', '// TODO: remove this debug helper\nfunction debug() {}', '');
    assert.deepEqual(
      plan(deletion, { 'a.js': AFTER }).outcomes,
      ['failed: not-found'],
      'alone it may be a SEARCH the model got wrong',
    );
    assert.deepEqual(plan(`${ADD}\n${deletion}`, { 'a.js': AFTER }), {
      ok: true,
      outcomes: ['already-applied', 'already-applied'],
      changed: {},
    });
    const other = block('a.js', 'nothing like this', 'export const x = 1;');
    assert.deepEqual(plan(`${other}\n${deletion}`, { 'a.js': AFTER }).outcomes, [
      'failed: not-found',
      'failed: not-found',
    ]);
  });

  test('a REPLACE that only drops SEARCH lines is a deletion: found alone, it proves nothing', () => {
    const drop = block(
      'a.js',
      'export function add(a, b) {\n  console.debug(a, b);\n  return a + b;',
      'export function add(a, b) {\n  return a + b;',
    );
    assert.deepEqual(plan(drop, { 'a.js': BEFORE }).outcomes, ['failed: not-found']);
    assert.deepEqual(
      plan(`${drop}\n${CHANGE.replace('a.js', 'b.js')}`, {
        'a.js': BEFORE,
        'b.js': 'return sum(a, b);\n'.replace(/^/, '  '),
      }).outcomes,
      ['already-applied', 'already-applied'],
    );
  });

  test('blocks that build on each other are already applied together', () => {
    const second = block(
      'a.js',
      'export function sub(a, b) {\n  return a - b;\n}',
      'export function sub(a, b) {\n  return a - b;\n}\n\nexport const mul = (a, b) => a * b;',
    );
    const done = `${AFTER}\nexport const mul = (a, b) => a * b;\n`;
    assert.deepEqual(plan(`${ADD}\n${second}`, { 'a.js': BEFORE }).changed, { 'a.js': done });
    assert.deepEqual(plan(`${ADD}\n${second}`, { 'a.js': done }), {
      ok: true,
      outcomes: ['already-applied', 'already-applied'],
      changed: {},
    });
  });

  test('half applied: the block already there is reported so, the other is written', () => {
    const second = block('a.js', 'export function add(a, b) {', '/** Adds. */\nexport function add(a, b) {');
    const result = plan(`${ADD}\n${second}`, { 'a.js': AFTER });
    assert.deepEqual(result.outcomes, ['already-applied', 'edited']);
    assert.deepEqual(result.changed, { 'a.js': `/** Adds. */\n${AFTER}` });
  });
});

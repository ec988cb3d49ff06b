import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { jsonDiagnostics, syntaxBreak } from './syntax-guard.js';

const change = (path: string, before: string | null, after: string) =>
  syntaxBreak({ path, before, after }, undefined);

describe('the JSON syntax guard', () => {
  test('a strict JSON file must stay strict: a comment in package.json breaks it', async () => {
    const broken = await change('package.json', '{"a": 1}\n', '{\n  // why\n  "a": 1\n}\n');
    assert.ok(broken !== null);
    assert.equal(broken[0]?.line, 2);
  });

  test('files read as JSONC by their tools may hold comments and trailing commas', async () => {
    for (const path of [
      'tsconfig.json',
      'tsconfig.build.json',
      'jsconfig.json',
      '.vscode/settings.json',
      'a.jsonc',
    ])
      assert.equal(await change(path, '{}\n', '{\n  // ok\n  "a": 1,\n}\n'), null, path);
    assert.ok((await change('tsconfig.json', '{}\n', '{\n  "a": \n}\n')) !== null);
  });

  test('a JSON file that was JSONC before is held to JSONC', async () => {
    const before = '{\n  // settings\n  "a": 1\n}\n';
    assert.equal(await change('config/app.json', before, before.replace('1', '2')), null);
    assert.ok((await change('config/app.json', before, before.replace('1', '2,,'))) !== null);
  });

  test('a file already broken stays editable; a new file must parse', async () => {
    assert.equal(await change('a.json', '{"a": ', '{"a": 1'), null);
    assert.ok((await change('new.json', null, '{"a": ')) !== null);
    assert.equal(await change('new.json', null, '{"a": 1}\n'), null);
  });

  test('a byte-order mark is not a syntax error; an empty file is', () => {
    assert.deepEqual(jsonDiagnostics('\uFEFF{"a": 1}', false), []);
    assert.ok(jsonDiagnostics('', false).length > 0);
  });

  test('other files are left to the checker, which is asked about the file before too', async () => {
    assert.equal(await change('a.ts', 'x', 'y {'), null, 'no checker: nothing checked');
    const asked: string[] = [];
    const checker = {
      check: (_path: string, text: string) => {
        asked.push(text);
        return Promise.resolve(text.includes('{') ? [{ line: 1, column: 1, message: 'broken' }] : []);
      },
    };
    assert.deepEqual(await syntaxBreak({ path: 'a.ts', before: 'ok', after: 'bad {' }, checker), [
      { line: 1, column: 1, message: 'broken' },
    ]);
    assert.deepEqual(asked, ['bad {', 'ok']);
    assert.equal(await syntaxBreak({ path: 'a.ts', before: 'was {', after: 'still {' }, checker), null);
  });
});

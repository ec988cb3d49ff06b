/**
 * Regressions: engine behaviour the property tests found wrong, each pinned by the input that
 * showed it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseResponse } from './parse-response.js';
import { planEdits } from './plan-edits.js';
import { parseText, renderText } from './text-file.js';

function apply(response: string, path: string, text: string): string | { failed: string[] } {
  const parsed = parseResponse(response);
  const plan = planEdits(parsed.blocks, new Map([[path, { state: 'text', file: parseText(text) } as const]]));
  const failed = [
    ...parsed.problems.map((p) => p.message),
    ...plan.outcomes.flatMap((o) => (o.ok ? [] : [o.failure.kind])),
  ];
  if (failed.length > 0 || parsed.blocks.length === 0)
    return { failed: failed.length > 0 ? failed : ['no blocks'] };
  const change = plan.changes[0];
  return change?.after ? renderText(change.after) : text;
}

const block = (search: string, replace: string) =>
  `a.ts\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n`;

test('an exact SEARCH that occurs twice edits the first occurrence in an LF file', () => {
  assert.equal(apply(block('count++;', 'X'), 'a.ts', 'a\ncount++;\nb\ncount++;'), 'a\nX\nb\ncount++;');
});

test('a lone } that occurs twice is ambiguous, not its first occurrence', () => {
  assert.deepEqual(apply(block('}', 'X'), 'a.ts', 'a\n}\nb\n}'), { failed: ['ambiguous'] });
});

test('an exact SEARCH that occurs twice edits the first occurrence in a CRLF file without a final newline', () => {
  assert.equal(
    apply(block('count++;', 'X'), 'a.ts', 'a\r\ncount++;\r\nb\r\ncount++;'),
    'a\r\nX\r\nb\r\ncount++;',
  );
});

const appendFunction = [
  '--- a/a.ts',
  '+++ b/a.ts',
  '@@ -1,3 +1,7 @@',
  ' function a() {',
  '   return 1;',
  ' }',
  '+',
  '+function b() {',
  '+  return 2;',
  '+}',
].join('\n');

test('an unfenced diff at the end of a response appends a function after a blank line', () => {
  assert.equal(
    apply(`${appendFunction}\n`, 'a.ts', 'function a() {\n  return 1;\n}\n'),
    'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n',
  );
});

test('an unfenced diff followed by a blank line and prose appends a function after a blank line', () => {
  const result = apply(`${appendFunction}\n\nThat adds b.\n`, 'a.ts', 'function a() {\n  return 1;\n}\n');
  assert.equal(result, 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n');
});

test('a diff hunk whose context occurs twice does not edit the place its line numbers do not name', () => {
  const file = 'function a() {\n  x();\n  y();\n}\nfunction b() {\n  x();\n  y();\n}\n';
  const diff = '```diff\n--- a/a.ts\n+++ b/a.ts\n@@ -6,3 +6,3 @@\n   x();\n-  y();\n+  z();\n }\n```\n';
  const result = apply(diff, 'a.ts', file);
  assert.notEqual(
    result,
    'function a() {\n  x();\n  z();\n}\nfunction b() {\n  x();\n  y();\n}\n',
    'edited a() instead of b()',
  );
});

test("jsdiff's own output (a ===== rule before the headers) in an untagged fence is read as a diff", () => {
  const diff =
    '```\n===================================================================\n--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-old\n+new\n```\n';
  assert.equal(apply(diff, 'a.ts', 'old\n'), 'new\n');
});

test('a diff that removes a "-- " line and adds a "++ " line is not read as a new file header', () => {
  const diff =
    '```diff\n--- a/q.sql\n+++ b/q.sql\n@@ -1,3 +1,3 @@\n select 1;\n--- old note\n+++ new note\n select 2;\n```\n';
  assert.equal(
    apply(diff, 'q.sql', 'select 1;\n-- old note\nselect 2;\n'),
    'select 1;\n++ new note\nselect 2;\n',
  );
});

test('a diff that deletes a non-empty file with no hunk (no evidence of its content) is refused', () => {
  const parsed = parseResponse('--- a/a.ts\n+++ /dev/null\n');
  const plan = planEdits(
    parsed.blocks,
    new Map([['a.ts', { state: 'text', file: parseText('export const keep = 1;\n') } as const]]),
  );
  assert.deepEqual(plan.changes, [], 'a.ts would be deleted');
});

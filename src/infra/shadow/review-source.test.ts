import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addedLines } from './review-source.js';

test('added lines are numbered as in the new file, per path, quoted paths decoded; deletions add nothing', () => {
  const patch = [
    'diff --git a/a.txt b/a.txt',
    '--- a/a.txt',
    '+++ b/a.txt',
    '@@ -1 +1,2 @@',
    '-old',
    '+new',
    '+second\r',
    '@@ -9,0 +10,2 @@',
    '+tenth',
    '+++ an added "++ " line',
    'diff --git "a/caf\\303\\251 x.txt" "b/caf\\303\\251 x.txt"',
    'new file mode 100644',
    '--- /dev/null',
    '+++ "b/caf\\303\\251 x.txt"',
    '@@ -0,0 +1 @@',
    '++++ plus line',
    'diff --git a/gone.txt b/gone.txt',
    'deleted file mode 100644',
    '--- a/gone.txt',
    '+++ /dev/null',
    '@@ -1 +0,0 @@',
    '-bye',
    '',
  ].join('\n');
  const lines = addedLines(patch);
  assert.deepEqual(lines.get('a.txt'), [
    { line: 1, text: 'new' },
    { line: 2, text: 'second' },
    { line: 10, text: 'tenth' },
    { line: 11, text: '++ an added "++ " line' },
  ]);
  assert.deepEqual(lines.get('café x.txt'), [{ line: 1, text: '+++ plus line' }]);
  assert.equal(lines.has('gone.txt'), false);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planSlug, readTask } from './task.js';

test('the title is the first # heading; files come from Files:, a ## Files list and backticks', () => {
  const task = readTask(
    [
      '# Add a remove command',
      '',
      'Like `add` in `src/inventory.js`, see also `./src/format.js`.',
      'Files: src/cli.js, test/cli.test.js',
      '',
      '## Files',
      '- README.md',
      '- `docs/usage.md`',
      '',
      '```js',
      'const x = `not/a/path.js`;',
      '```',
    ].join('\n'),
    'task.md',
  );
  assert.equal(task.title, 'Add a remove command');
  assert.deepEqual(task.focus, [
    'src/inventory.js',
    'src/format.js',
    'src/cli.js',
    'test/cli.test.js',
    'README.md',
    'docs/usage.md',
  ]);
});

test('paths that climb out, absolute paths and URLs are not focus files', () => {
  const task = readTask('Fix `../secret.txt`, `/etc/passwd` and `https://example.com/a.js`.', 't.md');
  assert.deepEqual(task.focus, []);
});

test('without a heading the first line is the title; an empty task is named after its file', () => {
  assert.equal(readTask('make the report sorted\nmore text', 'x.md').title, 'make the report sorted');
  assert.equal(readTask('\uFEFF\n\n', 'fix-login_page.md').title, 'fix login page');
});

test('a slug is lower-case ASCII with dashes', () => {
  assert.equal(planSlug('Add a `remove` command: Café edition!'), 'add-a-remove-command-cafe-edition');
  assert.equal(planSlug('!!!'), 'plan');
  assert.ok(planSlug('x'.repeat(100)).length <= 60);
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseResponse } from './parse-response.js';

const block = (search: string, replace: string, marker = 7) =>
  `${'<'.repeat(marker)} SEARCH\n${search}\n${'='.repeat(marker)}\n${replace}\n${'>'.repeat(marker)} REPLACE`;

function only(text: string) {
  const parsed = parseResponse(text);
  assert.deepEqual(parsed.problems, []);
  assert.equal(parsed.blocks.length, 1, 'exactly one block');
  const first = parsed.blocks[0];
  assert.ok(first);
  return first;
}

describe('paths of SEARCH/REPLACE blocks', () => {
  const cases: Array<[string, string]> = [
    ['plain line before the fence', 'src/app.ts\n```ts\n'],
    ['bold', '**src/app.ts**\n```ts\n'],
    ['backticks with a trailing colon', '`src/app.ts`:\n```ts\n'],
    ['quoted', '"src/app.ts"\n```\n'],
    ['Windows backslashes', 'src\\app.ts\n```\n'],
    ['a heading with a label', '### File: src/app.ts\n```\n'],
    ['the fence info string', '```src/app.ts\n'],
    ['language then path in the info string', '```ts src/app.ts\n'],
    ['lang:path info string', '```ts:src/app.ts\n'],
    ['first line inside the fence', '```ts\nsrc/app.ts\n'],
    ['no fence, line before the marker', 'src/app.ts\n'],
    ['a leading ./', './src/app.ts\n```\n'],
  ];
  for (const [name, prefix] of cases) {
    test(name, () => {
      const parsed = only(`Some prose.\n\n${prefix}${block('a', 'b')}\n\`\`\`\n`);
      assert.equal(parsed.path, 'src/app.ts');
      assert.equal(parsed.pathFrom, 'explicit');
    });
  }

  test('a prose line is not a path', () => {
    const parsed = parseResponse(`Here is the fix for the app:\n\`\`\`ts\n${block('a', 'b')}\n\`\`\`\n`);
    assert.equal(parsed.blocks.length, 0);
    assert.equal(parsed.problems.length, 1);
    assert.match(parsed.problems[0]?.message ?? '', /does not say which file/);
  });

  test('a sentence ending in a file name is not a path', () => {
    const parsed = parseResponse(`Update the file config.json.\n\`\`\`\n${block('a', 'b')}\n\`\`\`\n`);
    assert.equal(parsed.blocks.length, 0);
  });

  test('a block without a path reuses the previous one', () => {
    const parsed = parseResponse(
      `a.py\n\`\`\`python\n${block('x', 'y')}\n\`\`\`\n\nAnd then:\n\n\`\`\`python\n${block('p', 'q')}\n\`\`\`\n`,
    );
    assert.deepEqual(
      parsed.blocks.map((b) => [b.path, b.pathFrom]),
      [
        ['a.py', 'explicit'],
        ['a.py', 'previous'],
      ],
    );
  });

  test('two blocks in one fence, the second under its own path line', () => {
    const parsed = parseResponse(`\`\`\`\na.py\n${block('x', 'y')}\nb.py\n${block('p', 'q')}\n\`\`\`\n`);
    assert.deepEqual(
      parsed.blocks.map((b) => b.path),
      ['a.py', 'b.py'],
    );
  });

  test('Makefile and dotfiles are paths; a language tag is not', () => {
    assert.equal(only(`Makefile\n\`\`\`make\n${block('a', 'b')}\n\`\`\``).path, 'Makefile');
    assert.equal(only(`.env.example\n\`\`\`\n${block('a', 'b')}\n\`\`\``).path, '.env.example');
    assert.equal(only(`x.go\n\`\`\`go\n${block('a', 'b')}\n\`\`\``).path, 'x.go');
  });
});

describe('markers and content', () => {
  for (const marker of [5, 7, 9]) {
    test(`markers of ${marker} characters`, () => {
      const parsed = only(`a.txt\n${block('old', 'new', marker)}`);
      assert.deepEqual(parsed.variants, [{ search: ['old'], replace: ['new'] }]);
    });
  }

  test('markers with trailing spaces and tildes fences', () => {
    const parsed = only('a.txt\n~~~~\n<<<<<<< SEARCH   \nold\n=======  \nnew\n>>>>>>> REPLACE  \n~~~~\n');
    assert.deepEqual(parsed.variants, [{ search: ['old'], replace: ['new'] }]);
  });

  test('a setext heading underline in REPLACE does not cut the block short', () => {
    const parsed = only(`README.md\n${block('Title', 'Title\n=======\n\nMore text')}`);
    assert.deepEqual(
      parsed.variants.map((v) => v.replace),
      [
        ['Title', '=======', '', 'More text'],
        ['', 'More text'],
      ],
    );
    assert.deepEqual(parsed.variants[0]?.search, ['Title']);
  });

  test('a fence inside the content does not end the block', () => {
    const parsed = only(
      `README.md\n\`\`\`\`markdown\n${block('Install:', 'Install:\n```sh\nnpm ci\n```\nDone.')}\n\`\`\`\`\n`,
    );
    assert.deepEqual(parsed.variants[0]?.replace, ['Install:', '```sh', 'npm ci', '```', 'Done.']);
  });

  test('an empty SEARCH is kept empty (file creation)', () => {
    const parsed = only('new/file.ts\n<<<<<<< SEARCH\n=======\nexport {};\n>>>>>>> REPLACE\n');
    assert.deepEqual(parsed.variants, [{ search: [], replace: ['export {};'] }]);
  });

  test('CRLF responses parse like LF ones', () => {
    const parsed = only('a.txt\r\n<<<<<<< SEARCH\r\nold\r\n=======\r\nnew\r\n>>>>>>> REPLACE\r\n');
    assert.deepEqual(parsed.variants, [{ search: ['old'], replace: ['new'] }]);
  });

  test('a block that never ends is a problem, not an edit', () => {
    const parsed = parseResponse('a.txt\n<<<<<<< SEARCH\nold\n=======\nnew\n');
    assert.equal(parsed.blocks.length, 0);
    assert.match(parsed.problems[0]?.message ?? '', /never ends/);
  });

  test('a block missing its closing marker before the next block is a problem', () => {
    const parsed = parseResponse(`a.txt\n<<<<<<< SEARCH\nold\n=======\nnew\n\nb.txt\n${block('x', 'y')}`);
    assert.equal(parsed.problems.length, 1);
    assert.match(parsed.problems[0]?.message ?? '', /no closing REPLACE marker/);
  });

  test('a block without ======= is a problem', () => {
    const parsed = parseResponse('a.txt\n<<<<<<< SEARCH\nold\n>>>>>>> REPLACE\n');
    assert.match(parsed.problems[0]?.message ?? '', /no =======/);
  });

  test('other code blocks are ignored', () => {
    const parsed = parseResponse('Run this:\n```sh\nnpm test\n```\nand look at\n```ts\nconst x = 1;\n```\n');
    assert.deepEqual(parsed, { blocks: [], problems: [] });
  });

  test('block numbers and response lines are recorded', () => {
    const parsed = parseResponse(`intro\n\na.txt\n${block('1', '2')}\n\nb.txt\n${block('3', '4')}`);
    assert.deepEqual(
      parsed.blocks.map((b) => [b.index, b.line]),
      [
        [1, 4],
        [2, 11],
      ],
    );
  });
});

describe('unified diffs', () => {
  test('a fenced git diff with several hunks', () => {
    const text = [
      '```diff',
      'diff --git a/src/a.py b/src/a.py',
      'index 123..456 100644',
      '--- a/src/a.py',
      '+++ b/src/a.py',
      '@@ -1,3 +1,3 @@',
      ' def f():',
      '-    return 1',
      '+    return 2',
      '@@ -10,2 +10,2 @@ def g():',
      ' def g():',
      '-    pass',
      '+    return 3',
      '```',
    ].join('\n');
    const parsed = parseResponse(text);
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(
      parsed.blocks.map((b) => [b.path, b.format, b.variants[0]]),
      [
        ['src/a.py', 'diff', { search: ['def f():', '    return 1'], replace: ['def f():', '    return 2'] }],
        ['src/a.py', 'diff', { search: ['def g():', '    pass'], replace: ['def g():', '    return 3'] }],
      ],
    );
  });

  test('hunks without numbers and a path before the fence', () => {
    const parsed = parseResponse('`lib/x.js`\n```patch\n@@ @@\n a\n-b\n+c\n```\n');
    assert.deepEqual(
      parsed.blocks.map((b) => [b.path, b.variants[0]]),
      [['lib/x.js', { search: ['a', 'b'], replace: ['a', 'c'] }]],
    );
  });

  test('a context line whose leading space was dropped is still context', () => {
    const parsed = parseResponse(
      '```diff\n--- a/x.txt\n+++ b/x.txt\n@@ -1,2 +1,2 @@\nfirst\n-second\n+2nd\n```\n',
    );
    assert.deepEqual(parsed.blocks[0]?.variants[0], {
      search: ['first', 'second'],
      replace: ['first', '2nd'],
    });
  });

  test('new and deleted files', () => {
    const text =
      '```diff\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone\n```\n';
    const parsed = parseResponse(text);
    assert.deepEqual(
      parsed.blocks.map((b) => [b.path, b.op, b.variants[0]]),
      [
        ['new.txt', 'edit', { search: [], replace: ['one', 'two'] }],
        ['old.txt', 'delete', { search: ['gone'], replace: [] }],
      ],
    );
  });

  test('raw unfenced git diff output', () => {
    const text =
      'diff --git a/a.txt b/a.txt\nindex 1..2 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+y\n';
    const parsed = parseResponse(text);
    assert.deepEqual(
      parsed.blocks.map((b) => [b.path, b.variants[0]]),
      [['a.txt', { search: ['x'], replace: ['y'] }]],
    );
  });

  test('a hunk that only adds lines cannot be placed by content', () => {
    const parsed = parseResponse('```diff\n--- a/a.txt\n+++ b/a.txt\n@@ -5,0 +6,1 @@\n+new\n```\n');
    assert.equal(parsed.blocks.length, 0);
    assert.match(parsed.problems[0]?.message ?? '', /no context/);
  });

  test('an unclosed diff fence is a truncation problem', () => {
    const parsed = parseResponse('```diff\n--- a/a.txt\n+++ b/a.txt\n@@ @@\n-x\n+y\n');
    assert.match(parsed.problems[0]?.message ?? '', /not closed/);
  });
});

describe('paths models give in other ways (issue 14)', () => {
  test('a file name in its own small fence just before the edit', () => {
    assert.equal(
      only(`\`\`\`\nsrc/app.ts\n\`\`\`\n\`\`\`ts\n${block('a', 'b')}\n\`\`\`\n`).path,
      'src/app.ts',
    );
    assert.equal(only(`\`\`\`text\nsrc/app.ts\n\`\`\`\n\n${block('a', 'b')}\n`).path, 'src/app.ts');
  });

  test('a small fence with code in it names no file', () => {
    const parsed = parseResponse(
      `\`\`\`\nsrc/app.ts\nnpm test\n\`\`\`\n\`\`\`ts\n${block('a', 'b')}\n\`\`\`\n`,
    );
    assert.equal(parsed.blocks.length, 0);
    assert.match(parsed.problems[0]?.message ?? '', /does not say which file/);
  });

  test("aider's <source>python fence", () => {
    assert.equal(only(`src/app.py\n<source>python\n${block('a', 'b')}\n</source>\n`).path, 'src/app.py');
  });

  test('a bare name on the path line (an existing file is checked when planning)', () => {
    assert.equal(only(`VERSION\n\`\`\`\n${block('a', 'b')}\n\`\`\`\n`).path, 'VERSION');
    assert.equal(only(`configure\n\`\`\`sh\n${block('a', 'b')}\n\`\`\`\n`).path, 'configure');
  });

  test('a capitalised word or a line ending in a colon is prose, not a bare name', () => {
    for (const prose of ['Changes', 'Next:', 'then:']) {
      const parsed = parseResponse(`${prose}\n\`\`\`\n${block('a', 'b')}\n\`\`\`\n`);
      assert.equal(parsed.blocks.length, 0, prose);
    }
  });

  test('markers of ten characters, with the divider as long', () => {
    const parsed = only(`a.ts\n${block('a', 'b', 10)}\n`);
    assert.deepEqual(parsed.variants, [{ search: ['a'], replace: ['b'] }]);
  });

  test('a long underline in a block with seven-character markers stays content', () => {
    const parsed = only(`a.md\n${block('Title\n============', 'New\n============')}\n`);
    assert.deepEqual(parsed.variants, [
      { search: ['Title', '============'], replace: ['New', '============'] },
    ]);
  });

  test('a marker that is too short is a problem at its line, not a silently dropped block', () => {
    const parsed = parseResponse('a.ts\n```\n<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n');
    assert.equal(parsed.blocks.length, 0);
    assert.deepEqual(
      parsed.problems.map((p) => p.line),
      [3],
    );
    assert.match(parsed.problems[0]?.message ?? '', /looks like an edit marker/);
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EXAMPLE_PLAN } from './example.js';
import { parsePlan } from './parse.js';
import { formatPlanProblem, type PlanProblem } from './problem.js';
import type { Plan } from './schema.js';

/** Front matter of 5 lines; the body line at index i of `body` is on line 7 + i (line 6 is blank). */
function doc(...body: string[]): string {
  return ['---', 'aide_plan: 1', 'title: T', 'created: 2026-11-30T10:00:00.000Z', '---', '', ...body].join(
    '\n',
  );
}

function planOf(text: string): Plan {
  const result = parsePlan(text, 'plan.md');
  assert.ok(result.ok, result.ok ? '' : result.problems.map(formatPlanProblem).join('\n'));
  return result.plan;
}

function problemsOf(text: string): PlanProblem[] {
  const result = parsePlan(text, 'plan.md');
  assert.ok(!result.ok, 'expected problems');
  return result.problems;
}

/** The one problem of a document, asserted to be on `line`. */
function onlyProblem(text: string, line: number): PlanProblem {
  const problems = problemsOf(text);
  assert.equal(problems.length, 1, problems.map(formatPlanProblem).join('\n'));
  const problem = problems[0];
  assert.ok(problem);
  assert.equal(problem.line, line, formatPlanProblem(problem));
  assert.equal(problem.file, 'plan.md');
  return problem;
}

const BLOCK = ['src/a.js', '```js', '<<<<<<< SEARCH', 'old', '=======', 'new', '>>>>>>> REPLACE', '```'];

describe('valid documents', () => {
  test('the example plan: front matter, summary, three steps and where they are', () => {
    const result = parsePlan(EXAMPLE_PLAN, 'plans/remove.md');
    assert.ok(result.ok);
    const { plan } = result;
    assert.equal(plan.title, 'Add a remove command to the inventory');
    assert.equal(plan.base, '3f2a9c1b0d');
    assert.equal(plan.model, 'qwen2.5-coder:32b');
    assert.match(plan.summary, /^The inventory can add stock/);
    assert.deepEqual(
      plan.steps.map((s) => [s.number, s.title, s.files, s.verify]),
      [
        [1, 'Add remove() to Inventory', ['src/inventory.js'], ['test']],
        [2, 'Sort the report by name', ['src/format.js'], ['test']],
        [3, 'Note the change in the changelog', ['CHANGELOG.md'], []],
      ],
    );
    assert.deepEqual(plan.steps[2]?.run, [
      ['node', 'scripts/check-changelog.js', '--version', '{{ steps.2.output }}'],
    ]);
    assert.match(plan.steps[0]?.intent ?? '', /\n\nNote: `count\(\)` already returns 0/);
    assert.match(
      plan.steps[1]?.intent ?? '',
      /```text\nFiles: a line in a code block is an example, not a key\n```$/,
    );
    assert.match(
      plan.steps[2]?.edits ?? '',
      /^CHANGELOG\.md\n```markdown\n<<<<<<< SEARCH\n# Changelog\n=======\n# Changelog\n\n## \{\{ steps\.2\.output \}\}/,
    );
    assert.deepEqual(
      [...result.lines.steps],
      [
        [1, { heading: 12, edits: 25, verify: [{ name: 'test', line: 21, column: 9 }] }],
        [2, { heading: 46, edits: 63, verify: [{ name: 'test', line: 59, column: 9 }] }],
        [3, { heading: 75, edits: 85, verify: [] }],
      ],
    );
  });

  test('the smallest plan: front matter and one bare step', () => {
    assert.deepEqual(planOf(doc('## Step 1: Do it')), {
      version: 1,
      title: 'T',
      created: '2026-11-30T10:00:00.000Z',
      base: null,
      model: null,
      summary: '',
      steps: [{ number: 1, title: 'Do it', intent: '', files: [], run: [], verify: [], edits: '' }],
    });
  });

  test('CRLF line endings and a byte-order mark read the same as LF', () => {
    assert.deepEqual(planOf(`\uFEFF${EXAMPLE_PLAN.replace(/\n/g, '\r\n')}`), planOf(EXAMPLE_PLAN));
  });

  test('step numbers may have gaps', () => {
    assert.deepEqual(
      planOf(doc('## Step 1: a', '## Step 5: b', '## Step 7: c')).steps.map((s) => s.number),
      [1, 5, 7],
    );
  });

  test('key lines add up in order, and intent paragraphs around them join with one blank line', () => {
    const plan = planOf(
      doc(
        '## Step 1: a',
        'First.',
        '',
        'Files: a.js',
        'Run: one',
        '',
        'Second.',
        'Files: b.js, c/d.js',
        'Run: ["two", "--flag"]',
        'Verify: test, lint:types',
      ),
    );
    assert.deepEqual(plan.steps[0], {
      number: 1,
      title: 'a',
      intent: 'First.\n\nSecond.',
      files: ['a.js', 'b.js', 'c/d.js'],
      run: ['one', ['two', '--flag']],
      verify: ['test', 'lint:types'],
      edits: '',
    });
  });

  test('prose lines with colons are intent, not keys', () => {
    const intent = 'Note: keep it small.\nFields: name, quantity\nFilter: none\nRule: no globals\nBug: #12';
    assert.equal(planOf(doc('## Step 1: a', intent)).steps[0]?.intent, intent);
  });

  test('a Run: line that starts with [ but is no JSON array is a shell command', () => {
    assert.deepEqual(planOf(doc('## Step 1: a', 'Run: [ -f dist/x.js ] || npm run build')).steps[0]?.run, [
      '[ -f dist/x.js ] || npm run build',
    ]);
  });

  test('headings and key lines inside code fences are code', () => {
    const intent = [
      '````md',
      '## Notes',
      'Files: x',
      '### Edits',
      '```',
      '# Step 2: no',
      '```',
      '````',
      '',
      '~~~',
      'Run: no',
      '~~~',
    ].join('\n');
    assert.equal(planOf(doc('## Step 1: a', intent)).steps[0]?.intent, intent);
  });

  test('a SEARCH block may hold a step heading and fences (editing a Markdown file)', () => {
    const edits = [
      'README.md',
      '```markdown',
      '<<<<<<< SEARCH',
      '## Step 2: Install',
      '```sh',
      'npm i',
      '```',
      '=======',
      '## Step 2: Install',
      '```sh',
      'npm ci',
      '```',
      '>>>>>>> REPLACE',
      '```',
    ].join('\n');
    const plan = planOf(doc('## Step 1: Docs', '### Edits', edits, '', '## Step 2: Next'));
    assert.deepEqual(
      plan.steps.map((s) => s.edits),
      [edits, ''],
    );
  });

  test('{{ }} text that is not a step reference is left alone (Vue, GitHub Actions, docker --format)', () => {
    const plan = planOf(
      doc(
        '## Step 1: a',
        "Run: docker inspect -f '{{ .State.Running }}' db",
        'Run: echo "${{ steps.build.outputs.tag }}"',
        '### Edits',
        'src/App.vue',
        '<<<<<<< SEARCH',
        '{{ user.name }}',
        '=======',
        '{{ user.fullName }}',
        '>>>>>>> REPLACE',
      ),
    );
    assert.equal(plan.steps[0]?.run.length, 2);
  });

  test('plain YAML values that look like numbers stay the text written (short hashes, model tags)', () => {
    const text = [
      '---',
      'aide_plan: 1',
      'title: 2024',
      'created: 2026-11-30T10:00:00+01:00',
      'base: 1e34567  # a short hash',
      'model:',
      '---',
      '## Step 1: a',
    ].join('\n');
    const plan = planOf(text);
    assert.deepEqual(
      [plan.title, plan.created, plan.base, plan.model],
      ['2024', '2026-11-30T10:00:00+01:00', '1e34567', null],
    );
  });
});

describe('the front matter', () => {
  test('missing: says what to write', () => {
    const problem = onlyProblem('# My plan\n\n## Step 1: a\n', 1);
    assert.equal(problem.message, 'the plan has no front matter');
    assert.equal(
      problem.hint,
      'Start the file with:\n---\naide_plan: 1\ntitle: Add a remove command to the inventory CLI\ncreated: 2026-11-30T10:00:00.000Z\n---',
    );
  });

  test('not on the first line', () => {
    assert.equal(
      onlyProblem(`\n${doc('## Step 1: a')}`, 2).message,
      'the front matter must start on the first line',
    );
  });

  test('never closed', () => {
    const problem = onlyProblem('---\naide_plan: 1\ntitle: T\n\n## Step 1: a\n', 1);
    assert.equal(problem.message, 'the front matter is never closed');
    assert.match(problem.hint, /End it with a line ---/);
  });

  test('an unknown key: its line and column, and the key meant', () => {
    const problem = onlyProblem(
      doc('## Step 1: a').replace('title: T', 'title: T\n  titel: U'.replace('  ', '')),
      4,
    );
    assert.equal(problem.column, 1);
    assert.equal(problem.message, 'unknown key "titel" in the front matter');
    assert.match(
      problem.hint,
      /^Did you mean "title"\? The front-matter keys are aide_plan, title, created, base, model\.$/,
    );
  });

  test('a missing key: what line to add', () => {
    const problem = onlyProblem(doc('## Step 1: a').replace('title: T\n', ''), 1);
    assert.equal(problem.message, 'the front matter has no "title"');
    assert.equal(problem.hint, 'Add a line such as: title: Add a remove command to the inventory CLI');
  });

  test('another format version', () => {
    const problem = onlyProblem(doc('## Step 1: a').replace('aide_plan: 1', 'aide_plan: 2'), 2);
    assert.equal(problem.column, 12);
    assert.equal(problem.message, '"aide_plan": expected 1, the plan format this aide reads');
    assert.equal(problem.hint, 'For example: aide_plan: 1');
  });

  test('a date that is not ISO 8601', () => {
    const problem = onlyProblem(doc('## Step 1: a').replace('2026-11-30T10:00:00.000Z', '30/11/2026'), 4);
    assert.match(problem.message, /^"created": expected an ISO 8601 date and time/);
    assert.equal(problem.hint, 'For example: created: 2026-11-30T10:00:00.000Z');
  });

  test('a title with ": " unquoted: the quoted line to write', () => {
    const problem = onlyProblem(doc('## Step 1: a').replace('title: T', 'title: Fix: the parser  # why'), 3);
    assert.equal(problem.message, 'the value of "title" holds ": ", which YAML reads as another key');
    assert.equal(problem.hint, 'Put the value in double quotes: title: "Fix: the parser"');
  });

  test('a key written twice', () => {
    assert.equal(
      onlyProblem(doc('## Step 1: a').replace('title: T', 'title: T\ntitle: U'), 4).message,
      '"title" appears twice in the front matter',
    );
  });

  test('a list instead of keys', () => {
    assert.match(
      onlyProblem('---\n- a\n- b\n---\n## Step 1: a', 2).message,
      /not a list of "key: value" lines/,
    );
  });

  test('a multi-line title', () => {
    assert.match(
      onlyProblem(doc('## Step 1: a').replace('title: T', 'title: |\n  two\n  lines'), 3).message,
      /^"title": expected the plan's title on one line/,
    );
  });
});

describe('steps', () => {
  test('a duplicate step number names both lines', () => {
    const problem = onlyProblem(doc('## Step 1: a', '## Step 2: b', 'text', '## Step 2: c'), 10);
    assert.equal(problem.message, 'step 2 is numbered twice: lines 8 and 10');
    assert.match(problem.hint, /^Give one of them another number/);
  });

  test('steps out of order', () => {
    const problem = onlyProblem(doc('## Step 3: a', '## Step 2: b'), 8);
    assert.equal(problem.message, 'step 2 comes after step 3 (line 7), but step numbers must ascend');
    assert.equal(problem.hint, 'Number the steps in the order they run, or move this step above step 3.');
  });

  test('step 0 and a heading without a title', () => {
    assert.match(onlyProblem(doc('## Step 0: a'), 7).message, /step number 0 is not usable/);
    const problem = onlyProblem(doc('## Step 1:'), 7);
    assert.equal(problem.message, 'step 1 has no title');
    assert.equal(problem.hint, 'Say what the step does after the colon: "## Step 1: <what this step does>".');
  });

  test('a plan without steps', () => {
    const problem = onlyProblem(doc('Just a summary.'), 6);
    assert.equal(problem.message, 'the plan has no steps');
    assert.match(problem.hint, /## Step 1: <title>/);
  });

  test('a level-2 heading that is not a step: use ### instead', () => {
    const problem = onlyProblem(doc('## Step 1: a', '', '## Notes', 'Careful.'), 9);
    assert.equal(problem.message, '"## Notes" is a level-2 heading, and in a plan only steps are');
    assert.equal(
      problem.hint,
      'Start a step with "## Step N: <title>", or make it a sub-heading of the step: "### Notes".',
    );
  });

  const nearMisses: Array<[string, string]> = [
    ['# Step 2: b', '## Step 2: b'],
    ['### Step 2: b', '## Step 2: b'],
    ['## step 2: b', '## Step 2: b'],
    ['## Step 2 - b', '## Step 2: b'],
    ['##Step 2: b', '## Step 2: b'],
    ['## Step two: b', '## Step N: two: b'],
  ];
  for (const [line, fix] of nearMisses) {
    test(`"${line}" is not a step heading: write "${fix}"`, () => {
      const problem = onlyProblem(doc('## Step 1: a', line), 8);
      assert.equal(problem.message, `"${line}" is not a step heading`);
      assert.ok(problem.hint.startsWith(`To start a step, write "${fix}"`), problem.hint);
    });
  }
});

describe('key lines', () => {
  const misspelt: Array<[string, string]> = [
    ['File: a.js', 'Files'],
    ['Verfiy: test', 'Verify'],
    ['run: make', 'Run'],
    ['Runs: make', 'Run'],
    ['FILES: a.js', 'Files'],
    // One letter from a key is taken for a typo, even when it is a word: a lost Run: line is worse than rewording prose.
    ['Fixes: #12', 'Files'],
  ];
  for (const [line, key] of misspelt) {
    test(`"${line}" is an unknown key: did you mean ${key}:`, () => {
      const problem = onlyProblem(doc('## Step 1: a', 'Intent.', line), 9);
      assert.equal(problem.message, `unknown key "${line.slice(0, line.indexOf(':'))}:"`);
      assert.ok(problem.hint.startsWith(`Did you mean "${key}:"?`), problem.hint);
    });
  }

  test('an empty value', () => {
    const problem = onlyProblem(doc('## Step 1: a', 'Files:'), 8);
    assert.equal(problem.message, 'Files: has no value');
    assert.match(problem.hint, /e\.g\. Files: src\/store\.js, test\/store\.test\.js/);
  });

  test('an empty entry in a list', () => {
    assert.equal(
      onlyProblem(doc('## Step 1: a', 'Files: a.js, , b.js'), 8).message,
      'Files: has an empty entry',
    );
  });

  test('a path outside the repository', () => {
    const problem = onlyProblem(doc('## Step 1: a', 'Files: src/a.js, ../secret'), 8);
    assert.equal(problem.column, 8);
    assert.equal(
      problem.message,
      'Files: "../secret": expected a path relative to the repository root, without ".."',
    );
  });

  test('a command line in Verify: points to Run:', () => {
    const problem = onlyProblem(doc('## Step 1: a', 'Verify: npm test'), 8);
    assert.match(
      problem.message,
      /^Verify: "npm test": expected the name of a command in \.aide\/sandbox\.json/,
    );
    assert.match(problem.hint, /write a Run: line/);
  });

  test('each Verify: name is located by line and column, over several lines', () => {
    const result = parsePlan(
      doc('## Step 1: a', 'Verify: test,lint:types ,  e2e', 'Verify:   smoke'),
      'plan.md',
    );
    assert.ok(result.ok);
    assert.deepEqual(result.plan.steps[0]?.verify, ['test', 'lint:types', 'e2e', 'smoke']);
    assert.deepEqual(result.lines.steps.get(1)?.verify, [
      { name: 'test', line: 8, column: 9 },
      { name: 'lint:types', line: 8, column: 14 },
      { name: 'e2e', line: 8, column: 28 },
      { name: 'smoke', line: 9, column: 11 },
    ]);
  });

  test('a broken argv array', () => {
    assert.match(
      onlyProblem(doc('## Step 1: a', 'Run: ["node", "x.js"'), 8).message,
      /^Run: starts like a JSON array but is not one/,
    );
    assert.equal(
      onlyProblem(doc('## Step 1: a', 'Run: ["node", 1]'), 8).message,
      'Run: expected an array of non-empty strings',
    );
  });

  test('a key line in the summary, and after ### Edits', () => {
    assert.equal(
      onlyProblem(doc('Run: make', '## Step 1: a'), 7).message,
      'a Run: line in the summary, where it does nothing',
    );
    const problem = onlyProblem(doc('## Step 1: a', '### Edits', ...BLOCK, 'Verify: test'), 17);
    assert.equal(problem.message, 'a Verify: line after ### Edits, where it is read as edit text');
    assert.equal(problem.hint, "Move it above the step's ### Edits heading.");
  });
});

describe('edits', () => {
  test('an edit block without a path: the plan line of the block and what to write', () => {
    const problem = onlyProblem(
      doc(
        '## Step 1: a',
        'Intent.',
        '',
        '### Edits',
        '',
        '```js',
        '<<<<<<< SEARCH',
        'a',
        '=======',
        'b',
        '>>>>>>> REPLACE',
        '```',
      ),
      13,
    );
    assert.equal(problem.message, 'the SEARCH/REPLACE block at line 13 does not say which file it edits');
    assert.equal(
      problem.hint,
      'Put the file path alone on the line before the opening fence, e.g. `src/app.ts`.',
    );
  });

  test('an edit block outside ### Edits, at its SEARCH line', () => {
    const problem = onlyProblem(doc('## Step 1: a', 'Intent.', ...BLOCK), 11);
    assert.equal(problem.message, 'an edit block outside ### Edits');
    assert.match(problem.hint, /^Move it under this step's ### Edits heading/);
    assert.match(
      onlyProblem(doc(...BLOCK, '## Step 1: a'), 9).hint,
      /^Move it under the ### Edits heading of the step it belongs to/,
    );
  });

  test('a diff in the intent is an edit outside ### Edits too', () => {
    const problem = onlyProblem(
      doc('## Step 1: a', '```diff', '--- a/x.js', '+++ b/x.js', '@@ -1 +1 @@', '-a', '+b', '```'),
      11,
    );
    assert.equal(problem.message, 'an edit block outside ### Edits');
  });

  test('an unterminated block is reported at its plan line', () => {
    const problem = onlyProblem(
      doc('## Step 1: a', '### Edits', 'src/a.js', '<<<<<<< SEARCH', 'a', '=======', 'b'),
      10,
    );
    assert.match(problem.message, /^the SEARCH\/REPLACE block at line 10 never ends/);
  });

  test('an Edits section without edits', () => {
    const problem = onlyProblem(doc('## Step 1: a', '### Edits', '', 'Change the thing.'), 8);
    assert.equal(problem.message, 'the ### Edits section holds no edit block');
  });

  test('an empty Edits section is no edits', () => {
    assert.equal(planOf(doc('## Step 1: a', '### Edits', '', '## Step 2: b')).steps[0]?.edits, '');
  });

  test('a near-miss Edits heading, and Edits in the summary', () => {
    // The misspelt heading leaves its block outside any Edits section: both are reported.
    const misspelt = problemsOf(doc('## Step 1: a', '### Edit', ...BLOCK));
    assert.deepEqual(
      misspelt.map((p) => [p.line, p.message]),
      [
        [8, '"### Edit" is not the Edits heading'],
        [11, 'an edit block outside ### Edits'],
      ],
    );
    assert.match(misspelt[0]?.hint ?? '', /Write "### Edits"/);
    const problems = problemsOf(doc('### Edits', ...BLOCK, '## Step 1: a'));
    assert.deepEqual(
      problems.map((p) => [p.line, p.message]),
      [
        [7, 'the summary has an ### Edits heading, but edits belong to a step'],
        [10, 'an edit block outside ### Edits'],
      ],
    );
  });
});

describe('templates, checked when the plan is read', () => {
  test('a reference to a step that does not exist: line and column', () => {
    const problem = onlyProblem(doc('## Step 1: a', '## Step 2: b', 'Run: gen --in {{ steps.7.output }}'), 9);
    assert.equal(problem.column, 15);
    assert.equal(problem.message, '{{ steps.7.output }} refers to step 7, but the plan has no step 7');
    assert.equal(problem.hint, 'Refer to an earlier step, e.g. {{ steps.1.output }}.');
  });

  test('a reference to a later step and to the step itself, in edits', () => {
    const problems = problemsOf(
      doc(
        '## Step 1: a',
        '### Edits',
        'src/a.js',
        '<<<<<<< SEARCH',
        'x',
        '=======',
        'v = "{{steps.2.output}}" + "{{ steps.1.output }}"',
        '>>>>>>> REPLACE',
        '## Step 2: b',
      ),
    );
    assert.deepEqual(
      problems.map((p) => [p.line, p.column, p.message]),
      [
        [13, 6, '{{steps.2.output}} refers to step 2, which runs after step 1'],
        [13, 29, '{{ steps.1.output }} refers to step 1 itself'],
      ],
    );
  });

  test('{{ last.output }} in the first step', () => {
    assert.equal(
      onlyProblem(doc('## Step 1: a', 'Run: echo {{ last.output }}'), 8).message,
      '{{ last.output }} is in the first step, so no step runs before it',
    );
  });

  test('a malformed reference says what to write', () => {
    const problem = onlyProblem(doc('## Step 1: a', '## Step 2: b', 'Run: cat {{ steps.1.stdout }}'), 9);
    assert.equal(problem.message, '{{ steps.1.stdout }} is not a template aide knows');
    assert.equal(problem.hint, 'Write {{ steps.1.output }}; other {{ … }} text is left as written.');
  });

  test('a template in Files:', () => {
    assert.match(
      onlyProblem(doc('## Step 1: a', '## Step 2: b', 'Files: {{ steps.1.output }}'), 9).message,
      /templates work only in Run: lines and edits/,
    );
  });
});

describe('problems', () => {
  test('every problem of a document comes in one pass, in line order', () => {
    const text = [
      '---',
      'aide_plan: 1',
      'titel: T',
      'created: 2026-11-30T10:00:00.000Z',
      '---',
      '',
      '## Step 1: a',
      'File: a.js',
      '```',
      'unclosed',
      '## Step 1: b',
      '## Notes',
    ].join('\n');
    const problems = problemsOf(text);
    assert.deepEqual(
      problems.map((p) => [p.line, p.message]),
      [
        [1, 'the front matter has no "title"'],
        [3, 'unknown key "titel" in the front matter'],
        [8, 'unknown key "File:"'],
        [9, 'this code fence is never closed, so the rest of the document reads as code'],
        [11, 'step 1 is numbered twice: lines 7 and 11'],
        [12, '"## Notes" is a level-2 heading, and in a plan only steps are'],
      ],
    );
  });

  test('formatted as file:line:column', () => {
    const problem = onlyProblem(doc('## Step 1: a', 'Files: ../x'), 8);
    assert.equal(
      formatPlanProblem(problem),
      'plan.md:8:8: Files: "../x": expected a path relative to the repository root, without ".."',
    );
  });

  test('no input makes it throw', () => {
    for (const text of [
      '',
      '---',
      '---\n---',
      '\r',
      '## Step 1: a',
      '---\n: :\n---',
      '---\n[\n---',
      '---\na: *x\n---',
      '---\ntitle: !!binary x\n---',
    ]) {
      const result = parsePlan(text, 'plan.md');
      assert.equal(result.ok, false, JSON.stringify(text));
    }
  });
});

test('a hand-written plan may leave out created (and base and model): they read as null', () => {
  const result = parsePlan(
    [
      '---',
      'aide_plan: 1',
      'title: No date',
      '---',
      '',
      'Why.',
      '',
      '## Step 1: Do it',
      '',
      'Files: a.js',
      '',
    ].join('\n'),
    'plans/no-date.md',
  );
  assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
  assert.equal(result.plan.created, null);
  assert.equal(result.plan.base, null);
});

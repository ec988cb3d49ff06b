import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { planEdits, type BlockOutcome, type FileInput } from './plan-edits.js';
import { parseText, renderText } from './text-file.js';
import type { EditBlock } from './types.js';

function edit(search: string[], replace: string[], path = 'f.txt', index = 1): EditBlock {
  return {
    index,
    line: 1,
    format: 'search-replace',
    path,
    pathFrom: 'explicit',
    op: 'edit',
    variants: [{ search, replace }],
  };
}

function run(content: string | null, blocks: EditBlock[]) {
  const files = new Map<string, FileInput>();
  for (const b of blocks) {
    files.set(b.path, content === null ? { state: 'missing' } : { state: 'text', file: parseText(content) });
  }
  return planEdits(blocks, files);
}

/** Applies one SEARCH/REPLACE to `content`; returns the strategy and the new text, or the failure. */
function applyOne(content: string, search: string, replace: string) {
  const plan = run(content, [edit(search.split('\n'), replace === '' ? [] : replace.split('\n'))]);
  const outcome = plan.outcomes[0] as BlockOutcome;
  if (!outcome.ok) return { ok: false as const, kind: outcome.failure.kind, failure: outcome.failure };
  const after = plan.changes[0]?.after;
  return { ok: true as const, strategy: outcome.strategy, text: after ? renderText(after) : content };
}

function applied(content: string, search: string, replace: string) {
  const result = applyOne(content, search, replace);
  assert.ok(
    result.ok,
    `expected the edit to apply, got ${result.ok ? '' : `${result.kind}: ${result.failure.message}`}`,
  );
  return result;
}

function refused(content: string, search: string, replace: string, kind: string) {
  const result = applyOne(content, search, replace);
  assert.ok(
    !result.ok,
    `expected a refusal, but it applied with ${result.ok ? String(result.strategy) : ''}:\n${result.ok ? result.text : ''}`,
  );
  assert.equal(result.kind, kind);
  return result;
}

describe('exact', () => {
  test('replaces the lines', () => {
    const r = applied('a\nb\nc\n', 'b', 'B');
    assert.deepEqual([r.strategy, r.text], ['exact', 'a\nB\nc\n']);
  });
  test('first occurrence when the exact text occurs twice', () => {
    assert.equal(applied('retries: 3,\ny\nretries: 3,\n', 'retries: 3,', 'z').text, 'z\ny\nretries: 3,\n');
  });
  test('deleting lines with an empty REPLACE', () => {
    assert.equal(applied('a\nb\nc\n', 'b', '').text, 'a\nc\n');
  });
  test('a file without a final newline keeps that', () => {
    assert.equal(applied('a\nb', 'b', 'B\nC').text, 'a\nB\nC');
  });
  test('appending after the last line keeps a final newline', () => {
    assert.equal(applied('a\nb\n', 'b', 'b\nc').text, 'a\nb\nc\n');
  });
});

describe('diff line numbers', () => {
  test('choose between exact occurrences only: the one nearest the hunk header', () => {
    const content = 'a\nx\nb\nx\nc\n';
    const block = { ...edit(['x'], ['X']), format: 'diff' as const, lineHint: 4 };
    const plan = run(content, [block]);
    assert.equal(renderText(plan.changes[0]?.after ?? parseText('')), 'a\nx\nb\nX\nc\n');
  });
  test('a wrong line number never places text that is not there', () => {
    const block = { ...edit(['missing'], ['X']), format: 'diff' as const, lineHint: 2 };
    assert.equal(run('a\nb\n', [block]).ok, false);
  });
});

describe('line-endings', () => {
  test('a CRLF file stays CRLF, new lines included', () => {
    const r = applied('a\r\nb\r\nc\r\n', 'b', 'B\nB2');
    assert.deepEqual([r.strategy, r.text], ['line-endings', 'a\r\nB\r\nB2\r\nc\r\n']);
  });
  test('a mixed file keeps each untouched line ending', () => {
    assert.equal(applied('a\r\nb\nc\r\nd\r\n', 'c', 'C').text, 'a\r\nb\nC\r\nd\r\n');
  });
});

describe('trailing-whitespace', () => {
  test('the model dropped trailing spaces; the file keeps its own context lines', () => {
    const r = applied('a  \nb\t\nc\n', 'a\nb', 'a\nB');
    assert.deepEqual([r.strategy, r.text], ['trailing-whitespace', 'a  \nB\nc\n']);
  });
  test('two places match without trailing spaces: ambiguous', () => {
    refused('x \ny\nx\t\ny\n', 'x\ny', 'z', 'ambiguous');
  });
});

describe('indentation', () => {
  const file = 'class A {\n    run() {\n        go();\n    }\n}\n';
  test('a SEARCH missing the class indentation is re-indented', () => {
    const r = applied(file, 'run() {\n    go();\n}', 'run() {\n    go();\n    stop();\n}');
    assert.deepEqual(
      [r.strategy, r.text],
      ['indentation', 'class A {\n    run() {\n        go();\n        stop();\n    }\n}\n'],
    );
  });
  test('spaces in the model text, tabs in the file', () => {
    const r = applied(
      'func f() {\n\tif x {\n\t\treturn\n\t}\n}\n',
      'if x {\n    return\n}',
      'if x {\n    log()\n    return\n}',
    );
    assert.equal(r.text, 'func f() {\n\tif x {\n\t\tlog()\n\t\treturn\n\t}\n}\n');
  });
  test('two-space model text in a four-space file', () => {
    const r = applied(
      'def f():\n    if x:\n        return 1\n',
      'if x:\n  return 1',
      'if x:\n  y()\n  return 1',
    );
    assert.equal(r.text, 'def f():\n    if x:\n        y()\n        return 1\n');
  });
  test('non-uniform shift is not an indentation match', () => {
    refused('if a:\n    b\n    c\n', 'if a:\nb\n        c', 'x', 'not-found');
  });
  test('a SEARCH that lost the tabs of a tab-indented file gets them back', () => {
    const r = applied(
      'type T struct {\n\tfunc f() {\n\t\tgo()\n\t}\n}\n',
      'func f() {\n\tgo()\n}',
      'func f() {\n\tgo()\n\tstop()\n}',
    );
    assert.deepEqual(
      [r.strategy, r.text],
      ['indentation', 'type T struct {\n\tfunc f() {\n\t\tgo()\n\t\tstop()\n\t}\n}\n'],
    );
  });
  test('a shifted SEARCH in a CRLF file keeps its CRLF endings', () => {
    const r = applied(
      'class A {\r\n  run() {\r\n    go();\r\n  }\r\n}\r\n',
      'run() {\n  go();\n}',
      'run() {\n  go();\n  stop();\n}',
    );
    assert.deepEqual(
      [r.strategy, r.text],
      ['indentation', 'class A {\r\n  run() {\r\n    go();\r\n    stop();\r\n  }\r\n}\r\n'],
    );
  });
  test('a shifted SEARCH found at two places is refused', () => {
    refused(
      'class A {\n  run() {\n    go();\n  }\n}\nclass B {\n  run() {\n    go();\n  }\n}\n',
      'run() {\n  go();\n}',
      'x',
      'ambiguous',
    );
  });
});

describe('blank-lines', () => {
  test('the model dropped a blank line; the file keeps it', () => {
    const r = applied('a\n\nb\nc\n', 'a\nb', 'a\nb2');
    assert.deepEqual([r.strategy, r.text], ['blank-lines', 'a\n\nb2\nc\n']);
  });
  test('the model added a blank line', () => {
    const r = applied('a\nb\nc\n', 'a\n\nb', 'a\n\nB');
    assert.deepEqual([r.strategy, r.text], ['blank-lines', 'a\nB\nc\n']);
  });
});

describe('elision', () => {
  const file = 'function f() {\n  one();\n  two();\n  three();\n  return 1;\n}\n';
  test('`...` in SEARCH and REPLACE keeps the elided lines', () => {
    const r = applied(file, 'function f() {\n  ...\n  return 1;\n}', 'function f() {\n  ...\n  return 2;\n}');
    assert.deepEqual(
      [r.strategy, r.text],
      ['elision', 'function f() {\n  one();\n  two();\n  three();\n  return 2;\n}\n'],
    );
  });
  test('a comment elision works the same way', () => {
    const r = applied(file, 'function f() {\n  // ...\n  return 1;', 'function g() {\n  // ...\n  return 1;');
    assert.equal(r.text, file.replace('function f', 'function g'));
  });
  test('a lazy "existing code" comment only in REPLACE is refused', () => {
    refused(file, '  return 1;', '  // ... existing code ...\n  return 2;', 'lazy-elision');
  });
  test('a bare `...` only in REPLACE is real content (a Python body)', () => {
    assert.equal(
      applied('def f():\n    pass\n', 'def f():\n    pass', 'def f():\n    ...').text,
      'def f():\n    ...\n',
    );
  });
});

describe('fuzzy', () => {
  const file =
    'function receive(message) {\n  const parsed = parse(message);\n  store(parsed);\n  return parsed;\n}\n';
  test('a typo in a context line: the file keeps its own version of that line', () => {
    const r = applied(
      file,
      'function recieve(message) {\n  const parsed = parse(message);\n  store(parsed);',
      'function recieve(message) {\n  const parsed = parse(message);\n  validate(parsed);\n  store(parsed);',
    );
    assert.equal(r.strategy, 'fuzzy');
    assert.equal(
      r.text,
      'function receive(message) {\n  const parsed = parse(message);\n  validate(parsed);\n  store(parsed);\n  return parsed;\n}\n',
    );
  });
  test('a missing semicolon in a context line', () => {
    const r = applied(
      file,
      '  const parsed = parse(message)\n  store(parsed);',
      '  const parsed = parse(message)\n  save(parsed);',
    );
    assert.equal(r.text, file.replace('store(parsed)', 'save(parsed)'));
  });
  test('a different function name is not a typo', () => {
    refused(
      'function calculateTax(price, rate) {\n  return price * rate;\n}\n',
      'function calculateDiscount(price, rate) {\n  return price * rate;\n}',
      'x',
      'not-found',
    );
  });
  test('getX is not getY', () => {
    refused('  getX() {\n    return this.x;\n  }\n', '  getY() {\n    return this.x;\n  }', 'x', 'not-found');
  });
  test('a different number is a different line', () => {
    refused(
      'const timeout = 30;\nconst retries = 3;\nconst delay = 5;\n',
      'const timeout = 60;\nconst retries = 3;\nconst delay = 5;',
      'x',
      'not-found',
    );
  });
  test('a different operator is a different line', () => {
    refused(
      'total = a + b\nprint(total)\nreturn total\n',
      'total = a - b\nprint(total)\nreturn total',
      'x',
      'not-found',
    );
  });
  test('a typo matching two places is ambiguous', () => {
    const twice = 'handleRequest(req);\nlog();\nhandleRequest(req);\nlog();\n';
    refused(twice, 'handelRequest(req);\nlog();', 'x', 'ambiguous');
  });
  test('too many typos in a short SEARCH', () => {
    refused(file, 'function recieve(mesage) {\n  const parsed = parse(mesage);', 'x', 'not-found');
  });
});

describe('creation and whole-file cases', () => {
  test('an empty SEARCH creates a missing file with a final newline', () => {
    const plan = run(null, [edit([], ['export const a = 1;'], 'src/new.ts')]);
    assert.ok(plan.ok);
    assert.equal(plan.changes[0]?.before, null);
    assert.equal(renderText(plan.changes[0]?.after ?? parseText('')), 'export const a = 1;\n');
  });
  test('an empty SEARCH fills an empty file', () => {
    assert.equal(applied('', '', 'x').text, 'x\n');
  });
  test('an empty SEARCH on a non-empty file is refused', () => {
    const plan = run('content\n', [edit([], ['x'])]);
    assert.equal(plan.outcomes[0]?.ok, false);
    assert.equal(plan.outcomes[0].failure.kind, 'file-exists');
  });
  test('a SEARCH on a missing file is refused', () => {
    const plan = run(null, [edit(['a'], ['b'])]);
    assert.equal((plan.outcomes[0] as Extract<BlockOutcome, { ok: false }>).failure.kind, 'file-missing');
  });
  test('a blank-only SEARCH on an existing file is refused', () => {
    refused('a\n\nb\n', '', 'x', 'blank-search');
  });
});

describe('several blocks', () => {
  test('blocks on one file apply in sequence', () => {
    const plan = run('a\nb\nc\n', [edit(['a'], ['A'], 'f.txt', 1), edit(['A', 'b'], ['A', 'B'], 'f.txt', 2)]);
    assert.ok(plan.ok);
    assert.equal(renderText(plan.changes[0]?.after ?? parseText('')), 'A\nB\nc\n');
  });
  test('one failing block fails the plan but the others are reported as matching', () => {
    const plan = run('a\nb\n', [edit(['a'], ['A'], 'f.txt', 1), edit(['zzz'], ['y'], 'f.txt', 2)]);
    assert.equal(plan.ok, false);
    assert.deepEqual(
      plan.outcomes.map((o) => o.ok),
      [true, false],
    );
  });
  test('of several ======= readings, the one that matches is used', () => {
    const block: EditBlock = {
      ...edit([], []),
      path: 'README.md',
      variants: [
        { search: ['Title'], replace: ['Title', '=====', 'text'] },
        { search: ['Title', '=====', 'text'], replace: [] },
      ],
    };
    const plan = run('Title\nend\n', [block]);
    assert.ok(plan.ok);
    assert.equal(renderText(plan.changes[0]?.after ?? parseText('')), 'Title\n=====\ntext\nend\n');
  });
});

describe('safety of the result', () => {
  test('invisible characters in new text are refused with code point and line', () => {
    const r = refused('a\nb\n', 'b', 'b\nif (isAdmin\u202E) {', 'invisible-characters');
    assert.match(r.failure.message, /line 3, column 12: U\+202E RIGHT-TO-LEFT OVERRIDE/);
  });
  test('a tag-block character is refused', () => {
    const r = refused('a\n', 'a', 'a\u{E0041}', 'invisible-characters');
    assert.match(r.failure.message, /U\+E0041 TAG CHARACTER/);
  });
  test('an invisible character already in a context line does not block the edit', () => {
    assert.equal(
      applied('zero\u200Bwidth\nb\n', 'zero\u200Bwidth\nb', 'zero\u200Bwidth\nB').text,
      'zero\u200Bwidth\nB\n',
    );
  });
  test('a JSON file that stops parsing is refused', () => {
    const plan = run('{\n  "a": 1\n}\n', [edit(['  "a": 1'], ['  "a": 1,'], 'x.json')]);
    assert.equal((plan.outcomes[0] as Extract<BlockOutcome, { ok: false }>).failure.kind, 'invalid-result');
  });
  test('a not-found failure shows the closest lines and the first difference', () => {
    const r = refused(
      'def total(items):\n    return sum(i.price for i in items)\n',
      'def total(items):\n    return sum(i.cost for i in items)',
      'x',
      'not-found',
    );
    assert.equal(r.failure.closest?.startLine, 1);
    assert.equal(r.failure.closest?.firstDifference?.fileLineNumber, 2);
  });
});

describe('a bare name on the path line (path-text.ts)', () => {
  test('edits the file of that name when it exists', () => {
    const plan = run('1.0\n', [edit(['1.0'], ['1.1'], 'VERSION')]);
    assert.equal(plan.ok, true);
  });
  test('never creates it: the word may be prose', () => {
    const plan = run(null, [edit([], ['remember'], 'notes')]);
    const outcome = plan.outcomes[0];
    assert.equal(outcome?.ok === false ? outcome.failure.kind : 'applied', 'file-missing');
    assert.deepEqual(plan.changes, []);
  });
  test('a well-known name (Makefile) is still created', () => {
    assert.equal(run(null, [edit([], ['all:'], 'Makefile')]).ok, true);
  });
});

describe('a diff hunk with several readings (lost-plus.ts)', () => {
  const diff = (variants: EditBlock['variants']): EditBlock => ({
    ...edit([], []),
    format: 'diff',
    variants,
  });
  test('its reading as written wins when it applies', () => {
    const plan = run('a\nb\nc\na\nb\n', [
      diff([
        { search: ['b', 'c'], replace: ['c'] },
        { search: ['b'], replace: ['c'] },
      ]),
    ]);
    assert.equal(
      plan.changes[0]?.after === null ? '' : renderText(plan.changes[0]?.after ?? parseText('')),
      'a\nc\na\nb\n',
    );
  });
  test('readings that apply at different places are ambiguous', () => {
    const plan = run('a\nx\nb\nc\nb\nd\n', [
      diff([
        { search: ['a', 'new'], replace: ['a', 'z'] },
        { search: ['b', 'c'], replace: ['b', 'C'] },
        { search: ['b', 'd'], replace: ['b', 'D'] },
      ]),
    ]);
    const outcome = plan.outcomes[0];
    assert.equal(outcome?.ok === false ? outcome.failure.kind : 'applied', 'ambiguous');
    assert.match(outcome?.ok === false ? outcome.failure.message : '', /more than one way of reading/);
  });
});

describe('a rename (rename.ts)', () => {
  const rename: EditBlock = { ...edit([], [], 'b.py'), format: 'diff', renameFrom: 'a.py' };
  const files = (b: FileInput): Map<string, FileInput> =>
    new Map([
      ['a.py', { state: 'text', file: parseText('x\n') }],
      ['b.py', b],
    ]);
  test('deletes the old path and creates the new one, with the content', () => {
    const plan = planEdits(
      [rename, { ...edit(['x'], ['y'], 'b.py', 2), format: 'diff' }],
      files({ state: 'missing' }),
    );
    assert.equal(plan.ok, true);
    assert.deepEqual(
      plan.changes.map((c) => [c.path, c.before === null, c.after === null ? null : renderText(c.after)]),
      [
        ['a.py', false, null],
        ['b.py', true, 'y\n'],
      ],
    );
  });
  test('never overwrites a file at the new path', () => {
    const plan = planEdits([rename], files({ state: 'text', file: parseText('z\n') }));
    const outcome = plan.outcomes[0];
    assert.equal(outcome?.ok === false ? outcome.failure.kind : 'applied', 'file-exists');
    assert.deepEqual(plan.changes, []);
  });
});

/**
 * Replies shaped like local models' that used to write the wrong thing (issue 14): a doubled
 * separator, a tab-indented REPLACE for a space-indented file (and the reverse), a tiny SEARCH
 * that occurs more than once. Each must write the intended text or nothing.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parseResponse } from './parse-response.js';
import { planEdits, type BlockOutcome } from './plan-edits.js';
import { parseText, renderText } from './text-file.js';

function apply(response: string, path: string, text: string): { text: string } | { failed: BlockOutcome[] } {
  const parsed = parseResponse(response);
  assert.deepEqual(parsed.problems, []);
  const plan = planEdits(parsed.blocks, new Map([[path, { state: 'text', file: parseText(text) } as const]]));
  if (!plan.ok) return { failed: plan.outcomes.filter((o) => !o.ok) };
  const change = plan.changes[0];
  return { text: change?.after ? renderText(change.after) : text };
}

const block = (path: string, search: string, replace: string, divider = '=======') =>
  `${path}\n<<<<<<< SEARCH\n${search}\n${divider}\n${replace}\n>>>>>>> REPLACE\n`;

describe('a doubled separator', () => {
  test('with nothing after it is a deletion, never a written =======', () => {
    const reply =
      'app.py\n```python\n<<<<<<< SEARCH\nimport os\nimport sys\n=======\n=======\n>>>>>>> REPLACE\n```\n';
    assert.deepEqual(apply(reply, 'app.py', 'import os\nimport sys\nprint(1)\n'), { text: 'print(1)\n' });
  });

  test('with a REPLACE after it replaces', () => {
    assert.deepEqual(
      apply(block('a.ts', 'let x = 1;', 'let x = 2;', '=======\n======='), 'a.ts', 'let x = 1;\n'),
      { text: 'let x = 2;\n' },
    );
  });

  test('after a heading underline that ends SEARCH, the underline stays content', () => {
    const reply = block('README.md', 'Title\n=======', 'New title\n=========');
    assert.deepEqual(apply(reply, 'README.md', 'Title\n=======\n\ntext\n'), {
      text: 'New title\n=========\n\ntext\n',
    });
  });
});

const python = [
  'def total(items):',
  '    result = 0',
  '    for item in items:',
  '        result += item.price',
  '    return result',
  '',
].join('\n');

/** Whether python3 loads the text; undefined when there is no python3 here. */
function pythonLoads(text: string): boolean | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'aide-py-'));
  try {
    const file = join(dir, 'm.py');
    writeFileSync(file, text);
    const run = spawnSync('python3', ['-c', 'import ast,sys; ast.parse(open(sys.argv[1]).read())', file], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    return run.error === undefined ? run.status === 0 : undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a REPLACE indented with the other character', () => {
  test('tabs for a Python file indented with spaces: re-indented, and the file still loads', () => {
    const search = '    for item in items:\n        result += item.price';
    const replace =
      '\tfor item in items:\n\t\tif item.taxed:\n\t\t\tresult += item.price * 1.2\n\t\telse:\n\t\t\tresult += item.price';
    const result = apply(block('m.py', search, replace), 'm.py', python);
    assert.ok('text' in result, JSON.stringify(result));
    assert.equal(
      result.text,
      [
        'def total(items):',
        '    result = 0',
        '    for item in items:',
        '        if item.taxed:',
        '            result += item.price * 1.2',
        '        else:',
        '            result += item.price',
        '    return result',
        '',
      ].join('\n'),
    );
    assert.doesNotMatch(result.text, /\t/);
    assert.notEqual(pythonLoads(result.text), false, 'python3 cannot parse the result');
  });

  test('spaces for a tab-indented file: re-indented to tabs, the unit read off a shared line', () => {
    const file = 'func f() {\n\tif ok {\n\t\treturn 1\n\t}\n}\n';
    const result = apply(
      block('f.go', '\tif ok {\n\t\treturn 1\n\t}', '    if ok {\n        log()\n        return 1\n    }'),
      'f.go',
      file,
    );
    assert.deepEqual(result, { text: 'func f() {\n\tif ok {\n\t\tlog()\n\t\treturn 1\n\t}\n}\n' });
  });

  test('a file that mixes both on purpose (a Makefile) keeps what was written', () => {
    const file = 'CFLAGS = -O2 \\\n    -Wall \\\n    -Wextra\n\nall:\n\tcc $(CFLAGS) main.c\n';
    const result = apply(block('Makefile', 'all:', 'all:\n\tcc -c util.c'), 'Makefile', file);
    assert.ok('text' in result);
    assert.match(result.text, /\n\tcc -c util\.c\n/);
  });
});

describe('a tiny SEARCH that occurs more than once', () => {
  const file = 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n';
  for (const search of ['}', '  return 1;\n}\n\nfunction b() {']) {
    test(`is ambiguous only when it is too small: ${JSON.stringify(search)}`, () => {
      const result = apply(block('a.js', search, `${search}\n// x`), 'a.js', file);
      if (search === '}') {
        assert.ok('failed' in result);
        const failure = result.failed[0];
        assert.ok(failure !== undefined && !failure.ok);
        assert.equal(failure.failure.kind, 'ambiguous');
        assert.deepEqual(failure.failure.candidates, [3, 7]);
        assert.match(failure.failure.message, /"\}" is too short .* 2 places \(lines 3, 7\)/);
        assert.match(failure.failure.hint, /a line or two of the unchanged code/);
      } else {
        assert.ok('text' in result);
      }
    });
  }

  test('a lone } that occurs once is fine', () => {
    assert.deepEqual(apply(block('a.js', '}', '}\n// end'), 'a.js', 'f() {\n  x();\n}\n'), {
      text: 'f() {\n  x();\n}\n// end\n',
    });
  });
});

describe('a REPLACE indented at another width than the file (issue 14)', () => {
  test('2 spaces for a Python file of 4: re-indented to 4, and the file still loads', () => {
    const replace =
      'def total(items):\n  result = 0\n  for item in items:\n    if item.taxed:\n      result += item.price * 1.2';
    const result = apply(
      block(
        'm.py',
        'def total(items):\n    result = 0\n    for item in items:\n        result += item.price',
        replace,
      ),
      'm.py',
      python,
    );
    assert.ok('text' in result, JSON.stringify(result));
    assert.equal(
      result.text,
      'def total(items):\n    result = 0\n    for item in items:\n        if item.taxed:\n            result += item.price * 1.2\n    return result\n',
    );
    assert.notEqual(pythonLoads(result.text), false, 'python3 cannot parse the result');
  });

  test('4 spaces for a file of 2: re-indented to 2', () => {
    const file = 'function f() {\n  if (ok) {\n    return 1;\n  }\n}\n';
    const result = apply(
      block(
        'f.js',
        '  if (ok) {\n    return 1;\n  }',
        '    if (ok) {\n        log();\n        return 1;\n    }',
      ),
      'f.js',
      file,
    );
    assert.deepEqual(result, { text: 'function f() {\n  if (ok) {\n    log();\n    return 1;\n  }\n}\n' });
  });

  test('a shared line moved to another level is no evidence: REPLACE stays as written', () => {
    const file = 'def f(x):\n    y = x\n    return y\n';
    const result = apply(
      block('f.py', '    y = x\n    return y', '  if x:\n    y = x\n  return y'),
      'f.py',
      file,
    );
    assert.deepEqual(result, { text: 'def f(x):\n  if x:\n    y = x\n  return y\n' });
  });
});

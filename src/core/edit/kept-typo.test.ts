/** A typo in a line the block keeps (kept-typo.ts): its limits, and the file's own line kept. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isKeptTypo } from './kept-typo.js';
import { planEdits } from './plan-edits.js';
import { parseText, renderText } from './text-file.js';

const FILE = [
  'def greet(user):',
  '    name = user.name',
  '    print("Hello,", name)',
  '    return name',
  '',
  'def farewell(user):',
  '    name = user.name',
  '    print("Bye,", name)',
  '',
].join('\n');

function apply(search: string[], replace: string[], text = FILE): string | { kind: string } {
  const block = {
    index: 1,
    line: 1,
    format: 'search-replace',
    path: 'a.py',
    pathFrom: 'explicit',
    op: 'edit',
  } as const;
  const plan = planEdits(
    [{ ...block, variants: [{ search, replace }] }],
    new Map([['a.py', { state: 'text', file: parseText(text) } as const]]),
  );
  const outcome = plan.outcomes[0];
  if (outcome?.ok !== true) return { kind: outcome?.ok === false ? outcome.failure.kind : 'none' };
  assert.equal(outcome.strategy, 'fuzzy');
  const after = plan.changes[0]?.after;
  return after ? renderText(after) : text;
}

describe('a typo in a kept line', () => {
  test('is accepted when the lines the block changes match one place exactly; the file keeps its line', () => {
    const result = apply(
      ['def greet(user):', '    nmae = user.name', '    print("Hello,", name)'],
      ['def greet(user):', '    nmae = user.name', '    print(f"Hello, {name}!")'],
    );
    assert.equal(result, FILE.replace('print("Hello,", name)', 'print(f"Hello, {name}!")'));
  });

  test('in a changed line is never taken for a typo', () => {
    const result = apply(
      ['def greet(user):', '    nmae = user.name', '    print("Hello,", name)'],
      ['def greet(user):', '    nmae = user.full_name', '    print("Hello,", name)'],
    );
    assert.deepEqual(result, { kind: 'not-found' });
  });

  test('needs two exact lines besides it', () => {
    const result = apply(
      ['    nmae = user.name', '    print("Hello,", name)'],
      ['    nmae = user.name', '    print(name)'],
    );
    assert.deepEqual(result, { kind: 'not-found' });
  });

  test('needs exact lines that name a place on their own, not a lone keyword', () => {
    const text = 'if x:\n    nmae = 1\nelse:\n    pass\n';
    const result = apply(
      ['    name = 1', 'else:', '    pass'],
      ['    name = 1', 'else:', '    return'],
      text,
    );
    assert.deepEqual(result, { kind: 'not-found' });
  });

  test('two typo lines in a four-line SEARCH are beyond the budget', () => {
    const result = apply(
      ['def greet(user):', '    nmae = user.name', '    print("Hello,", name)', '    retrun name'],
      ['def greet(user):', '    nmae = user.name', '    print("Hi,", name)', '    retrun name'],
    );
    assert.deepEqual(result, { kind: 'not-found' });
  });

  test('that matches two places is ambiguous', () => {
    const twice = `${FILE}\ndef greet(user):\n    name = user.name\n    print("Hello,", name)\n`;
    const result = apply(
      ['def greet(user):', '    nmae = user.name', '    print("Hello,", name)'],
      ['def greet(user):', '    nmae = user.name', '    print("Hi,", name)'],
      twice,
    );
    assert.deepEqual(result, { kind: 'ambiguous' });
  });
});

describe('isKeptTypo', () => {
  const cases: Array<[string, string, boolean]> = [
    ['nmae = user.name', 'name = user.name', true],
    ['name = usr.name', 'name = user.name', true],
    ['total = price * quantity;', 'total = price * quantity', true],
    ['x = user.name', 'y = user.name', false],
    ['handler1()', 'handler2()', false],
    ['getX()', 'getY()', false],
    ['name = user.full_name', 'name = user.name', false],
    ['nmae = user.nmae = uesr', 'name = user.name = user', false],
    ['retries = 3', 'retries = 4', false],
  ];
  for (const [model, file, expected] of cases)
    test(`"${model}" for "${file}": ${String(expected)}`, () => {
      assert.equal(isKeptTypo(model, file), expected);
    });
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stepHash } from './step-hash.js';

const STEP = {
  number: 2,
  title: 'Add sub',
  intent: 'Do it.',
  files: ['src/calc.js'],
  run: [],
  verify: [],
  edits: '',
};

test("a step's hash is its content: not its number, not the order of its fields", () => {
  assert.match(stepHash(STEP), /^[0-9a-f]{64}$/);
  assert.equal(stepHash({ ...STEP, number: 7 }), stepHash(STEP));
  const reordered = {
    edits: '',
    verify: [],
    run: [],
    files: ['src/calc.js'],
    intent: 'Do it.',
    title: 'Add sub',
    number: 2,
  };
  assert.equal(stepHash(reordered), stepHash(STEP));
  for (const changed of [
    { title: 'Add subtraction' },
    { intent: 'Do it now.' },
    { files: ['src/calc.ts'] },
    { run: ['npm run gen'] },
    { verify: ['lint'] },
    { edits: 'x' },
  ]) {
    assert.notEqual(stepHash({ ...STEP, ...changed }), stepHash(STEP), JSON.stringify(changed));
  }
});

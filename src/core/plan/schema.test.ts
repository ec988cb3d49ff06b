import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EXAMPLE_PLAN } from './example.js';
import { parsePlan } from './parse.js';
import { planSchema, type Plan, type PlanStep } from './schema.js';

function examplePlan(): Plan {
  const result = parsePlan(EXAMPLE_PLAN, 'plan.md');
  assert.ok(result.ok);
  return result.plan;
}

const bare: PlanStep = { number: 1, title: 'a', intent: '', files: [], run: [], verify: [], edits: '' };

/** The schema's messages for a plan with its first step changed. */
function messages(change: Partial<PlanStep>, more: PlanStep[] = []): string[] {
  const plan = { ...examplePlan(), steps: [{ ...bare, ...change }, ...more] };
  const result = planSchema.safeParse(plan);
  return result.success ? [] : result.error.issues.map((i) => i.message);
}

test('a parsed plan is valid', () => {
  assert.ok(planSchema.safeParse(examplePlan()).success);
});

test('titles are one trimmed line', () => {
  assert.deepEqual(messages({ title: 'two\nlines' }), [
    "expected the step's title on one line, without surrounding spaces",
  ]);
  assert.deepEqual(messages({ title: ' padded' }), [
    "expected the step's title on one line, without surrounding spaces",
  ]);
});

test('step numbers ascend', () => {
  assert.deepEqual(messages({ number: 2 }, [{ ...bare, number: 2 }]), [
    'step 2 follows step 2: numbers must ascend',
  ]);
});

test('free text that would read back differently is refused', () => {
  assert.deepEqual(messages({ intent: 'Do it.\nRun: make' }), [
    'intent must be trimmed free text, without Files:/Run:/Verify: lines or an ### Edits heading',
  ]);
  assert.deepEqual(messages({ intent: 'Do it.\n## Notes' }), [
    'intent, line 2: "## Notes" is a level-2 heading, and in a plan only steps are',
  ]);
  assert.deepEqual(messages({ intent: 'Do it.\n' }), [
    'intent must be trimmed free text, without Files:/Run:/Verify: lines or an ### Edits heading',
  ]);
  assert.deepEqual(messages({ intent: 'a\r\nb' }), [
    'intent must be trimmed free text, without Files:/Run:/Verify: lines or an ### Edits heading',
  ]);
});

test('edits must parse as edits, without surrounding blank lines', () => {
  assert.deepEqual(messages({ edits: '<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE' }), [
    'edits, line 1: the SEARCH/REPLACE block at line 1 does not say which file it edits',
  ]);
  assert.deepEqual(messages({ edits: '\na.js\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE' }), [
    'edits must not start or end with a blank line',
  ]);
});

test('commands, paths and verify names', () => {
  assert.deepEqual(messages({ run: ['["x"] && y'] }), [
    'a shell command may not start like a JSON array; write it as an argv array instead',
  ]);
  assert.equal(messages({ run: [[]] }).length, 1);
  assert.deepEqual(messages({ files: ['a,b.js'] }), [
    'expected a path without commas, line breaks or surrounding spaces',
  ]);
  assert.deepEqual(messages({ files: ['/etc/passwd'] }), [
    'expected a path relative to the repository root, without ".."',
  ]);
  assert.equal(messages({ verify: ['npm test'] }).length, 1);
});

test('templates must name an earlier step', () => {
  assert.deepEqual(messages({ run: ['echo {{ steps.2.output }}'] }, [{ ...bare, number: 2 }]), [
    'step 1: {{ steps.2.output }} refers to step 2, which runs after step 1',
  ]);
  assert.deepEqual(messages({ run: [['echo', '{{ last.output }}']] }), [
    'step 1: {{ last.output }} is in the first step, so no step runs before it',
  ]);
});

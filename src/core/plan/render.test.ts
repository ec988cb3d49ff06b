import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EXAMPLE_PLAN } from './example.js';
import { parsePlan } from './parse.js';
import { formatPlanProblem } from './problem.js';
import { renderPlan } from './render.js';
import type { Plan } from './schema.js';

function planOf(text: string): Plan {
  const result = parsePlan(text, 'plan.md');
  assert.ok(result.ok, result.ok ? '' : result.problems.map(formatPlanProblem).join('\n'));
  return result.plan;
}

/** A plan as a person might write it by hand: odd spacing, blank lines, keys before the prose. */
const HAND_WRITTEN = [
  '---',
  'aide_plan:   1',
  "title: 'Fix: the report'",
  'created: "2026-11-30T10:00:00Z"',
  '---',
  '',
  '',
  '  Why: the report is unsorted.  ',
  '',
  '',
  '## Step 2:   Sort it   ',
  'Files:src/format.js ,  test/format.test.js',
  'Verify:test',
  '',
  '',
  'Sort by name.',
  '',
  '',
  '',
  'Run:   ["node","scripts/check.js"]   ',
  '### Edits',
  '',
  '',
  'src/format.js',
  '<<<<<<< SEARCH',
  'a',
  '=======',
  'b',
  '>>>>>>> REPLACE',
  '',
  '',
  '## Step 9: Done',
  '',
].join('\n');

const CANONICAL = `---
aide_plan: 1
title: "Fix: the report"
created: 2026-11-30T10:00:00Z
---

Why: the report is unsorted.

## Step 2: Sort it

Sort by name.

Files: src/format.js, test/format.test.js

Run: ["node", "scripts/check.js"]

Verify: test

### Edits

src/format.js
<<<<<<< SEARCH
a
=======
b
>>>>>>> REPLACE

## Step 9: Done
`;

test('the example plan renders back byte for byte', () => {
  assert.equal(renderPlan(planOf(EXAMPLE_PLAN)), EXAMPLE_PLAN);
});

test('a hand-written plan renders canonically and reads back the same', () => {
  const plan = planOf(HAND_WRITTEN);
  assert.equal(renderPlan(plan), CANONICAL);
  assert.deepEqual(planOf(renderPlan(plan)), plan);
});

test('editing the intent in the rendered document changes only the intent', () => {
  const plan = planOf(EXAMPLE_PLAN);
  const edited = renderPlan(plan).replace(
    'Sort by name\nwith `localeCompare`.',
    'Sort by name with `localeCompare`,\n\nignoring case.',
  );
  const reread = planOf(edited);
  assert.equal(
    reread.steps[1]?.intent.split('```')[0],
    'Reports list items in insertion order today, which makes them hard to compare. Sort by name with `localeCompare`,\n\nignoring case. The version printed by the Run line is used by step 3:\n\n',
  );
  assert.deepEqual(
    { ...reread, steps: reread.steps.map((s) => ({ ...s, intent: '' })) },
    { ...plan, steps: plan.steps.map((s) => ({ ...s, intent: '' })) },
  );
});

test('front matter values are quoted only when YAML needs it; absent ones are left out', () => {
  const plan: Plan = {
    version: 1,
    title: 'Fix: #12 - "quotes"',
    created: '2026-11-30T10:00:00.000Z',
    base: '1e34567',
    model: null,
    summary: '',
    steps: [{ number: 1, title: 'a', intent: '', files: [], run: [], verify: [], edits: '' }],
  };
  const text = renderPlan(plan);
  assert.equal(
    text,
    `---\naide_plan: 1\ntitle: 'Fix: #12 - "quotes"'\ncreated: 2026-11-30T10:00:00.000Z\nbase: "1e34567"\n---\n\n## Step 1: a\n`,
  );
  assert.deepEqual(planOf(text), plan);
});

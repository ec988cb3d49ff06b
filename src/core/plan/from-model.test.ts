import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planFromSubmission, type PlanMeta } from './from-model.js';

const META: PlanMeta = {
  created: '2026-12-01T10:00:00.000Z',
  base: '3f2a9c1b0d',
  model: 'qwen2.5-coder:14b',
  fallbackTitle: 'Add a remove command',
  file: '.aide/plans/add-remove.md',
};

const BODY = [
  'Add `remove` next to `add`, then test it.',
  '',
  '## Step 1: Add remove()',
  '',
  'Refuse a non-positive quantity.',
  '',
  'Files: src/inventory.js',
  '',
  '## Step 2: Test it',
  '',
  'Files: test/remove.test.js',
].join('\n');

test('a bare body gets the front matter aide fills in, the title from the task', () => {
  const result = planFromSubmission(BODY, META);
  assert.ok(result.ok);
  assert.equal(result.plan.title, 'Add a remove command');
  assert.equal(result.plan.created, META.created);
  assert.equal(result.plan.base, '3f2a9c1b0d');
  assert.equal(result.plan.model, 'qwen2.5-coder:14b');
  assert.deepEqual(
    result.plan.steps.map((s) => [s.number, s.title, s.files]),
    [
      [1, 'Add remove()', ['src/inventory.js']],
      [2, 'Test it', ['test/remove.test.js']],
    ],
  );
  assert.match(result.markdown, /^---\naide_plan: 1\ntitle: Add a remove command\ncreated: /);
  assert.ok(result.markdown.endsWith('Files: test/remove.test.js\n'));
});

test('a leading # Title line becomes the title and leaves the body', () => {
  const result = planFromSubmission(`# Remove stock from the inventory\n\n${BODY}`, META);
  assert.ok(result.ok);
  assert.equal(result.plan.title, 'Remove stock from the inventory');
  assert.doesNotMatch(result.markdown, /^# Remove/m);
});

test("the model's own front matter gives its title; aide writes the rest of it", () => {
  const submitted = `---\naide_plan: 7\ntitle: "Remove: the command"\ncreated: yesterday\n---\n${BODY}`;
  const result = planFromSubmission(submitted, META);
  assert.ok(result.ok);
  assert.equal(result.plan.title, 'Remove: the command');
  assert.equal(result.plan.created, META.created);
  assert.equal(result.plan.version, 1);
});

test('a plan wrapped in a ```markdown fence is read inside it', () => {
  const result = planFromSubmission(`\`\`\`markdown\n# Fenced\n\n${BODY}\n\`\`\`\n`, META);
  assert.ok(result.ok);
  assert.equal(result.plan.title, 'Fenced');
  assert.equal(result.plan.steps.length, 2);
});

test('edit blocks inside a step keep every byte, blank lines and trailing spaces included', () => {
  const edits = [
    '### Edits',
    '',
    'src/a.js',
    '```js',
    '<<<<<<< SEARCH',
    'a();  ',
    '',
    '',
    'b();',
    '=======',
    'a();',
    '>>>>>>> REPLACE',
    '```',
  ].join('\n');
  const result = planFromSubmission(`Summary.\n\n## Step 1: Edit\n\nFiles: src/a.js\n\n${edits}`, META);
  assert.ok(result.ok);
  assert.ok(result.plan.steps[0]?.edits.includes('a();  \n\n\nb();'));
});

test("a plan that does not parse goes back with the problem on the model's own line", () => {
  const broken = '# T\n\nSummary.\n\n## Step 2: First\n\nx\n\n## Step 1: Second\n\ny\n';
  const result = planFromSubmission(broken, META);
  assert.ok(!result.ok);
  assert.match(result.forModel, /nothing was written/);
  assert.match(result.forModel, /line 9: /);
  assert.match(result.forModel, /<submit_plan>/);
  assert.match(result.forUser, /did not parse/);
});

test('a plan without steps is refused', () => {
  const result = planFromSubmission('Just a summary, no steps.', META);
  assert.ok(!result.ok);
  assert.match(result.forModel, /step/i);
});

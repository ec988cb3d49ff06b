import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChangedFile } from '../../core/ports/changes.js';
import type { StepReview } from '../../core/ports/approval.js';
import { actEventJson } from './act.js';
import { approvalText } from './approval.js';
import { protectedQuestion, reviewHeader, reviewQuestion, stepDiff } from './review.js';
import { colorDiff, makeStyle } from './style.js';

const plain = makeStyle(false);
const color = makeStyle(true);

const CALC: ChangedFile = {
  path: 'src/calc.js',
  action: 'modified',
  added: 1,
  removed: 1,
  diff: 'diff --git a/src/calc.js b/src/calc.js\nindex 1111111..2222222 100644\n--- a/src/calc.js\n+++ b/src/calc.js\n@@ -1,3 +1,3 @@\n export function add(a, b) {\n-  return a + b;\n+  return b + a;\n }\n',
};
const TEST: ChangedFile = {
  path: 'test/calc.test.js',
  action: 'created',
  added: 2,
  removed: 0,
  diff: 'diff --git a/test/calc.test.js b/test/calc.test.js\nnew file mode 100644\n--- /dev/null\n+++ b/test/calc.test.js\n@@ -0,0 +1,2 @@\n+a\n+b\n',
};

function review(extra: Partial<StepReview> = {}): StepReview {
  return {
    step: 2,
    title: 'Swap operands',
    verdict: 'verified: 3 commands, 41 tests passed',
    files: [CALC],
    protectedFiles: [],
    ...extra,
  };
}

test('the menu stands under the verdict, then the files with their counts', () => {
  assert.equal(reviewHeader(review(), plain), 'verified: 3 commands, 41 tests passed\n  M src/calc.js +1 -1');
  assert.equal(reviewQuestion(review()), 'Write step 2 (Swap operands) into your files?');
});

test('each protected file gets a warning naming its rule, and the second question names the files', () => {
  const protectedFiles = [{ path: 'test/calc.test.js', rule: '**/test/**' }];
  const header = reviewHeader(review({ files: [CALC, TEST], protectedFiles }), plain);
  assert.equal(
    header.split('\n').at(-1),
    '! protected: test/calc.test.js (rule **/test/**): writing it takes a second, explicit yes',
  );
  assert.match(header, /\n {2}A test\/calc\.test\.js \+2 -0\n/);
  assert.equal(
    protectedQuestion(review({ protectedFiles })),
    'Write the protected file test/calc.test.js too? (no skips the step)',
  );
  const two = [...protectedFiles, { path: 'package.json', rule: '**/package.json#/scripts' }];
  assert.equal(
    protectedQuestion(review({ protectedFiles: two })),
    'Write the protected files test/calc.test.js, package.json too? (no skips the step)',
  );
});

test('the diff view lists the files with their counts, then each diff; no escape codes without color', () => {
  const text = stepDiff([CALC, TEST], plain);
  assert.ok(
    text.startsWith(
      '2 files changed\n  M src/calc.js +1 -1\n  A test/calc.test.js +2 -0\n\ndiff --git a/src/calc.js b/src/calc.js\n',
    ),
    text,
  );
  assert.ok(
    text.includes('\n-  return a + b;\n+  return b + a;\n }\n\ndiff --git a/test/calc.test.js'),
    text,
  );
  assert.ok(!text.includes('\u001b'), 'no escape codes');
});

test('colored: file headers bold, hunk headers cyan, added lines green, removed lines red, context plain', () => {
  const lines = colorDiff(CALC.diff.trimEnd(), color).split('\n');
  assert.equal(lines[0], '\u001b[1mdiff --git a/src/calc.js b/src/calc.js\u001b[22m');
  assert.equal(lines[1], 'index 1111111..2222222 100644');
  assert.equal(lines[2], '\u001b[1m--- a/src/calc.js\u001b[22m');
  assert.equal(lines[3], '\u001b[1m+++ b/src/calc.js\u001b[22m');
  assert.equal(lines[4], '\u001b[36m@@ -1,3 +1,3 @@\u001b[39m');
  assert.equal(lines[5], ' export function add(a, b) {');
  assert.equal(lines[6], '\u001b[31m-  return a + b;\u001b[39m');
  assert.equal(lines[7], '\u001b[32m+  return b + a;\u001b[39m');
  assert.ok(stepDiff([CALC], color).includes('M src/calc.js \u001b[32m+1\u001b[39m \u001b[31m-1\u001b[39m'));
});

test('a removed line that reads like a file header ("-- x") is colored as removed: the hunk says how long it is', () => {
  const diff =
    '--- a/notes.md\n+++ b/notes.md\n@@ -1,2 +1,1 @@\n--- a heading rule\n keep\n--- a/next.md\n+++ b/next.md\n@@ -1 +1 @@\n-x\n+y\n\\ No newline at end of file';
  const lines = colorDiff(diff, color).split('\n');
  assert.equal(lines[3], '\u001b[31m--- a heading rule\u001b[39m');
  assert.equal(
    lines[5],
    '\u001b[1m--- a/next.md\u001b[22m',
    'after the hunk, the next file header is a header again',
  );
  assert.equal(lines[10], '\\ No newline at end of file');
});

test('a step approval in words, for --json: the question, the verdict, each file, each protected file', () => {
  const subject = {
    kind: 'step' as const,
    step: 2,
    title: 'Swap operands',
    verdict: 'verified: 3 commands, 41 tests passed',
    files: [CALC, TEST].map((f) => ({ path: f.path, action: f.action, added: f.added, removed: f.removed })),
    protectedFiles: [{ path: 'test/calc.test.js', rule: '**/test/**' }],
  };
  const words = {
    question: 'Write step 2 (Swap operands) into your files?',
    details: [
      'verified: 3 commands, 41 tests passed',
      'M src/calc.js +1 -1',
      'A test/calc.test.js +2 -0',
      'protected: test/calc.test.js (**/test/**)',
    ],
  };
  assert.deepEqual(approvalText(subject), words);
  const line = JSON.parse(actEventJson({ type: 'approval_requested', subject })) as Record<string, unknown>;
  assert.deepEqual(line, { schema: 'aide.act.event/1', type: 'approval_requested', subject, ...words });
  const question = { kind: 'question' as const, question: 'Carry on?', details: ['the plan changed'] };
  assert.deepEqual(approvalText(question), { question: 'Carry on?', details: ['the plan changed'] });
});

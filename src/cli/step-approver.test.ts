import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StepReview } from '../core/ports/approval.js';
import type { ReviewChoice } from './render/review.js';
import { askStep, type StepPrompts } from './step-approver.js';

const REVIEW: StepReview = {
  step: 1,
  title: 'Add sub',
  verdict: 'verified: 1 command, 1 test passed',
  files: [],
  protectedFiles: [],
};
const PROTECTED: StepReview = { ...REVIEW, protectedFiles: [{ path: 'test/a.test.js', rule: '**/test/**' }] };

/** Answers the menu with `choices` in turn and the protected-file question with `sure`; records what was asked. */
function scripted(choices: Array<ReviewChoice | null>, sure: boolean | null = null) {
  const asked: string[] = [];
  const prompts: StepPrompts = {
    choose: () => {
      asked.push('menu');
      const next = choices.shift();
      assert.ok(next !== undefined, 'the menu was asked more often than expected');
      return Promise.resolve(next);
    },
    confirmProtected: () => {
      asked.push('protected?');
      return Promise.resolve(sure);
    },
    showDiff: () => {
      asked.push('diff');
      return Promise.resolve();
    },
  };
  return { prompts, asked };
}

test('Approve, Skip step and Abort are the decisions of the same name', async () => {
  assert.deepEqual(await askStep(REVIEW, scripted(['approve']).prompts), { kind: 'approve' });
  assert.deepEqual(await askStep(REVIEW, scripted(['skip']).prompts), {
    kind: 'skip',
    reason: 'you chose Skip step',
  });
  assert.deepEqual(await askStep(REVIEW, scripted(['abort']).prompts), { kind: 'abort' });
});

test('Show diff shows it and comes back to the same menu, as often as asked', async () => {
  const { prompts, asked } = scripted(['diff', 'diff', 'skip']);
  assert.deepEqual(await askStep(REVIEW, prompts), { kind: 'skip', reason: 'you chose Skip step' });
  assert.deepEqual(asked, ['menu', 'diff', 'menu', 'diff', 'menu']);
});

test('a cancelled menu (Ctrl-C, Escape) aborts', async () => {
  assert.deepEqual(await askStep(REVIEW, scripted([null]).prompts), { kind: 'abort' });
});

test('protected files: Approve asks again; yes approves, no skips, a cancelled question aborts', async () => {
  const yes = scripted(['approve'], true);
  assert.deepEqual(await askStep(PROTECTED, yes.prompts), { kind: 'approve' });
  assert.deepEqual(yes.asked, ['menu', 'protected?']);
  assert.deepEqual(await askStep(PROTECTED, scripted(['approve'], false).prompts), {
    kind: 'skip',
    reason: 'you did not approve writing its protected files',
  });
  assert.deepEqual(await askStep(PROTECTED, scripted(['approve'], null).prompts), { kind: 'abort' });
});

test('without protected files there is no second question', async () => {
  const { prompts, asked } = scripted(['approve'], false);
  assert.deepEqual(await askStep(REVIEW, prompts), { kind: 'approve' });
  assert.deepEqual(asked, ['menu']);
});

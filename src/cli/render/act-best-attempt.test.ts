import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StepReport } from '../../core/act-report.js';
import { bestAttemptText } from './act-best-attempt.js';
import { makeStyle } from './style.js';

const DIFF = 'diff --git a/a.js b/a.js\n--- a/a.js\n+++ b/a.js\n@@ -1 +1 @@\n-x\n+y\n';

function failed(extra: Partial<StepReport>): StepReport {
  return {
    number: 2,
    title: 'Fix it',
    status: 'failed',
    reason: 'failed verification — review carefully: …',
    files: [{ path: 'a.js', action: 'modified', added: 1, removed: 1, diff: DIFF }],
    protectedFiles: [],
    verify: null,
    checkpoint: null,
    patchFile: '/s/step-2-attempt-1.patch',
    output: null,
    ...extra,
  };
}

const BEST = {
  attempt: 1,
  made: 3,
  score: '1 failing command, 1 failing test',
  tail: 'Failing tests: t\nboom',
};

test('a best attempt: marked, which attempt, its patch file, its files and diff, and the tail only when asked', () => {
  const style = makeStyle(false);
  const text = bestAttemptText(failed({ bestAttempt: BEST }), style, { tail: true });
  assert.equal(
    text,
    'Step 2: Fix it — failed verification — review carefully: its best attempt is not written\n' +
      'attempt 1 of the 3 made (1 failing command, 1 failing test); its patch is saved in /s/step-2-attempt-1.patch\n' +
      '  M a.js +1 -1\n\n' +
      `${DIFF.trimEnd()}\n\n` +
      '│ Failing tests: t\n│ boom\n',
  );
  assert.doesNotMatch(bestAttemptText(failed({ bestAttempt: BEST }), style, { tail: false }), /│/);
});

test('a step without a best attempt shows nothing; one that changed no file says so', () => {
  const style = makeStyle(false);
  assert.equal(bestAttemptText(failed({}), style, { tail: true }), '');
  const none = bestAttemptText(failed({ bestAttempt: BEST, files: [], patchFile: null }), style, {
    tail: false,
  });
  assert.match(none, /\(1 failing command, 1 failing test\)\n\(it changed no file before it failed\)\n$/);
});

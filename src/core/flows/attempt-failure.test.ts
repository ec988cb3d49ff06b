/** A failed attempt for the model, ranked, and compared with the one before. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CommandReport, VerifyReport } from '../verify/report.js';
import type { AttemptFailure } from './act-types.js';
import {
  attemptScore,
  betterThan,
  failingTests,
  failureFingerprint,
  failureForModel,
} from './attempt-failure.js';

function failure(...tails: string[]): AttemptFailure {
  const commands = tails.map((tail, i): CommandReport => ({
    name: `c${i + 1}`,
    run: ['node', '--test'],
    status: 'failed',
    exitCode: 1,
    signal: null,
    durationMs: 5,
    tests: null,
    flaky: false,
    logPath: null,
    tail,
    runs: [],
  }));
  const verify = { verdict: 'failed', summary: 'failed: c1', commands } as unknown as VerifyReport;
  return { stage: 'verify', reason: 'failed: c1', verify };
}

test('failing test names from TAP and from the spec reporter, each once', () => {
  assert.deepEqual(
    failingTests('ok 1 - fine\nnot ok 2 - adds # time=3ms\n✖ subtracts (1.2ms)\nnot ok 2 - adds\n'),
    ['adds', 'subtracts'],
  );
  assert.deepEqual(failingTests('✖ failing tests:\n'), []);
});

test('the model gets the failing tests before the tail, and the tail is cut from its start', () => {
  const text = failureForModel(failure(`${'x'.repeat(2000)}\nnot ok 1 - adds\n`), 256);
  assert.match(text, /Failing tests: adds\nOutput \(last lines\):\n\[… earlier output cut\]/);
  assert.ok(text.endsWith('not ok 1 - adds'));
});

test('fewer failing commands first, then fewer failing tests; a tie keeps the earlier attempt', () => {
  const one = attemptScore(failure('not ok 1 - a\n'));
  const two = attemptScore(failure('not ok 1 - a\nnot ok 2 - b\n'));
  const commands = attemptScore(failure('not ok 1 - a\n', 'not ok 1 - a\n'));
  assert.ok(betterThan(one, two));
  assert.ok(betterThan(two, commands));
  assert.ok(!betterThan(one, one));
});

test('the same failure, durations aside, has one fingerprint; another value is another failure', () => {
  const a = failureFingerprint(failure('not ok 1 - a\n  duration_ms: 1.5\n8 !== 2\n'));
  const b = failureFingerprint(failure('not ok 1 - a\n  duration_ms: 3.25\n8 !== 2\n'));
  const c = failureFingerprint(failure('not ok 1 - a\n  duration_ms: 1.5\n15 !== 2\n'));
  assert.equal(a, b);
  assert.notEqual(a, c);
});

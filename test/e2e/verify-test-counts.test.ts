/**
 * Test counts through `aide verify`: a known runner's real output is counted and named, and a
 * command whose output aide does not recognise still passes or fails by its exit code alone,
 * with no count rather than a made-up one.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stripAnsi } from '../../src/shared/text.js';
import { avaTap, uvuPassing } from '../../src/core/verify/test-count-tap.fixtures.js';
import { runAide } from '../helpers/cli.js';
import { verifyJson, verifyRepo } from '../helpers/verify.js';

const UNKNOWN = 'Running 12 specs\nspec/a 4 ok\nDone: 12 ok\n';

test('uvu and AVA --tap outputs are counted; unknown output passes by its exit code, with no count', async (t) => {
  const root = verifyRepo(
    t,
    [
      { name: 'uvu', run: ['cat', 'uvu.txt'] },
      { name: 'ava', run: 'cat ava.txt; exit 0' },
      { name: 'custom', run: ['cat', 'unknown.txt'] },
    ],
    { flake_reruns: 0 },
    { 'uvu.txt': `${uvuPassing}\n`, 'ava.txt': `${stripAnsi(avaTap)}\n`, 'unknown.txt': UNKNOWN },
  );
  const { result, report } = await verifyJson(root);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(
    report.commands.map((c) => [c.name, c.status, c.tests]),
    [
      ['uvu', 'passed', { runner: 'uvu', passed: 2, failed: 0, skipped: 0, total: 2 }],
      ['ava', 'passed', { runner: 'tap', passed: 3, failed: 1, skipped: 2, total: 6 }],
      ['custom', 'passed', null],
    ],
  );
  const text = await runAide(['verify'], { cwd: root });
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /✓ uvu\s.*2 tests passed/);
});

test('unknown output of a failing command: exit 1, failed, no count', async (t) => {
  const root = verifyRepo(
    t,
    [{ name: 'custom', run: 'cat unknown.txt; exit 1' }],
    { flake_reruns: 0 },
    { 'unknown.txt': UNKNOWN },
  );
  const { result, report } = await verifyJson(root);
  assert.equal(result.code, 1, result.stderr);
  assert.deepEqual(
    report.commands.map((c) => [c.status, c.tests]),
    [['failed', null]],
  );
  assert.doesNotMatch(report.summary, /tests?/);
});

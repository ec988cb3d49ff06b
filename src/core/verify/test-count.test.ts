import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertLinear } from '../../../test/helpers/growth.js';
import { createTestCounter } from './test-count.js';
import * as sample from './test-count.fixtures.js';

/** Feeds every line of every output, in order, to one counter. */
function count(...outputs: string[]) {
  const counter = createTestCounter();
  for (const output of outputs) for (const line of output.split('\n')) counter.push(line);
  return counter.result();
}

const counts = (runner: string, passed: number, failed: number, skipped: number) => ({
  runner,
  passed,
  failed,
  skipped,
  total: passed + failed + skipped,
});

test('node:test TAP: the real summary counts, the decoy "# tests 3" a test logged does not', () => {
  assert.deepEqual(count(sample.nodeTap), counts('node:test', 3, 1, 2));
  // Cut off before the real summary (the run crashed): the decoy alone is not a summary.
  assert.equal(count(sample.nodeTap.split('\n').slice(0, 5).join('\n')), null);
});

test('node:test spec reporter: the ℹ summary counts', () => {
  assert.deepEqual(count(sample.nodeSpec), counts('node:test', 3, 1, 2));
});

test('node:test: a cancelled test (timeout) counts as failed', () => {
  assert.deepEqual(count(sample.nodeTapTimeout), counts('node:test', 0, 1, 0));
});

test('node:test after tsc and eslint in npm run check: only the test summary counts', () => {
  assert.deepEqual(count(sample.npmCheckPrefix, sample.nodeTap), counts('node:test', 3, 1, 2));
});

test('node:test run twice by a script: the two summaries are summed', () => {
  assert.deepEqual(count(sample.nodeTap, sample.nodeSpec), counts('node:test', 6, 2, 4));
});

test('node:test: "# pass N" lines without a "# tests N" block do not count', () => {
  assert.equal(count('# pass 40\n# fail 0\n# skipped 0'), null);
  assert.equal(count('ℹ pass 40\nℹ fail 0'), null);
});

test('node:test: a block whose outcomes do not add up to its tests is not a summary', () => {
  assert.equal(count('# tests 3\n# pass 2\n# fail 0\n# duration_ms 5'), null);
  assert.deepEqual(
    count('# tests 3\n# pass 2\n# fail 0\n# skipped 1\n# duration_ms 5'),
    counts('node:test', 2, 0, 1),
  );
});

test('node:test: a block needs tests, pass and fail', () => {
  assert.equal(count('# tests 0\n# suites 0\n# duration_ms 5'), null);
  assert.deepEqual(
    count('# tests 0\n# suites 0\n# pass 0\n# fail 0\n# duration_ms 5'),
    counts('node:test', 0, 0, 0),
  );
});

test('node:test: a stray line inside the block (stderr of another process) does not break it', () => {
  assert.deepEqual(
    count('# tests 2\n# suites 0\nnpm warn something\n# pass 1\n# fail 1\n# duration_ms 5'),
    counts('node:test', 1, 1, 0),
  );
});

test('node:test: an indented or re-prefixed summary of a nested run does not count', () => {
  assert.equal(count('    # tests 2\n    # pass 2\n    # fail 0'), null);
  assert.equal(count('# # tests 2\n# # pass 2\n# # fail 0'), null);
});

test('node:test: a field out of order closes the block, and a lone "pass" after it is ignored', () => {
  assert.deepEqual(
    count('# tests 1\n# suites 0\n# pass 1\n# fail 0\n# pass 7'),
    counts('node:test', 1, 0, 0),
  );
});

test('mocha\'s TAP reporter prints three of those lines (never node\'s "# suites"): counted as tap', () => {
  assert.deepEqual(count('ok 1 adds\nnot ok 2 fails\n# tests 2\n# pass 1\n# fail 1'), counts('tap', 1, 1, 0));
});

test('jest: failed, skipped, todo and passed; todo counts as skipped', () => {
  assert.deepEqual(count(sample.jest), counts('jest', 40, 1, 3));
  assert.deepEqual(count(sample.jestPassing), counts('jest', 2, 0, 0));
});

test('jest: "N of M total" when some suites did not run, and "0 total"', () => {
  assert.deepEqual(count('Tests:       1 failed, 4 passed, 5 of 44 total'), counts('jest', 4, 1, 0));
  assert.deepEqual(count('Tests:       0 total'), counts('jest', 0, 0, 0));
});

test('vitest: the Tests line counts, the Test Files line does not', () => {
  assert.deepEqual(count(sample.vitest), counts('vitest', 39, 1, 2));
  assert.deepEqual(count(sample.vitestPassing), counts('vitest', 40, 0, 0));
  assert.equal(count(' Test Files  1 failed | 1 passed (2)'), null);
});

test('vitest: todo is skipped, expected fail is passed, "no tests" is zero', () => {
  assert.deepEqual(
    count('      Tests  3 passed | 1 expected fail | 1 skipped | 2 todo (7)'),
    counts('vitest', 4, 0, 3),
  );
  assert.deepEqual(count('      Tests  no tests'), counts('vitest', 0, 0, 0));
});

test('mocha: passing, pending and failing lines of the epilogue', () => {
  assert.deepEqual(count(sample.mocha), counts('mocha', 40, 1, 2));
  assert.deepEqual(count(sample.mochaPassing), counts('mocha', 2, 0, 0));
});

test('mocha: failing without pending, at the end of the output, and with a blank line between', () => {
  assert.deepEqual(count('  3 passing (1m)\n  2 failing'), counts('mocha', 3, 2, 0));
  assert.deepEqual(count('  3 passing (150ms)\n\n  1 pending'), counts('mocha', 3, 0, 1));
});

test('mocha: a pending or failing line not right after the passing line is not part of it', () => {
  assert.deepEqual(count('  3 passing (5ms)\nsome log\n  2 failing'), counts('mocha', 3, 0, 0));
  assert.equal(count('  2 failing\n  1 pending'), null);
});

test('pytest: xfailed is skipped; a test\'s own "1 passed" in captured output does not count', () => {
  assert.deepEqual(count(sample.pytest), counts('pytest', 40, 1, 3));
});

test('pytest: errors are failures, xpassed is passed, deselected and warnings are not tests', () => {
  assert.deepEqual(count(sample.pytestErrors), counts('pytest', 11, 2, 0));
});

test('pytest: the quiet line, "no tests ran", and the "seconds" of pytest 5', () => {
  assert.deepEqual(count(sample.pytestQuiet), counts('pytest', 40, 0, 0));
  assert.deepEqual(count(sample.pytestNoTests), counts('pytest', 0, 0, 0));
  assert.deepEqual(count('==== 2 passed, 1 error in 0.31 seconds ===='), counts('pytest', 2, 1, 0));
});

test("pytest: a plugin's word is ignored in the ruled line, but makes a quiet-looking line not a summary", () => {
  assert.deepEqual(count('===== 1 failed, 3 passed, 1 rerun in 0.40s ====='), counts('pytest', 3, 1, 0));
  assert.equal(count('3 files in 2.1s'), null);
  assert.equal(count('compiled 3 passed in 0.1s'), null);
});

test('go -v: top-level results count, indented subtests do not', () => {
  assert.deepEqual(count(sample.goVerbose), counts('go', 2, 1, 1));
});

test('go without -v names only failures, so nothing is counted', () => {
  assert.equal(count(sample.goQuiet), null);
});

test('cargo: one summary per test binary and the doc-tests, summed; ignored is skipped', () => {
  assert.deepEqual(count(sample.cargo), counts('cargo', 5, 0, 1));
  assert.deepEqual(count(sample.cargoFailing), counts('cargo', 1, 1, 0));
  assert.deepEqual(count(sample.cargo, sample.cargoFailing), counts('cargo', 6, 1, 1));
});

test('several runners in one command are summed and named after the one with most tests', () => {
  assert.deepEqual(count(sample.jestPassing, sample.pytest), { ...counts('pytest', 42, 1, 3) });
  assert.deepEqual(count(sample.pytest, sample.jestPassing), { ...counts('pytest', 42, 1, 3) });
  // A tie goes to the runner counted first.
  assert.equal(count(sample.jestPassing, '  2 passing (5ms)')?.runner, 'jest');
  assert.equal(count('  2 passing (5ms)', sample.jestPassing)?.runner, 'mocha');
});

test('output with no summary, or log lines that merely mention results, counts nothing', () => {
  const lines = [
    '1 passed',
    '40 passing',
    '  40 passing',
    'Tests: 3 passed',
    'Tests 3 passed',
    '[0] Tests:       2 passed, 2 total',
    'INFO test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out',
    '--- PASS: TestX (0.00s)',
    'src/a.ts(3,1): error TS2304: Cannot find name "x".',
    '# pass 3',
    '',
  ];
  assert.equal(count(lines.join('\n')), null);
  assert.equal(count(''), null);
});

test('a carriage return: only the text after the last one is read, and a trailing one is ignored', () => {
  assert.deepEqual(count('running 3/3\r  3 passing (4ms)'), counts('mocha', 3, 0, 0));
  assert.deepEqual(
    count('# tests 1\r\n# suites 0\r\n# pass 1\r\n# fail 0\r\n'),
    counts('node:test', 1, 0, 0),
  );
});

test('result() can be read mid-stream, changes nothing, and counting goes on after it', () => {
  const counter = createTestCounter();
  for (const line of ['# tests 2', '# suites 0', '# pass 2', '# fail 0']) counter.push(line);
  assert.deepEqual(counter.result(), counts('node:test', 2, 0, 0));
  assert.deepEqual(counter.result(), counts('node:test', 2, 0, 0));
  for (const line of [
    '# duration_ms 3',
    'test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out',
  ])
    counter.push(line);
  assert.deepEqual(counter.result(), counts('node:test', 3, 0, 0));
});

test('a long output of unrelated lines is read in linear time and counts nothing', () => {
  assertLinear('stack-frame lines', (scale) => {
    const lines = Array.from(
      { length: 5_000 * scale },
      (_, i) => `    at frame ${i} (file:///x.js:${i}:1) 1 passed # tests ${i}`,
    );
    return () => {
      const counter = createTestCounter();
      for (const line of lines) counter.push(line);
      assert.equal(counter.result(), null);
    };
  });
});

test('near-miss lines thousands of characters long do not make the patterns backtrack for long', () => {
  // Backtracking grows with a line's length: 8× longer lines must cost about 8× the time.
  assertLinear('near-miss summary lines', (scale) => {
    const n = 250 * scale;
    const lines = [
      '1 passed, '.repeat(n),
      `=== ${'1 a b, '.repeat(n)} ===`,
      `Tests:       ${'1 failed, '.repeat(n)}`,
      `      Tests  ${'1 failed | '.repeat(n)}`,
      `  ${'1'.repeat(2 * n)} passing (`,
    ];
    return () => {
      const counter = createTestCounter();
      for (let i = 0; i < 100; i++) for (const line of lines) counter.push(line);
      assert.equal(counter.result(), null);
    };
  });
});

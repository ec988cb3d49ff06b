/**
 * The counter on real outputs of more runners (test-count.test.ts has node:test, jest, vitest,
 * mocha, pytest, go and cargo, and the rules all runners share).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertLinear } from '../../../test/helpers/growth.js';
import { stripAnsi } from '../../shared/text.js';
import { createTestCounter } from './test-count.js';
import * as js from './test-count-js.fixtures.js';
import * as native from './test-count-native.fixtures.js';
import * as tap from './test-count-tap.fixtures.js';

/** Feeds every line of every output to one counter, ANSI stripped as the command runner does. */
function count(...outputs: string[]) {
  const counter = createTestCounter();
  for (const output of outputs) for (const line of stripAnsi(output).split('\n')) counter.push(line);
  return counter.result();
}

const counts = (runner: string, passed: number, failed: number, skipped: number) => ({
  runner,
  passed,
  failed,
  skipped,
  total: passed + failed + skipped,
});

test('uvu: Total, Passed and Skipped lines; failures are Total − Passed; colored or not', () => {
  assert.deepEqual(count(tap.uvu), counts('uvu', 4, 1, 1));
  assert.deepEqual(count(tap.uvuPassing), counts('uvu', 2, 0, 0));
  assert.deepEqual(count(tap.uvu, tap.uvuPassing), counts('uvu', 6, 1, 1));
});

test('uvu: the three lines must follow one another, and Passed cannot exceed Total', () => {
  assert.equal(count('  Total:     5\n  Passed:    4'), null);
  assert.equal(count('  Total:     5\nlog line\n  Passed:    4\n  Skipped:   1'), null);
  assert.equal(count('  Total:     3\n  Passed:    4\n  Skipped:   0'), null);
});

test('AVA default reporter: counted when green; a failure hides the passed count, so nothing is counted', () => {
  assert.deepEqual(count(tap.avaPassing), counts('ava', 1, 0, 0));
  assert.equal(count(tap.ava), null);
  assert.deepEqual(
    count('  ─\n\n  3 tests passed\n  1 known failure\n  2 tests skipped\n  1 test todo'),
    counts('ava', 4, 0, 3),
  );
  assert.equal(count('  3 tests passed'), null);
});

test('AVA --tap: todo tests are inside "# fail" and come out through the plan, not as failures', () => {
  // 6 tests: adds, one and a known failure pass; subtracts fails; one skip, one todo.
  assert.deepEqual(count(tap.avaTap), counts('tap', 3, 1, 2));
  // Without the plan the todo tests cannot be told from failures: no count.
  assert.equal(count(tap.avaTap.replace(/^1\.\.6$/m, '')), null);
});

test('mocha: the real spec reporter, and its TAP reporter (pending tests are not in the TAP summary)', () => {
  assert.deepEqual(count(tap.mochaReal), counts('mocha', 1, 1, 1));
  assert.deepEqual(count(tap.mochaTap), counts('tap', 1, 1, 0));
});

test('node-tap: the root counts comment, from the TAP stream or the base reporter', () => {
  assert.deepEqual(count(tap.nodeTap), counts('node-tap', 4, 1, 2));
  assert.deepEqual(count(tap.nodeTapBase), counts('node-tap', 4, 1, 2));
  assert.deepEqual(count('# { total: 3, pass: 3 }'), counts('node-tap', 3, 0, 0));
  assert.equal(count('# { total: 3, pass: 2 }'), null);
  assert.equal(count('    # { total: 3, pass: 3 }'), null);
});

test('bun test: pass, fail, skip and todo lines closed by the Ran line, colored or not', () => {
  assert.deepEqual(count(js.bun), counts('bun', 2, 1, 2));
  assert.deepEqual(count(js.bunColor), counts('bun', 2, 1, 2));
  assert.deepEqual(count(js.bunPassing), counts('bun', 1, 0, 0));
  assert.deepEqual(
    count(' 1 pass\n 4 filtered out\n 0 fail\n 1 expect() calls\nRan 1 test across 2 files. [6.00ms]'),
    counts('bun', 1, 0, 0),
  );
});

test('bun test: a Ran line that does not match the outcomes, or a stray line inside, counts nothing', () => {
  assert.equal(count(' 2 pass\n 0 fail\nRan 3 tests across 1 file. [1.00ms]'), null);
  assert.equal(count(' 2 pass\nsomething else\n 0 fail\nRan 2 tests across 1 file. [1.00ms]'), null);
  assert.equal(count('Ran 2 tests across 1 file. [1.00ms]'), null);
});

test('deno test: the ok/FAILED line; steps are not tests', () => {
  assert.deepEqual(count(js.deno), counts('deno', 3, 1, 1));
  assert.deepEqual(count(js.denoPlain), counts('deno', 3, 1, 1));
  assert.deepEqual(count(js.denoPassing), counts('deno', 1, 0, 0));
  assert.deepEqual(count('ok | 1 passed | 0 failed | 4 filtered out (213ms)'), counts('deno', 1, 0, 0));
});

test('Maven Surefire: the totals under Results count, the per-class lines do not', () => {
  assert.deepEqual(count(native.maven), counts('maven', 2, 2, 1));
  assert.deepEqual(count(native.mavenPassing), counts('maven', 3, 0, 1));
  assert.deepEqual(count(native.mavenColor), counts('maven', 3, 0, 1));
  assert.equal(
    count('[INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.004 s -- in demo.OkTest'),
    null,
  );
  assert.equal(count('Tests run: 1, Failures: 2, Errors: 0, Skipped: 0'), null);
});

test('CTest: skipped tests leave the passed count, disabled ones are added as skipped', () => {
  assert.deepEqual(count(native.ctest), counts('ctest', 2, 1, 2));
  assert.deepEqual(count(native.ctestPassing), counts('ctest', 1, 0, 0));
});

test('RSpec: the totals line right after "Finished in"; load errors count as failures', () => {
  assert.deepEqual(count(native.rspec), counts('rspec', 2, 1, 1));
  assert.deepEqual(count(native.rspecLoadError), counts('rspec', 0, 1, 0));
  assert.equal(count('4 examples, 1 failure, 1 pending'), null);
});

test('minitest and PHPUnit: totals minus failures, errors and skips', () => {
  assert.deepEqual(count(native.minitest), counts('minitest', 3, 1, 1));
  assert.deepEqual(count(native.phpunit), counts('phpunit', 1, 2, 2));
  assert.deepEqual(count(native.phpunitPassing), counts('phpunit', 5, 0, 0));
  assert.deepEqual(
    count('Tests: 3, Assertions: 3, Risky: 1, PHPUnit Deprecations: 2.'),
    counts('phpunit', 3, 0, 0),
  );
});

test('PHPUnit: Warnings (an outcome before 10, an issue after) or an unknown word: no count', () => {
  assert.equal(count('Tests: 3, Assertions: 3, Warnings: 1.'), null);
  assert.equal(count('Tests: 3, Assertions: 3, Surprises: 1.'), null);
  assert.equal(count('Tests: 1, Assertions: 1, Failures: 2.'), null);
});

test('Gradle: "N tests completed, F failed, S skipped", printed only when a test failed', () => {
  assert.deepEqual(count(native.gradle), counts('gradle', 9, 1, 2));
  assert.deepEqual(count('1 test completed, 1 failed'), counts('gradle', 0, 1, 0));
});

test('dotnet test: one line per test project, summed; a total that does not add up is not counted', () => {
  assert.deepEqual(count(native.dotnet), counts('dotnet', 40, 1, 1));
  assert.equal(count('Passed!  - Failed:     0, Passed:     3, Skipped:     0, Total:     4'), null);
});

test('dotnet test on Microsoft.Testing.Platform: the summary block, checked against its total', () => {
  assert.deepEqual(count(native.dotnetMtp), counts('dotnet', 411, 1, 3));
  assert.deepEqual(
    count(
      'Test run summary: Passed!\n  total: 12\n  failed: 0\n  succeeded: 12\n  skipped: 0\n  duration: 2s 552ms',
    ),
    counts('dotnet', 12, 0, 0),
  );
  assert.equal(
    count('Test run summary: Passed!\n  total: 12\n  failed: 0\n  succeeded: 11\n  skipped: 0'),
    null,
  );
  assert.equal(
    count('Test run summary: Passed!\n  total: 12\nsomething else\n  failed: 0\n  succeeded: 12'),
    null,
  );
});

test("zig: the Build Summary tests part, and zig test's own lines", () => {
  assert.deepEqual(count(native.zigBuild), counts('zig', 10, 1, 1));
  assert.deepEqual(count(native.zigTest), counts('zig', 1, 1, 1));
  assert.deepEqual(count('All 3 tests passed.'), counts('zig', 3, 0, 0));
  assert.equal(count('Build Summary: 3/3 steps succeeded'), null);
  assert.equal(count('Build Summary: 3/5 steps succeeded; 1 failed; 10/12 tests passed; 1 failed'), null);
});

test('output of a runner aide does not know counts nothing, so the exit code alone decides', () => {
  const unknown = [
    'Running 12 specs',
    'spec/a ✓ 4 ok',
    'spec/b ✗ 1 failed',
    'Done: 11 ok, 1 failed',
    '  Passed:    4',
    '  Skipped:   1',
  ];
  assert.equal(count(unknown.join('\n')), null);
});

test('jest, vitest, cargo and pytest, captured from the real runners, count as their source-written samples do', () => {
  assert.deepEqual(count(js.jestReal), counts('jest', 2, 1, 2));
  // 1 passed + 1 expected fail (a test.fails whose failure was asserted) are passes.
  assert.deepEqual(count(js.vitestReal), counts('vitest', 2, 1, 2));
  assert.deepEqual(count(native.cargoReal), counts('cargo', 1, 1, 1));
  // Unit tests and the doc-test binary, summed.
  assert.deepEqual(count(native.cargoRealPassing), counts('cargo', 3, 0, 1));
  // 1 failed + 1 fixture error are failures; the skip and the xfail did not run to a verdict.
  assert.deepEqual(count(native.pytestReal), counts('pytest', 1, 2, 2));
  assert.deepEqual(count(native.pytestRealQuiet), counts('pytest', 1, 2, 2));
});

test('near-miss lines thousands of characters long do not make the new patterns backtrack for long', () => {
  // Backtracking grows with a line's length: 8× longer lines must cost about 8× the time.
  assertLinear('near-miss summary lines', (scale) => {
    const n = 125 * scale;
    const lines = [
      `Tests: 5, Assertions: 2${', Errors Errors Errors: 1'.repeat((4 * n) / 5)}`,
      `Tests: 5, Assertions: 2, ${'A '.repeat(3 * n)}`,
      `FAILED | 3 passed${' (2 steps)'.repeat(n)}`,
      `Build Summary: 3/5 steps succeeded${'; 1 skipped'.repeat(n)}`,
      `# { total: 7, pass: 4${', fail: 1'.repeat(n)}`,
      ` ${'1'.repeat(5 * n)} expect() calls`,
      `Passed!  - Failed: ${' '.repeat(5 * n)}x`,
      `  ${'1'.repeat(4 * n)} tests passed x`,
      `\t  3 - ${'('.repeat(4 * n)}`,
    ];
    return () => {
      const counter = createTestCounter();
      for (let i = 0; i < 100; i++) for (const line of lines) counter.push(line);
      assert.equal(counter.result(), null);
    };
  });
});

/**
 * Summaries of the test runners of other languages: pytest, go test, cargo test, RSpec,
 * minitest, PHPUnit, Maven Surefire, Gradle, CTest, dotnet test (VSTest and Microsoft.Testing.Platform)
 * and zig.
 */
import {
  fromTotal,
  lineDetector,
  NONE,
  tallyParts,
  type Add,
  type Counts,
  type Detector,
  type Words,
} from './test-count-detector.js';
import type { TestRunnerName } from './report.js';

type Found = readonly [TestRunnerName, Counts] | null;

/**
 * pytest's last line: `===== 1 failed, 40 passed, 2 skipped, 1 xfailed in 0.52s =====`, without
 * the rule under -q, "in 75.10s (0:01:15)" past a minute, "in 0.52 seconds" before pytest 6.
 * Counted like pytest's own JUnit XML: xfailed is skipped (a known bug, not run to a verdict),
 * xpassed is passed, an error (fixture, setup or collection) is a failure; a test that fails and
 * then errors in teardown is counted twice, as pytest prints it. deselected tests were not part
 * of the run; warnings are not tests. Words from plugins (`1 rerun`) are ignored in the ruled
 * line; the quiet line must use only pytest's own words, as it has no rule to anchor it.
 */
const PYTEST_PART = '\\d+ [a-z]+(?: [a-z]+)?';
const PYTEST_BODY = `(${PYTEST_PART}(?:, ${PYTEST_PART})*|no tests ran)`;
const PYTEST_TIME = ' in \\d+(?:\\.\\d+)?(?:s| seconds)(?: \\([^()]*\\))?';
const PYTEST_RULED = new RegExp(`^=+ ${PYTEST_BODY}${PYTEST_TIME} =+$`);
const PYTEST_QUIET = new RegExp(`^${PYTEST_BODY}${PYTEST_TIME}$`);
const PYTEST_WORDS: Words = {
  passed: 'passed',
  xpassed: 'passed',
  failed: 'failed',
  error: 'failed',
  errors: 'failed',
  skipped: 'skipped',
  xfailed: 'skipped',
  deselected: null,
  warning: null,
  warnings: null,
};

function pytestCounts(line: string): Counts | null {
  const ruled = PYTEST_RULED.exec(line)?.[1];
  const body = ruled ?? PYTEST_QUIET.exec(line)?.[1];
  if (body === undefined) return null;
  if (body === 'no tests ran') return NONE;
  return tallyParts(body, PYTEST_WORDS, ruled === undefined);
}

/**
 * cargo test (libtest), one line per test binary and one for doc-tests; "measured" are
 * benchmarks and "filtered out" were not selected, so neither is a test of this run.
 */
const CARGO =
  /^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; \d+ measured; \d+ filtered out(?:; finished in \d+(?:\.\d+)?s)?$/;

/**
 * minitest: `5 runs, 9 assertions, 1 failures, 1 errors, 1 skips` (Minitest::SummaryReporter,
 * always plural). Runs include the failed, errored and skipped ones.
 */
const MINITEST = /^(\d+) runs, \d+ assertions, (\d+) failures, (\d+) errors, (\d+) skips$/;

/**
 * PHPUnit: `OK (5 tests, 10 assertions)` when all passed, else (after FAILURES! or "OK, but
 * …") `Tests: 5, Assertions: 2, Errors: 1, Failures: 1, Skipped: 1, Incomplete: 1.` (samples
 * from PHPUnit result-printer test fixtures). Tests counts every test once; errors and failures
 * failed, skipped and incomplete did not run to a verdict. Risky tests, deprecations, notices and
 * PHPUnit's own issues do not change an outcome. "Warnings" is an outcome before PHPUnit 10 and
 * an issue of a passed test from 10 on, so a line that has them is not counted.
 */
const PHPUNIT_OK = /^OK \((\d+) tests?, \d+ assertions?\)$/;
const PHPUNIT_TOTALS = /^Tests: (\d+), Assertions: \d+((?:, [A-Z][A-Za-z ]+: \d+)*)\.$/;
const PHPUNIT_WORDS: Readonly<Record<string, 'failed' | 'skipped' | null>> = {
  Errors: 'failed',
  Failures: 'failed',
  Skipped: 'skipped',
  Incomplete: 'skipped',
  Risky: null,
  Deprecations: null,
  Notices: null,
  'PHPUnit Deprecations': null,
  'PHPUnit Notices': null,
  'PHPUnit Warnings': null,
};

function phpunitCounts(line: string): Counts | null {
  const ok = PHPUNIT_OK.exec(line)?.[1];
  if (ok !== undefined) return { passed: Number(ok), failed: 0, skipped: 0 };
  const totals = PHPUNIT_TOTALS.exec(line);
  if (!totals) return null;
  let failed = 0;
  let skipped = 0;
  for (const [, word = '', count] of (totals[2] ?? '').matchAll(/, ([A-Z][A-Za-z ]+): (\d+)/g)) {
    const field = PHPUNIT_WORDS[word];
    if (field === undefined) return null;
    if (field === 'failed') failed += Number(count);
    if (field === 'skipped') skipped += Number(count);
  }
  return fromTotal(Number(totals[1]), failed, skipped);
}

/**
 * Maven Surefire and Failsafe: the totals under "Results:", one per module, e.g.
 * `[ERROR] Tests run: 5, Failures: 1, Errors: 1, Skipped: 1` (captured from surefire 3.2.5 with
 * JUnit 5; `, Flakes: N` with reruns; no `[LEVEL]` before surefire 3). The per-class lines end in
 * ", Time elapsed: …" and are not counted, as the totals already hold them.
 */
const SUREFIRE =
  /^(?:\[(?:INFO|WARNING|ERROR)\] )?Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(?:, Flakes: \d+)?$/;

/**
 * Gradle's TestCountLogger (gradle/gradle, testing-base-infrastructure) logs
 * `6659 tests completed, 1 failed, 2 skipped` at the end of a test task only when a test failed;
 * a green run prints no count. The total includes the skipped tests.
 */
const GRADLE = /^(\d+) tests? completed, (\d+) failed(?:, (\d+) skipped)?$/;

/**
 * dotnet test (VSTest console logger), one line per test project:
 * `Passed!  - Failed:     0, Passed:    31, Skipped:     0, Total:    31, Duration: 369 ms - X.dll (net10.0)`.
 */
const DOTNET =
  /^ *(?:Passed|Failed)! +- Failed: +(\d+), Passed: +(\d+), Skipped: +(\d+), Total: +(\d+)(?:, Duration: .*)?$/;

/**
 * zig: `zig test` prints `All 3 tests passed.` or `2 passed; 1 skipped; 1 failed.`
 * (lib/compiler/test_runner.zig mainTerminal); `zig build test` prints a Build Summary line with
 * `; 10/12 tests passed; 1 skipped; 1 failed` only on failure or with --summary
 * (lib/compiler/build_runner.zig). The "skipped"/"failed" right after "steps succeeded" are steps.
 */
const ZIG_ALL = /^All (\d+) tests passed\.$/;
const ZIG_SOME = /^(\d+) passed; (\d+) skipped; (\d+) failed\.$/;
const ZIG_BUILD =
  /^Build Summary: \d+\/\d+ steps succeeded(?:; \d+ skipped)?(?:; \d+ failed)?; (\d+)\/(\d+) tests passed(?:; (\d+) skipped)?(?:; (\d+) failed)?(?:; \d+ leaked)?$/;

function zigCounts(line: string): Counts | null {
  const all = ZIG_ALL.exec(line)?.[1];
  if (all !== undefined) return { passed: Number(all), failed: 0, skipped: 0 };
  const some = ZIG_SOME.exec(line);
  if (some) return { passed: Number(some[1]), failed: Number(some[3]), skipped: Number(some[2]) };
  const build = ZIG_BUILD.exec(line);
  if (!build) return null;
  const [passed, total, skipped, failed] = [build[1], build[2], build[3], build[4]].map((value) =>
    Number(value ?? 0),
  ) as [number, number, number, number];
  return passed + skipped + failed === total ? { passed, failed, skipped } : null;
}

/** Every summary above has a number in it: a line without a digit skips all of them at once. */
const DIGIT = /\d/;

function nativeSummary(line: string): Found {
  // A command's output runs past this line by line, up to gigabytes of it, and most lines are
  // no summary.
  if (!DIGIT.test(line)) return null;
  const cargo = CARGO.exec(line);
  if (cargo)
    return ['cargo', { passed: Number(cargo[1]), failed: Number(cargo[2]), skipped: Number(cargo[3]) }];
  const pytest = pytestCounts(line);
  if (pytest) return ['pytest', pytest];
  const minitest = MINITEST.exec(line);
  const minitestCounts =
    minitest &&
    fromTotal(Number(minitest[1]), Number(minitest[2]) + Number(minitest[3]), Number(minitest[4]));
  if (minitestCounts) return ['minitest', minitestCounts];
  const phpunit = phpunitCounts(line);
  if (phpunit) return ['phpunit', phpunit];
  const surefire = SUREFIRE.exec(line);
  const surefireCounts =
    surefire &&
    fromTotal(Number(surefire[1]), Number(surefire[2]) + Number(surefire[3]), Number(surefire[4]));
  if (surefireCounts) return ['maven', surefireCounts];
  const gradle = GRADLE.exec(line);
  const gradleCounts = gradle && fromTotal(Number(gradle[1]), Number(gradle[2]), Number(gradle[3] ?? 0));
  if (gradleCounts) return ['gradle', gradleCounts];
  const dotnet = DOTNET.exec(line);
  const [failed, passed, skipped, total] = (dotnet?.slice(1) ?? []).map(Number);
  if (
    dotnet &&
    passed !== undefined &&
    failed !== undefined &&
    skipped !== undefined &&
    total === passed + failed + skipped
  )
    return ['dotnet', { passed, failed, skipped }];
  const zig = zigCounts(line);
  return zig && ['zig', zig];
}

export function nativeLineDetector(): Detector {
  return lineDetector(nativeSummary);
}

// ---------------------------------------------------------------------------------------------
// go test: only `go test -v` names each test. Top-level results are at column 0; subtests are
// indented four spaces per level and are not counted (their parent's line already is).
// Without -v go prints `--- FAIL:` lines but nothing for passing tests, so counting then would
// report "1 failed, 0 passed": nothing is reported for go unless a `=== RUN` line showed -v.
// ---------------------------------------------------------------------------------------------

const GO_RUN = /^=== RUN {3}\S/;
const GO_RESULT = /^--- (PASS|FAIL|SKIP): \S+ \(\d+\.\d+s\)$/;

export function goDetector(): Detector {
  let verbose = false;
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  return {
    push(line) {
      if (GO_RUN.test(line)) verbose = true;
      const result = GO_RESULT.exec(line)?.[1];
      if (result === 'PASS') counts.passed++;
      else if (result === 'FAIL') counts.failed++;
      else if (result === 'SKIP') counts.skipped++;
    },
    flush(add) {
      if (verbose && counts.passed + counts.failed + counts.skipped > 0) add('go', { ...counts });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// RSpec: `3 examples, 1 failure, 1 pending` right after `Finished in 0.01 seconds (files took
// 0.1 seconds to load)` (rspec-core's Summary#totals_line; "N errors occurred outside of
// examples" when a file failed to load, counted as failures like pytest's collection errors).
// Examples include the failed and pending ones.
// ---------------------------------------------------------------------------------------------

const RSPEC_FINISHED = /^Finished in \S+ (?:seconds?|minutes?)/;
const RSPEC_TOTALS =
  /^(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?(?:, (\d+) errors? occurred outside of examples)?$/;

export function rspecDetector(): Detector {
  let finished = false;
  return {
    push(line, add) {
      const after = finished;
      finished = RSPEC_FINISHED.test(line);
      const totals = after ? RSPEC_TOTALS.exec(line) : null;
      if (!totals) return;
      const [examples, failures, pending, outside] = totals.slice(1).map((value) => Number(value ?? 0)) as [
        number,
        number,
        number,
        number,
      ];
      const counts = fromTotal(examples, failures, pending);
      if (counts) add('rspec', { ...counts, failed: counts.failed + outside });
    },
    flush() {
      // One line closes the summary.
    },
  };
}

// ---------------------------------------------------------------------------------------------
// CTest (captured from ctest 3.25): `75% tests passed, 1 tests failed out of 4`, then, when some
// did not run, `The following tests did not run:` and lines `	  3 - divides (Skipped)`. The
// "out of" total holds skipped tests (as passed!) but not disabled ones, so the list is read
// before counting: skipped ones move from passed to skipped, disabled ones are added as skipped.
// ---------------------------------------------------------------------------------------------

const CTEST = /^\d+% tests passed, (\d+) tests? failed out of (\d+)$/;
const CTEST_DID_NOT_RUN = 'The following tests did not run:';
const CTEST_NOT_RUN = /^\t\s*\d+ - .* \((Skipped|Disabled)\)$/;

interface CtestBlock {
  failed: number;
  total: number;
  skipped: number;
  disabled: number;
  listing: boolean;
}

function ctestCounts(block: CtestBlock): Counts | null {
  const counts = fromTotal(block.total, block.failed, block.skipped);
  return counts && { ...counts, skipped: counts.skipped + block.disabled };
}

export function ctestDetector(): Detector {
  let block: CtestBlock | null = null;
  const emit = (add: Add) => {
    const counts = block && ctestCounts(block);
    if (counts) add('ctest', counts);
  };
  return {
    push(line, add) {
      const summary = CTEST.exec(line);
      if (summary) {
        emit(add);
        block = {
          failed: Number(summary[1]),
          total: Number(summary[2]),
          skipped: 0,
          disabled: 0,
          listing: false,
        };
        return;
      }
      if (!block) return;
      if (line === CTEST_DID_NOT_RUN) {
        block.listing = true;
        return;
      }
      const notRun = block.listing ? CTEST_NOT_RUN.exec(line)?.[1] : undefined;
      if (notRun === 'Skipped') block.skipped++;
      else if (notRun === 'Disabled') block.disabled++;
      else if (block.listing || !/^(?:Total Test time|\s*$)/.test(line)) {
        emit(add);
        block = null;
      }
    },
    flush: emit,
  };
}

// ---------------------------------------------------------------------------------------------
// dotnet test on Microsoft.Testing.Platform (dotnet 10's `dotnet test` with the MTP runner, and
// `dotnet run` of an MTP test project), as projects quote it:
//   Test run summary: Passed! - Calc.Tests.dll (net10.0|x64)
//     total: 415 / failed: 0 / succeeded: 412 / skipped: 3 / duration: 4s 282ms   (one a line)
// The total must be the sum of the outcomes.
// ---------------------------------------------------------------------------------------------

const MTP_SUMMARY = /^\s*Test run summary: (?:Passed!|Failed!|Zero tests ran|Aborted)/;
const MTP_FIELD = /^\s+(total|failed|succeeded|skipped): (\d+)\s*$/;

export function mtpDetector(): Detector {
  let fields: Partial<Record<'total' | 'failed' | 'succeeded' | 'skipped', number>> | null = null;
  const emit = (add: Add) => {
    if (!fields) return;
    const { total, failed, succeeded, skipped = 0 } = fields;
    if (
      total !== undefined &&
      failed !== undefined &&
      succeeded !== undefined &&
      total === failed + succeeded + skipped
    )
      add('dotnet', { passed: succeeded, failed, skipped });
  };
  return {
    push(line, add) {
      if (MTP_SUMMARY.test(line)) {
        emit(add);
        fields = {};
        return;
      }
      if (!fields) return;
      const field = MTP_FIELD.exec(line);
      if (field) {
        fields[field[1] as 'total'] = Number(field[2]);
        return;
      }
      emit(add);
      fields = null;
    },
    flush: emit,
  };
}

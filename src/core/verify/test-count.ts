/**
 * Counts tests from a command's output as it streams past, by recognising the summary that
 * each supported runner prints at the end of a run. Only summary formats are trusted: a test's
 * own log line such as "1 passed" never counts unless it has a runner's exact summary shape.
 *
 * Memory is O(1) in the number of lines: no line is kept, only running totals and the few
 * fields of a multi-line summary block still being read.
 *
 * Decisions (each shared by every runner):
 * - Several summaries are summed. A command may run several test processes one after the
 *   other (`npm test && npm run e2e`, a script calling `node --test` twice, cargo's one binary
 *   per crate plus doc-tests, pytest in several packages); each prints its own summary for its
 *   own tests. Watch-mode reruns would be double counted, but verify commands must terminate.
 * - Summaries of different runners in one command are summed too, and the result is named
 *   after the runner that counted the most tests (the first one seen on a tie).
 * - A summary that says zero tests still counts (total 0): "the runner found no tests" is worth
 *   reporting; null means no summary was recognised at all.
 * - skipped = skipped + todo + pending + ignored; failed includes cancelled tests and errors.
 */
import type { TestCounts, TestRunnerName } from './report.js';

export interface TestCounter {
  /** One line of output, ANSI escapes stripped, no trailing newline. */
  push(line: string): void;
  /** What was counted so far; null when no summary was recognised. Can be called any time. */
  result(): TestCounts | null;
}

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

const NONE: Readonly<Counts> = { passed: 0, failed: 0, skipped: 0 };

type Add = (runner: TestRunnerName, counts: Counts) => void;

interface Detector {
  push(line: string, add: Add): void;
  /** Adds what a summary still open at the end of the output would count; changes nothing. */
  flush(add: Add): void;
}

/** The outcome words a runner prints, mapped to where they count; null: ignored. */
type Words = Readonly<Record<string, keyof Counts | null>>;

const PART = /(\d+) ([a-z]+(?: [a-z]+)?)/g;

/** Adds up "1 failed, 40 passed"-style parts; null when a word is unknown and `strict`. */
function tallyParts(text: string, words: Words, strict: boolean): Counts | null {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  for (const [, count, word = ''] of text.matchAll(PART)) {
    const field = Object.hasOwn(words, word) ? words[word] : undefined;
    if (field === undefined && strict) return null;
    if (field) counts[field] += Number(count);
  }
  return counts;
}

// ---------------------------------------------------------------------------------------------
// node:test: the TAP reporter (`# tests 8`) and the spec reporter (`ℹ tests 8`), both printed by
// the top-level runner at column 0 (a nested run's summary is indented or prefixed with "# ").
// ---------------------------------------------------------------------------------------------

const NODE_FIELDS = ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo', 'duration_ms'] as const;
type NodeField = (typeof NODE_FIELDS)[number];
const NODE_LINE = /^([#ℹ]) (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\d+(?:\.\d+)?)$/u;

interface NodeBlock {
  marker: string;
  /** Index in NODE_FIELDS of the last field read: the fields always come in that order. */
  at: number;
  values: Partial<Record<NodeField, number>>;
}

/**
 * A block counts only with `tests`, `pass` and `fail`, and only when tests equals the sum of
 * the outcomes (node counts every test in exactly one of them, checked on Node 20 with hooks
 * failing, todo tests failing and timeouts). Under the TAP reporter a test's console output
 * becomes "# <text>", so a test printing "tests 3" opens a block; the sum check closes that door.
 */
function nodeCounts(values: NodeBlock['values']): Counts | null {
  const { tests, pass, fail, cancelled = 0, skipped = 0, todo = 0 } = values;
  if (tests === undefined || pass === undefined || fail === undefined) return null;
  const counts = [tests, pass, fail, cancelled, skipped, todo];
  if (!counts.every(Number.isInteger) || tests !== pass + fail + cancelled + skipped + todo) return null;
  return { passed: pass, failed: fail + cancelled, skipped: skipped + todo };
}

/**
 * Unrelated lines inside a block are tolerated (stderr of another process can land between
 * two summary lines); the block closes at `duration_ms`, at the next `tests`, or at a field
 * out of order. Mocha's TAP reporter prints the same `# tests`/`# pass`/`# fail` lines; they are
 * counted, under the name node:test.
 */
function nodeTestDetector(): Detector {
  let block: NodeBlock | null = null;
  const close = (add: Add) => {
    const counts = block && nodeCounts(block.values);
    if (counts) add('node:test', counts);
    block = null;
  };
  return {
    push(line, add) {
      const match = NODE_LINE.exec(line);
      if (!match) return;
      const [, marker = '', name = '', value = ''] = match;
      const field = name as NodeField;
      const at = NODE_FIELDS.indexOf(field);
      if (field === 'tests') {
        close(add);
        block = { marker, at, values: { tests: Number(value) } };
      } else if (block && marker === block.marker) {
        if (at <= block.at) {
          close(add);
          return;
        }
        block.at = at;
        block.values[field] = Number(value);
        if (field === 'duration_ms') close(add);
      }
    },
    flush(add) {
      const counts = block && nodeCounts(block.values);
      if (counts) add('node:test', counts);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Mocha: the epilogue of every built-in console reporter, two spaces in:
//   "  40 passing (2s)" then, when non-zero, "  2 pending" and "  1 failing".
// ---------------------------------------------------------------------------------------------

const MOCHA_PASSING = /^ {2}(\d+) passing \(\d+(?:\.\d+)?(?:ms|s|m|h|d)\)$/;
const MOCHA_PENDING = /^ {2}(\d+) pending$/;
const MOCHA_FAILING = /^ {2}(\d+) failing$/;

/** The block is the passing line and the optional lines right after it (blank lines allowed). */
function mochaDetector(): Detector {
  let block: (Counts & { stage: 0 | 1 }) | null = null;
  const close = (add: Add) => {
    if (block) add('mocha', { passed: block.passed, failed: block.failed, skipped: block.skipped });
    block = null;
  };
  return {
    push(line, add) {
      const passing = MOCHA_PASSING.exec(line);
      if (passing) {
        close(add);
        block = { passed: Number(passing[1]), failed: 0, skipped: 0, stage: 0 };
        return;
      }
      if (!block || line.trim() === '') return;
      const pending = block.stage === 0 ? MOCHA_PENDING.exec(line) : null;
      if (pending) {
        block.skipped = Number(pending[1]);
        block.stage = 1;
        return;
      }
      const failing = MOCHA_FAILING.exec(line);
      if (failing) block.failed = Number(failing[1]);
      close(add);
    },
    flush(add) {
      if (block) add('mocha', { passed: block.passed, failed: block.failed, skipped: block.skipped });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// go test: only `go test -v` names each test. Top-level results are at column 0; subtests are
// indented four spaces per level and are not counted (their parent's line already is).
// Without -v go prints `--- FAIL:` lines but nothing for passing tests, so counting then would
// report "1 failed, 0 passed": nothing is reported for go unless a `=== RUN` line showed -v.
// ---------------------------------------------------------------------------------------------

const GO_RUN = /^=== RUN {3}\S/;
const GO_RESULT = /^--- (PASS|FAIL|SKIP): \S+ \(\d+\.\d+s\)$/;

function goDetector(): Detector {
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
// One-line summaries: jest, vitest, pytest, cargo.
// ---------------------------------------------------------------------------------------------

/**
 * Jest: `Tests:       1 failed, 2 skipped, 1 todo, 40 passed, 44 total`; "5 of 44 total" when
 * some suites did not run. The line starts at column 0; "Test Suites:" is a different line.
 */
const JEST = /^Tests: +((?:\d+ (?:failed|skipped|todo|passed), )*)(?:\d+ of )?\d+ total$/;
const JEST_WORDS: Words = { failed: 'failed', skipped: 'skipped', todo: 'skipped', passed: 'passed' };

/**
 * Vitest: `      Tests  1 failed | 39 passed | 2 skipped (42)`, or `no tests`. "expected fail"
 * (vitest 3+) is a `test.fails` test whose failure was asserted: it passed.
 */
const VITEST_WORD = '(?:failed|passed|expected fail|skipped|todo)';
const VITEST = new RegExp(`^ *Tests +(\\d+ ${VITEST_WORD}(?: \\| \\d+ ${VITEST_WORD})*) \\(\\d+\\)$`);
const VITEST_NONE = /^ *Tests +no tests$/;
const VITEST_WORDS: Words = { failed: 'failed', passed: 'passed', 'expected fail': 'passed', skipped: 'skipped', todo: 'skipped' };

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

/**
 * cargo test (libtest), one line per test binary and one for doc-tests; "measured" are
 * benchmarks and "filtered out" were not selected, so neither is a test of this run.
 */
const CARGO = /^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; \d+ measured; \d+ filtered out(?:; finished in \d+(?:\.\d+)?s)?$/;

function pytestCounts(line: string): Counts | null {
  const ruled = PYTEST_RULED.exec(line)?.[1];
  const body = ruled ?? PYTEST_QUIET.exec(line)?.[1];
  if (body === undefined) return null;
  if (body === 'no tests ran') return NONE;
  return tallyParts(body, PYTEST_WORDS, ruled === undefined);
}

function oneLineSummary(line: string): readonly [TestRunnerName, Counts] | null {
  const jest = JEST.exec(line)?.[1];
  if (jest !== undefined) return ['jest', tallyParts(jest, JEST_WORDS, true) ?? NONE];
  const vitest = VITEST.exec(line)?.[1];
  const vitestCounts = vitest === undefined ? null : tallyParts(vitest, VITEST_WORDS, true);
  if (vitestCounts) return ['vitest', vitestCounts];
  if (VITEST_NONE.test(line)) return ['vitest', NONE];
  const cargo = CARGO.exec(line);
  if (cargo) return ['cargo', { passed: Number(cargo[1]), failed: Number(cargo[2]), skipped: Number(cargo[3]) }];
  const pytest = pytestCounts(line);
  return pytest && ['pytest', pytest];
}

function singleLineDetector(): Detector {
  return {
    push(line, add) {
      const found = oneLineSummary(line);
      if (found) add(...found);
    },
    flush() {
      // Nothing is ever left open.
    },
  };
}

// ---------------------------------------------------------------------------------------------

function addTo(totals: Map<TestRunnerName, Counts>): Add {
  return (runner, counts) => {
    const sum = totals.get(runner) ?? { passed: 0, failed: 0, skipped: 0 };
    totals.set(runner, { passed: sum.passed + counts.passed, failed: sum.failed + counts.failed, skipped: sum.skipped + counts.skipped });
  };
}

function combine(totals: ReadonlyMap<TestRunnerName, Counts>): TestCounts | null {
  let result: TestCounts | null = null;
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  // Map order is first-seen order, so a later runner wins only with strictly more tests.
  for (const [runner, counts] of totals) {
    const total = counts.passed + counts.failed + counts.skipped;
    if (!result || total > result.total) result = { runner, ...counts, total };
    passed += counts.passed;
    failed += counts.failed;
    skipped += counts.skipped;
  }
  return result && { runner: result.runner, passed, failed, skipped, total: passed + failed + skipped };
}

/**
 * A carriage return inside a line means a terminal would have overwritten what came before it
 * (progress bars); only the text after the last one is what a reader saw.
 */
function visibleText(line: string): string {
  const trimmed = line.trimEnd();
  return trimmed.slice(trimmed.lastIndexOf('\r') + 1);
}

export function createTestCounter(): TestCounter {
  const totals = new Map<TestRunnerName, Counts>();
  const add = addTo(totals);
  const detectors = [nodeTestDetector(), mochaDetector(), goDetector(), singleLineDetector()];
  return {
    push(line) {
      const text = visibleText(line);
      for (const detector of detectors) detector.push(text, add);
    },
    result() {
      const snapshot = new Map(totals);
      const addToSnapshot = addTo(snapshot);
      for (const detector of detectors) detector.flush(addToSnapshot);
      return combine(snapshot);
    },
  };
}

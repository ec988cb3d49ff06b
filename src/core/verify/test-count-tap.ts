/**
 * Summaries of the TAP-printing and TAP-descended JavaScript runners: node:test, the TAP
 * reporters of mocha and AVA, node-tap, uvu, and AVA's and mocha's own console reporters.
 */
import type { Add, Counts, Detector } from './test-count-detector.js';
import type { TestRunnerName } from './report.js';

// ---------------------------------------------------------------------------------------------
// `# tests N` blocks. node:test's TAP reporter (`# tests 8`) and spec reporter (`ℹ tests 8`)
// print them at column 0 from the top-level runner (a nested run's summary is indented or
// prefixed with "# "). Mocha's TAP reporter prints `# tests`, `# pass`, `# fail`; AVA's (`ava
// --tap`, through supertap) prints `# tests`, `# pass`, `# skip` when non-zero, `# fail`.
// ---------------------------------------------------------------------------------------------

const BLOCK_FIELDS = [
  'tests',
  'suites',
  'pass',
  'skip',
  'fail',
  'cancelled',
  'skipped',
  'todo',
  'duration_ms',
] as const;
type BlockField = (typeof BLOCK_FIELDS)[number];
const BLOCK_LINE =
  /^([#ℹ]) (tests|suites|pass|skip|fail|cancelled|skipped|todo|duration_ms) (\d+(?:\.\d+)?)$/u;
/** A TAP plan at column 0: the top-level test count, which supertap's summary needs. */
const TAP_PLAN = /^1\.\.(\d+)$/;

interface Block {
  marker: string;
  /** Index in BLOCK_FIELDS of the last field read: the fields always come in that order. */
  at: number;
  values: Partial<Record<BlockField, number>>;
  /** The last top-level TAP plan before the block, if any. */
  plan: number | null;
}

/**
 * node:test prints every field but `skip`, and counts every test in exactly one outcome
 * (checked on Node 20 with hooks failing, todo tests failing and timeouts), so tests must equal
 * the sum. Under the TAP reporter a test's console output becomes "# <text>", so a test
 * printing "tests 3" opens a block; the sum check closes that door.
 */
function nodeCounts(values: Block['values']): Counts | null {
  const { tests, pass, fail, cancelled = 0, skipped = 0, todo = 0 } = values;
  if (tests === undefined || pass === undefined || fail === undefined) return null;
  const counts = [tests, pass, fail, cancelled, skipped, todo];
  if (!counts.every(Number.isInteger) || tests !== pass + fail + cancelled + skipped + todo) return null;
  return { passed: pass, failed: fail + cancelled, skipped: skipped + todo };
}

/**
 * The three-or-four-line block of mocha and AVA. Mocha: tests = passes + failures (pending
 * tests are left out of all three lines, so they go uncounted). AVA (supertap's finish(), read
 * in ava 7.0 / supertap 3): tests = passed + failed + skipped, `# fail` = failed + crashed +
 * todo, and the plan `1..N` = passed + failed + skipped + todo. So when the lines add up with
 * no skip, nothing is todo or crashed; otherwise the todo count is plan − tests, and without
 * a plan the split of `# fail` is unknown: no count rather than a wrong one.
 */
function tapCounts(values: Block['values'], plan: number | null): Counts | null {
  const { tests, pass, fail, skip = 0 } = values;
  if (tests === undefined || pass === undefined || fail === undefined) return null;
  if (skip === 0 && tests === pass + fail) return { passed: pass, failed: fail, skipped: 0 };
  if (plan === null) return null;
  const todo = plan - tests;
  const failed = fail - todo;
  const crashed = pass + skip + failed - tests;
  if (todo < 0 || failed < 0 || crashed < 0 || crashed > failed) return null;
  return { passed: pass, failed, skipped: skip + todo };
}

const NODE_ONLY: readonly BlockField[] = ['suites', 'cancelled', 'skipped', 'todo', 'duration_ms'];

function blockCounts(block: Block): readonly [TestRunnerName, Counts] | null {
  const fields = Object.keys(block.values) as BlockField[];
  if (fields.some((field) => NODE_ONLY.includes(field))) {
    const counts = fields.includes('skip') ? null : nodeCounts(block.values);
    return counts && ['node:test', counts];
  }
  const counts = block.marker === '#' ? tapCounts(block.values, block.plan) : nodeCounts(block.values);
  return counts && [block.marker === '#' ? 'tap' : 'node:test', counts];
}

/**
 * Unrelated lines inside a block are tolerated (stderr of another process can land between
 * two summary lines); the block closes at `duration_ms`, at the next `tests`, or at a field
 * out of order.
 */
export function tapBlockDetector(): Detector {
  let block: Block | null = null;
  let plan: number | null = null;
  const emit = (add: Add) => {
    const found = block && blockCounts(block);
    if (found) add(...found);
  };
  const close = (add: Add) => {
    emit(add);
    block = null;
  };
  return {
    push(line, add) {
      const planned = TAP_PLAN.exec(line);
      if (planned) plan = Number(planned[1]);
      const match = BLOCK_LINE.exec(line);
      if (!match) return;
      const [, marker = '', name = '', value = ''] = match;
      const field = name as BlockField;
      const at = BLOCK_FIELDS.indexOf(field);
      if (field === 'tests') {
        close(add);
        block = { marker, at, values: { tests: Number(value) }, plan };
        plan = null;
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
    flush: emit,
  };
}

// ---------------------------------------------------------------------------------------------
// node-tap (tap 18–21): the root TAP object ends with its counts as a comment, whatever the
// reporter, e.g. `# { total: 7, pass: 4, fail: 1, todo: 1, skip: 1 }` (Counts#toJSON in
// @tapjs/core 4, captured from tap 21.8: zero fields are left out). The counts are of test
// points, assertions included, as tap itself counts them. Child processes never print it.
// ---------------------------------------------------------------------------------------------

const NODE_TAP =
  /^# \{ total: (\d+), pass: (\d+)(?:, fail: (\d+))?(?:, todo: (\d+))?(?:, skip: (\d+))?(?:, complete: \d+)? \}$/;

export function nodeTapSummary(line: string): readonly [TestRunnerName, Counts] | null {
  const match = NODE_TAP.exec(line);
  if (!match) return null;
  const [total, pass, fail, todo, skip] = match.slice(1).map((value) => Number(value ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (total !== pass + fail + todo + skip) return null;
  return ['node-tap', { passed: pass, failed: fail, skipped: todo + skip }];
}

// ---------------------------------------------------------------------------------------------
// uvu 0.5: `  Total:     5` / `  Passed:    4` / `  Skipped:   1` / `  Duration:  1.27ms`, one
// line each (uvu's exec(); captured from uvu 0.5.6, colored and not). Total counts the tests
// that ran; skipped ones are apart; failures are not printed, so they are Total − Passed.
// ---------------------------------------------------------------------------------------------

const UVU_TOTAL = /^ {2}Total: {5}(\d+)$/;
const UVU_NEXT = [/^ {2}Passed: {4}(\d+)$/, /^ {2}Skipped: {3}(\d+)$/] as const;

/** The three lines must follow one another; anything else in between voids the block. */
export function uvuDetector(): Detector {
  let values: number[] = [];
  return {
    push(line, add) {
      const total = UVU_TOTAL.exec(line)?.[1];
      if (total !== undefined) {
        values = [Number(total)];
        return;
      }
      const value = values.length > 0 ? UVU_NEXT[values.length - 1]?.exec(line)?.[1] : undefined;
      if (value === undefined) {
        values = [];
        return;
      }
      values.push(Number(value));
      const [all = 0, passed = 0, skipped = 0] = values;
      if (values.length < 3) return;
      values = [];
      if (passed <= all) add('uvu', { passed, failed: all - passed, skipped });
    },
    flush() {
      // A block without its Skipped line is not counted: the run was cut off.
    },
  };
}

// ---------------------------------------------------------------------------------------------
// AVA's default reporter (ava 7, lib/reporters/default.js endRun; captured from ava 7.0): after
// a `  ─` rule, `  N tests failed`, `  N known failures`, `  N tests skipped`, `  N tests todo`,
// and `  N tests passed` only when nothing failed. With a failure the number passed is never
// printed, so a failing run is not counted (its exit code still says it failed).
// ---------------------------------------------------------------------------------------------

const AVA_RULE = '  ─';
const AVA_PASSED = /^ {2}(\d+) tests? passed$/;
const AVA_COUNTED: readonly [RegExp, 'passed' | 'skipped'][] = [
  [AVA_PASSED, 'passed'],
  [/^ {2}(\d+) known failures?$/, 'passed'],
  [/^ {2}(\d+) tests? skipped$/, 'skipped'],
  [/^ {2}(\d+) tests? todo$/, 'skipped'],
];
const AVA_FAILED = /^ {2}\d+ (?:tests? failed|hooks? failed|unhandled rejections?|uncaught exceptions?)$/;

interface AvaBlock {
  passed: number;
  skipped: number;
  sawPassed: boolean;
  failed: boolean;
}

export function avaDetector(): Detector {
  let block: AvaBlock | null = null;
  const emit = (add: Add) => {
    if (block?.sawPassed && !block.failed)
      add('ava', { passed: block.passed, failed: 0, skipped: block.skipped });
  };
  const read = (line: string, open: AvaBlock): boolean => {
    if (AVA_FAILED.test(line)) {
      open.failed = true;
      return true;
    }
    for (const [pattern, field] of AVA_COUNTED) {
      const count = pattern.exec(line)?.[1];
      if (count === undefined) continue;
      if (field === 'passed') open.passed += Number(count);
      else open.skipped += Number(count);
      if (pattern === AVA_PASSED) open.sawPassed = true;
      return true;
    }
    return false;
  };
  return {
    push(line, add) {
      if (line === AVA_RULE) {
        emit(add);
        block = { passed: 0, skipped: 0, sawPassed: false, failed: false };
        return;
      }
      if (!block || line === '' || read(line, block)) return;
      emit(add);
      block = null;
    },
    flush: emit,
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
export function mochaDetector(): Detector {
  let block: (Counts & { stage: 0 | 1 }) | null = null;
  const emit = (add: Add) => {
    if (block) add('mocha', { passed: block.passed, failed: block.failed, skipped: block.skipped });
  };
  return {
    push(line, add) {
      const passing = MOCHA_PASSING.exec(line);
      if (passing) {
        emit(add);
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
      emit(add);
      block = null;
    },
    flush: emit,
  };
}

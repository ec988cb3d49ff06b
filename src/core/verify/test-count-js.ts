/**
 * One-line and short-block summaries of the JavaScript runners that are not TAP-shaped: Jest,
 * Vitest, bun test and deno test.
 */
import {
  lineDetector,
  NONE,
  tallyParts,
  type Add,
  type Counts,
  type Detector,
  type Words,
} from './test-count-detector.js';
import type { TestRunnerName } from './report.js';

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
const VITEST_WORDS: Words = {
  failed: 'failed',
  passed: 'passed',
  'expected fail': 'passed',
  skipped: 'skipped',
  todo: 'skipped',
};

/**
 * deno test (captured from deno 2.9, pretty and dot reporters):
 * `FAILED | 3 passed (2 steps) | 1 failed | 1 ignored (221ms)`, `ok | 1 passed | 0 failed (55ms)`,
 * with `| N measured` and `| N filtered out` when non-zero. Steps are parts of a test, not
 * tests; measured are benchmarks and filtered out were not selected. Its TAP reporter prints no
 * counts.
 */
const STEPS = '(?: \\(\\d+ steps?\\))?';
const DENO = new RegExp(
  `^(?:ok|FAILED) \\| (\\d+) passed${STEPS} \\| (\\d+) failed${STEPS}(?: \\| (\\d+) ignored${STEPS})?(?: \\| \\d+ measured)?(?: \\| \\d+ filtered out)? \\([^()]*\\)$`,
);

function jsSummary(line: string): readonly [TestRunnerName, Counts] | null {
  const jest = JEST.exec(line)?.[1];
  if (jest !== undefined) return ['jest', tallyParts(jest, JEST_WORDS, true) ?? NONE];
  const vitest = VITEST.exec(line)?.[1];
  const vitestCounts = vitest === undefined ? null : tallyParts(vitest, VITEST_WORDS, true);
  if (vitestCounts) return ['vitest', vitestCounts];
  if (VITEST_NONE.test(line)) return ['vitest', NONE];
  const deno = DENO.exec(line);
  if (deno)
    return ['deno', { passed: Number(deno[1]), failed: Number(deno[2]), skipped: Number(deno[3] ?? 0) }];
  return null;
}

export function jsLineDetector(): Detector {
  return lineDetector(jsSummary);
}

/**
 * bun test (captured from bun 1.4, colored and not): ` 2 pass`, ` 1 skip`, ` 1 todo`, ` 1 fail`
 * (skip and todo only when non-zero), ` 4 filtered out`, ` 3 expect() calls`, then
 * `Ran 5 tests across 2 files. [4.00ms]`. The Ran total must be the sum of the outcomes.
 */
const BUN_COUNT = /^ (\d+) (pass|fail|skip|todo)$/;
const BUN_OTHER = /^ \d+ (?:filtered out|expect\(\) calls|snapshots?\b.*)$/;
const BUN_RAN = /^Ran (\d+) tests? across \d+ files?\. \[[^\]]*\]$/;

export function bunDetector(): Detector {
  let seen: Partial<Record<'pass' | 'fail' | 'skip' | 'todo', number>> = {};
  return {
    push(line: string, add: Add) {
      const count = BUN_COUNT.exec(line);
      if (count) {
        seen[count[2] as 'pass'] = Number(count[1]);
        return;
      }
      if (BUN_OTHER.test(line)) return;
      const ran = BUN_RAN.exec(line)?.[1];
      const { pass, fail, skip = 0, todo = 0 } = seen;
      seen = {};
      if (ran === undefined || pass === undefined || fail === undefined) return;
      if (Number(ran) === pass + fail + skip + todo)
        add('bun', { passed: pass, failed: fail, skipped: skip + todo });
    },
    flush() {
      // Only the Ran line closes a summary.
    },
  };
}

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
 * - Never a wrong count: when a summary leaves a number unknown (AVA's default reporter prints
 *   no passed count after a failure) or its numbers do not add up, nothing is counted for it
 *   and the exit code alone decides, as for output aide does not know.
 *
 * The runners, by family: test-count-tap.ts (node:test, TAP reporters, node-tap, uvu, AVA,
 * mocha), test-count-js.ts (Jest, Vitest, bun, deno), test-count-native.ts (pytest, go, cargo,
 * RSpec, minitest, PHPUnit, Maven, Gradle, CTest, dotnet (VSTest and MTP), zig). Each sample a
 * detector was written from is cited beside it and kept in the fixtures files.
 */
import type { TestCounts, TestRunnerName } from './report.js';
import { lineDetector, type Add, type Counts } from './test-count-detector.js';
import { bunDetector, jsLineDetector } from './test-count-js.js';
import {
  ctestDetector,
  goDetector,
  mtpDetector,
  nativeLineDetector,
  rspecDetector,
} from './test-count-native.js';
import {
  avaDetector,
  mochaDetector,
  nodeTapSummary,
  tapBlockDetector,
  uvuDetector,
} from './test-count-tap.js';

export interface TestCounter {
  /** One line of output, ANSI escapes stripped, no trailing newline. */
  push(line: string): void;
  /** What was counted so far; null when no summary was recognised. Can be called any time. */
  result(): TestCounts | null;
}

function addTo(totals: Map<TestRunnerName, Counts>): Add {
  return (runner, counts) => {
    const sum = totals.get(runner) ?? { passed: 0, failed: 0, skipped: 0 };
    totals.set(runner, {
      passed: sum.passed + counts.passed,
      failed: sum.failed + counts.failed,
      skipped: sum.skipped + counts.skipped,
    });
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
  const detectors = [
    tapBlockDetector(),
    lineDetector(nodeTapSummary),
    uvuDetector(),
    avaDetector(),
    mochaDetector(),
    jsLineDetector(),
    bunDetector(),
    goDetector(),
    rspecDetector(),
    ctestDetector(),
    mtpDetector(),
    nativeLineDetector(),
  ];
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

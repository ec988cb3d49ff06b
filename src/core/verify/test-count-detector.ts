/**
 * What every runner's summary detector shares: the counts it adds, the detector interface
 * and the "1 failed, 40 passed" tally. See test-count.ts for the decisions all detectors follow.
 */
import type { TestRunnerName } from './report.js';

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

export const NONE: Readonly<Counts> = { passed: 0, failed: 0, skipped: 0 };

export type Add = (runner: TestRunnerName, counts: Counts) => void;

export interface Detector {
  push(line: string, add: Add): void;
  /** Adds what a summary still open at the end of the output would count; changes nothing. */
  flush(add: Add): void;
}

/** The outcome words a runner prints, mapped to where they count; null: ignored. */
export type Words = Readonly<Record<string, keyof Counts | null>>;

const PART = /(\d+) ([a-z]+(?: [a-z]+)?)/g;

/** Adds up "1 failed, 40 passed"-style parts; null when a word is unknown and `strict`. */
export function tallyParts(text: string, words: Words, strict: boolean): Counts | null {
  const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  for (const [, count, word = ''] of text.matchAll(PART)) {
    const field = Object.hasOwn(words, word) ? words[word] : undefined;
    if (field === undefined && strict) return null;
    if (field) counts[field] += Number(count);
  }
  return counts;
}

/** A detector for summaries that fit on one line: nothing is ever left open. */
export function lineDetector(summary: (line: string) => readonly [TestRunnerName, Counts] | null): Detector {
  return {
    push(line, add) {
      const found = summary(line);
      if (found) add(...found);
    },
    flush() {
      // Nothing is ever left open.
    },
  };
}

/**
 * passed = total − failed − skipped, for runners that print a total and the outcomes that
 * are not passes (RSpec, PHPUnit, Surefire, …); null when they do not add up, as a wrong
 * count is worse than none.
 */
export function fromTotal(total: number, failed: number, skipped: number): Counts | null {
  const passed = total - failed - skipped;
  if (![total, failed, skipped].every(Number.isSafeInteger) || passed < 0) return null;
  return { passed, failed, skipped };
}

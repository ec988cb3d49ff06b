/**
 * A failed attempt at a step, seen three ways: what the model is told (the failing commands'
 * output tails, failing test names first, at most `output_tail_bytes` in all), how it ranks
 * against the other attempts (fewest failing commands, then fewest failing tests: the one a
 * person should see), and whether it failed the same way as the attempt before (the step ends
 * early: a model that repeats itself will not do better with a third try).
 */
import type { VerifyReport } from '../verify/report.js';
import type { AttemptFailure } from './act-types.js';

/** A test runner's line for one failing test: TAP and node:test's TAP (`not ok 3 - name`), node:test's spec (`✖ name (1.2ms)`). */
const FAILING_TEST = [/^\s*not ok \d+ - (.+?)\s*(?:#.*)?$/, /^\s*✖ (.+?)(?: \([\d.]+m?s\))?$/];

/** Summary lines of node:test's spec reporter that look like a failing test but are not one. */
const NOT_A_TEST = /^failing tests:?$/i;

/** The names of the failing tests a command's output tail shows, in order, each once. */
export function failingTests(tail: string): string[] {
  const names: string[] = [];
  for (const line of tail.split('\n')) {
    for (const pattern of FAILING_TEST) {
      const name = pattern.exec(line)?.[1];
      if (name !== undefined && !NOT_A_TEST.test(name) && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

/** The commands of a verification that did not pass. */
function failingCommands(verify: VerifyReport) {
  return verify.commands.filter(
    (c) => c.status !== 'passed' && c.status !== 'flaky' && c.status !== 'not_run',
  );
}

/** The last `bytes` bytes of `text`, from a line start where one is near; a marker says it was cut. */
function lastBytes(text: string, bytes: number): string {
  const encoded = new TextEncoder().encode(text);
  if (encoded.length <= bytes) return text;
  // A character cut in two at the start decodes as U+FFFD and is dropped with its line.
  const cut = new TextDecoder().decode(encoded.subarray(encoded.length - bytes));
  const newline = cut.indexOf('\n');
  const start = newline >= 0 && newline < cut.length / 4 ? cut.slice(newline + 1) : cut;
  return `[… earlier output cut]\n${start}`;
}

/**
 * What the model is told of a failure: the reason, then per failing command its name, its
 * failing tests and its output tail. The tails share `tailBytes`; the names come first so a cut
 * tail still says which tests failed.
 */
export function failureForModel(failure: AttemptFailure, tailBytes: number): string {
  const lines = [`The attempt failed (${failure.stage}): ${failure.reason}`];
  if (failure.verify === null) return lines.join('\n');
  const failing = failingCommands(failure.verify);
  const share = Math.max(256, Math.floor(tailBytes / Math.max(1, failing.length)));
  for (const command of failing) {
    const run = typeof command.run === 'string' ? command.run : command.run.join(' ');
    lines.push('', `Command "${command.name}" (${run}) ${command.status}, exit ${command.exitCode ?? '-'}.`);
    const tests = failingTests(command.tail);
    if (tests.length > 0) lines.push(`Failing tests: ${tests.join('; ')}`);
    if (command.tail.trim() !== '')
      lines.push('Output (last lines):', lastBytes(command.tail.trimEnd(), share));
  }
  return lines.join('\n');
}

/** How bad a failed attempt is: fewer is better, commands first. */
export interface AttemptScore {
  failingCommands: number;
  failingTests: number;
}

export function attemptScore(failure: AttemptFailure): AttemptScore {
  // An attempt that never reached verification is worse than any that did.
  if (failure.verify === null) return { failingCommands: Number.MAX_SAFE_INTEGER, failingTests: 0 };
  const failing = failingCommands(failure.verify);
  const tests = failing.reduce(
    (sum, c) => sum + (c.tests?.failed ?? Math.max(1, failingTests(c.tail).length)),
    0,
  );
  return { failingCommands: failing.length, failingTests: tests };
}

/** Whether `a` is a better attempt than `b` (strictly: a tie keeps the earlier one). */
export function betterThan(a: AttemptScore, b: AttemptScore): boolean {
  if (a.failingCommands !== b.failingCommands) return a.failingCommands < b.failingCommands;
  return a.failingTests < b.failingTests;
}

/** The score in words: "1 failing command, 2 failing tests". */
export function describeScore(score: AttemptScore): string {
  if (score.failingCommands === Number.MAX_SAFE_INTEGER) return 'not verified';
  const commands = `${score.failingCommands} failing command${score.failingCommands === 1 ? '' : 's'}`;
  return `${commands}, ${score.failingTests} failing test${score.failingTests === 1 ? '' : 's'}`;
}

/**
 * A failure's fingerprint for "the same way twice": its stage and each failing command's name,
 * failing tests and tail with durations blanked (they change from run to run; the values an
 * assertion compares do not, and a different value is a different failure).
 */
export function failureFingerprint(failure: AttemptFailure): string {
  const blank = (text: string) =>
    text.replace(/duration_ms:?\s*[\d.]+/g, 'duration_ms #').replace(/\b[\d.]+\s?(?:ms|s)\b/g, '#ms');
  if (failure.verify === null) return `${failure.stage}:${blank(failure.reason)}`;
  const parts = failingCommands(failure.verify).map(
    (c) => `${c.name}|${failingTests(c.tail).join(';')}|${blank(c.tail)}`,
  );
  return `${failure.stage}:${parts.join('\n')}`;
}

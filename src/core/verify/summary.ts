/** The one-line verdict people read: "verified: 3 commands, 41 tests passed" or why it failed. */
import { plural } from '../../shared/text.js';
import { formatDuration } from '../../shared/units.js';
import type { CommandReport, TestCounts, Verdict } from './report.js';

/** Tests counted over all commands; null when no command's output was recognised. */
export function totalTests(commands: readonly CommandReport[]): Omit<TestCounts, 'runner'> | null {
  const counted = commands.map((c) => c.tests).filter((t): t is TestCounts => t !== null);
  if (counted.length === 0) return null;
  const sum = (key: 'passed' | 'failed' | 'skipped' | 'total') => counted.reduce((n, t) => n + t[key], 0);
  return { passed: sum('passed'), failed: sum('failed'), skipped: sum('skipped'), total: sum('total') };
}

/** Why one command failed, e.g. "exited 1", "timed out after 120 s". */
export function failureReason(command: CommandReport): string {
  const last = command.runs.at(-1);
  if (last?.startError != null) return `could not start (${last.startError})`;
  if (command.status === 'timed_out') return `timed out after ${formatDuration(last?.timeoutMs ?? 0)}`;
  if (command.signal !== null) return `was killed by ${command.signal}`;
  return `exited ${command.exitCode ?? '?'}`;
}

function testsPhrase(tests: Omit<TestCounts, 'runner'> | null): string {
  if (tests === null) return '';
  const skipped = tests.skipped > 0 ? `, ${tests.skipped} skipped` : '';
  return `, ${plural(tests.passed, 'test')} passed${skipped}`;
}

export interface SummaryFacts {
  verdict: Verdict;
  commands: readonly CommandReport[];
  /** Set when the total time limit stopped the run. */
  totalTimeoutMs: number | null;
}

export function summarize(facts: SummaryFacts): string {
  const { verdict, commands } = facts;
  if (verdict === 'cancelled') {
    const at = commands.find((c) => c.status === 'cancelled');
    return `cancelled${at === undefined ? '' : ` during ${at.name}`}: nothing was verified`;
  }
  if (verdict === 'passed') {
    const flaky = commands.filter((c) => c.flaky).map((c) => c.name);
    const flakyNote = flaky.length > 0 ? ` (flaky: ${flaky.join(', ')})` : '';
    return `verified: ${plural(commands.length, 'command')}${flakyNote}${testsPhrase(totalTests(commands))}`;
  }
  const failed = commands.find((c) => c.status === 'failed' || c.status === 'timed_out');
  if (failed === undefined) {
    const next = commands.find((c) => c.status === 'not_run');
    const limit = facts.totalTimeoutMs === null ? '' : ` of ${formatDuration(facts.totalTimeoutMs)}`;
    return `failed: the total time limit${limit} ran out${next === undefined ? '' : ` before ${next.name}`}`;
  }
  const tests = failed.tests;
  const counted =
    tests !== null && tests.failed > 0 ? ` (${tests.failed} of ${plural(tests.total, 'test')} failed)` : '';
  const runs = failed.runs.length > 1 ? `, in all ${failed.runs.length} runs` : '';
  return `failed: ${failed.name} ${failureReason(failed)}${counted}${runs}`;
}

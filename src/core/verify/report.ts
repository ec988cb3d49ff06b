/**
 * What a verification run found: the shape `aide verify --json` prints (schema aide.verify/1),
 * the JUnit file is written from, and act shows above its approval prompt. Stable: fields are
 * only ever added.
 */
import type { IsolationReport } from '../ports/commands.js';

/** The test runners whose summary lines are recognised. */
export type TestRunnerName =
  | 'node:test'
  | 'tap'
  | 'node-tap'
  | 'uvu'
  | 'ava'
  | 'mocha'
  | 'jest'
  | 'vitest'
  | 'bun'
  | 'deno'
  | 'pytest'
  | 'go'
  | 'cargo'
  | 'rspec'
  | 'minitest'
  | 'phpunit'
  | 'maven'
  | 'gradle'
  | 'ctest'
  | 'dotnet'
  | 'zig';

/** Tests counted from a command's output. */
export interface TestCounts {
  runner: TestRunnerName;
  passed: number;
  failed: number;
  /** Skipped, pending, todo, ignored: tests that did not run. */
  skipped: number;
  /** passed + failed + skipped. */
  total: number;
}

/** One run of one command (the first, or a flake-guard rerun). */
export interface CommandRunRecord {
  /** 1 for the first run, 2 for the first rerun, … */
  attempt: number;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  truncated: boolean;
  durationMs: number;
  /** The time limit this run had: the command's timeout, or less when the total limit was near. */
  timeoutMs: number;
  /** The full output of this run (capped), absolute. */
  logPath: string;
  tests: TestCounts | null;
  /** Why it could not start; null when it ran. */
  startError: string | null;
}

/**
 * - passed: the first run passed.
 * - flaky: a run failed, then a rerun passed (counts as passed, reported as flaky).
 * - failed: every run failed.
 * - timed_out: every run failed and the last one was killed at its timeout.
 * - cancelled: stopped by Ctrl-C.
 * - not_run: an earlier command failed, or the total time ran out before it started.
 */
export type CommandStatus = 'passed' | 'flaky' | 'failed' | 'timed_out' | 'cancelled' | 'not_run';

export interface CommandReport {
  name: string;
  /** The command line as configured: an argv or a shell line. */
  run: readonly string[] | string;
  status: CommandStatus;
  /** Of the run that decided the status (the last run); null when not run. */
  exitCode: number | null;
  signal: string | null;
  /** Sum over runs. */
  durationMs: number;
  tests: TestCounts | null;
  flaky: boolean;
  /** Log of the deciding run; null when not run. */
  logPath: string | null;
  /** Output tail of the deciding run (whole lines, ANSI stripped, at most output_tail_bytes). */
  tail: string;
  runs: CommandRunRecord[];
}

/** 'passed' (flaky commands included), 'failed', or 'cancelled' (Ctrl-C). */
export type Verdict = 'passed' | 'failed' | 'cancelled';

export interface VerifyReport {
  verdict: Verdict;
  /** One line for people: "verified: 3 commands, 41 tests passed" or why it failed. */
  summary: string;
  commands: CommandReport[];
  isolation: IsolationReport;
  /** Milliseconds for all commands (scratch setup not included). */
  durationMs: number;
  /** Environment variables withheld from the commands: not on the allow-list (names only, never values). */
  withheldEnv: string[];
}

/**
 * A verify report as JUnit XML, the test-report format GitLab, Jenkins, Azure and the GitHub
 * test-report actions all read. One <testsuite>; one <testcase> per verify command (not per test
 * inside it: the tests' own runner can write its own JUnit file).
 *
 * - passed: an empty testcase. flaky: passed too, since verify counted it as passed; the
 *   <system-out> says which attempts failed and where their logs are. Not a <properties> element
 *   inside the testcase: Jenkins' xunit2 schema (pytest's default junit_family) rejects it, and
 *   Surefire's <flakyFailure> is understood by few readers.
 * - failed, timed_out: <failure type="failed|timed_out"> with the output tail as its text.
 * - a command that could not start: <error type="start_error">: the command never ran, so it is
 *   not a test failure (counted in `errors`).
 * - not_run, cancelled: <skipped message="…"> saying why.
 *
 * The document, test case and escaping helpers are shared with `aide act --junit`
 * (act-junit.ts), which writes one test case per plan step.
 *
 * Text is escaped rather than put in CDATA, so "]]>" in a log needs no special case. Characters
 * XML 1.0 forbids (C0 controls but tab, LF and CR; lone surrogates; U+FFFE, U+FFFF) become
 * U+FFFD: one stray byte in a log must not make the whole file unreadable to the CI system.
 */
import type { CommandReport, CommandRunRecord, TestCounts, VerifyReport } from '../../core/verify/report.js';
import { formatDuration } from '../../shared/units.js';

export interface JunitOptions {
  /** Name of the <testsuite>, e.g. "aide verify". */
  suiteName: string;
  /** When the run started, ISO 8601 without a zone as Ant's schema has it (2025-01-31T12:00:00). */
  timestamp: string;
}

// The XML 1.0 Char production, negated.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

const entity = (char: string) => ENTITIES[char] ?? char;

/** Element text. `>` too, so that "]]>" never appears; CR as a reference, as parsers drop a raw one. */
export function escapeXmlText(text: string): string {
  return text.replace(NOT_XML_CHAR, '\uFFFD').replace(/[&<>\r]/g, entity);
}

/** An attribute value in double quotes; tab and newlines as references, or parsers turn them into spaces. */
export function escapeXmlAttribute(value: string): string {
  return value.replace(NOT_XML_CHAR, '\uFFFD').replace(/[&<>"'\t\n\r]/g, entity);
}

/** `name="value"` pairs, escaped, in the order given. */
export function attributes(values: Readonly<Record<string, string | number>>): string {
  return Object.entries(values)
    .map(([name, value]) => `${name}="${escapeXmlAttribute(String(value))}"`)
    .join(' ');
}

/** JUnit `time`: seconds with three decimals. */
export const junitTime = (ms: number) => (Math.max(0, ms) / 1000).toFixed(3);

/** How a test case ended, as JUnit says it. */
export type JunitOutcome =
  | { kind: 'passed' }
  | { kind: 'failure' | 'error'; type: string; message: string; body: string }
  | { kind: 'skipped'; message: string };

/** One <testcase>: its outcome element, then its <system-out> when there is one. */
export function testcaseXml(
  values: { classname: string; name: string; time: number },
  outcome: JunitOutcome,
  out: string | null,
): string[] {
  const lines = [
    `    <testcase ${attributes({ classname: values.classname, name: values.name, time: junitTime(values.time) })}>`,
  ];
  if (outcome.kind === 'failure' || outcome.kind === 'error') {
    const head = `      <${outcome.kind} ${attributes({ message: outcome.message, type: outcome.type })}`;
    lines.push(
      outcome.body === '' ? `${head}/>` : `${head}>${escapeXmlText(outcome.body)}</${outcome.kind}>`,
    );
  } else if (outcome.kind === 'skipped') {
    lines.push(`      <skipped ${attributes({ message: outcome.message })}/>`);
  }
  if (out !== null) lines.push(`      <system-out>${escapeXmlText(out)}</system-out>`);
  lines.push('    </testcase>');
  return lines;
}

/** The suite's counts, from the outcome of each test case. */
export function junitTotals(outcomes: readonly JunitOutcome['kind'][], timeMs: number) {
  return {
    tests: outcomes.length,
    failures: outcomes.filter((kind) => kind === 'failure').length,
    errors: outcomes.filter((kind) => kind === 'error').length,
    skipped: outcomes.filter((kind) => kind === 'skipped').length,
    time: junitTime(timeMs),
  };
}

/** The whole file: one <testsuites> holding one <testsuite> with its properties and test cases. */
export function junitDocument(
  options: JunitOptions,
  totals: ReturnType<typeof junitTotals>,
  properties: ReadonlyArray<readonly [string, string]>,
  testcases: readonly string[],
): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites ${attributes({ name: options.suiteName, ...totals })}>`,
    `  <testsuite ${attributes({ name: options.suiteName, ...totals, timestamp: options.timestamp })}>`,
    '    <properties>',
    ...properties.map(([name, value]) => `      <property ${attributes({ name, value })}/>`),
    '    </properties>',
    ...testcases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

function describeRun(run: CommandRunRecord): string {
  if (run.startError !== null) return `could not start: ${run.startError}`;
  if (run.timedOut) return `timed out after ${formatDuration(run.durationMs)}`;
  if (run.cancelled) return 'cancelled';
  if (run.signal !== null) return `killed by ${run.signal}`;
  return `exit code ${run.exitCode ?? 'unknown'}`;
}

function describeTests(tests: TestCounts | null): string {
  if (!tests) return '';
  return `${tests.passed} passed, ${tests.failed} failed, ${tests.skipped} skipped (${tests.runner})`;
}

/** not_run means an earlier command failed, or the run was cancelled, or the time ran out. */
function notRunReason(report: VerifyReport, index: number): string {
  const earlier = report.commands.slice(0, index);
  const failed = earlier.find((command) => command.status === 'failed' || command.status === 'timed_out');
  if (failed) return `not run: an earlier command failed (${failed.name})`;
  if (report.verdict === 'cancelled' || earlier.some((command) => command.status === 'cancelled'))
    return 'not run: cancelled (Ctrl-C)';
  return 'not run: the time for all commands ran out';
}

function outcomeOf(report: VerifyReport, index: number): JunitOutcome {
  const command = report.commands[index];
  if (!command) return { kind: 'passed' };
  const last = command.runs.at(-1);
  switch (command.status) {
    case 'passed':
    case 'flaky':
      return { kind: 'passed' };
    case 'not_run':
      return { kind: 'skipped', message: notRunReason(report, index) };
    case 'cancelled':
      return { kind: 'skipped', message: 'cancelled: stopped by Ctrl-C' };
    case 'failed':
    case 'timed_out': {
      if (last && last.startError !== null)
        return { kind: 'error', type: 'start_error', message: describeRun(last), body: command.tail };
      const counts =
        command.tests && command.tests.failed > 0
          ? `; ${command.tests.failed} of ${command.tests.total} tests failed`
          : '';
      const message = last ? describeRun(last) : `exit code ${command.exitCode ?? 'unknown'}`;
      return { kind: 'failure', type: command.status, message: message + counts, body: command.tail };
    }
  }
}

function quoteArgument(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : JSON.stringify(arg);
}

/** What a person reading the CI page wants next to the verdict: the command, the tests, the logs. */
function systemOut(command: CommandReport): string {
  const lines = [
    `command: ${typeof command.run === 'string' ? command.run : command.run.map(quoteArgument).join(' ')}`,
  ];
  const tests = describeTests(command.tests);
  if (tests) lines.push(`tests: ${tests}`);
  if (command.flaky) {
    const attempts = command.runs.map(
      (run) =>
        `attempt ${run.attempt} ${run === command.runs.at(-1) ? 'passed' : `failed (${describeRun(run)})`}`,
    );
    lines.push(`flaky: ${attempts.join(', ')}`);
    for (const run of command.runs.slice(0, -1)) lines.push(`attempt ${run.attempt} log: ${run.logPath}`);
  }
  if (command.logPath !== null) lines.push(`log: ${command.logPath}`);
  return lines.join('\n');
}

function testcase(report: VerifyReport, index: number): string[] {
  const command = report.commands[index];
  if (!command) return [];
  return testcaseXml(
    { classname: 'aide.verify', name: command.name, time: command.durationMs },
    outcomeOf(report, index),
    command.status === 'not_run' ? null : systemOut(command),
  );
}

/** How the commands were confined, in one line. */
export function isolationText(isolation: VerifyReport['isolation']): string {
  return `${isolation.mechanism}; network ${isolation.network}; workspace ${isolation.workspaceReadOnly ? 'read-only' : 'writable'}`;
}

function properties(report: VerifyReport): Array<[string, string]> {
  const values: Array<[string, string]> = [
    ['aide.verdict', report.verdict],
    ['aide.summary', report.summary],
    ['aide.isolation', isolationText(report.isolation)],
  ];
  if (report.withheldEnv.length > 0) values.push(['aide.withheld_env', report.withheldEnv.join(' ')]);
  return values;
}

export function renderJunit(report: VerifyReport, options: JunitOptions): string {
  const totals = junitTotals(
    report.commands.map((_, index) => outcomeOf(report, index).kind),
    report.durationMs,
  );
  return junitDocument(
    options,
    totals,
    properties(report),
    report.commands.flatMap((_, index) => testcase(report, index)),
  );
}

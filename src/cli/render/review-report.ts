/**
 * `aide review`'s report in the pre-commit style: one line per check, its name padded with
 * dots to 80 columns and its status, the findings under it (file:line, what, what to do). The
 * findings never carry a secret's value (core/review masks it), so neither does anything here.
 */
import type { CheckResult, Finding } from '../../core/review/checks.js';
import type { ReviewSubject } from '../wiring/review.js';
import type { Style } from './style.js';

const WIDTH = 80;
const MAX_DETAILS = 20;

function statusText(result: CheckResult): string {
  switch (result.status) {
    case 'passed':
      return 'Passed';
    case 'failed':
      return 'Failed';
    case 'skipped':
      return result.reason === undefined ? 'Skipped' : `Skipped (${result.reason})`;
  }
}

function paint(result: CheckResult, text: string, style: Style): string {
  switch (result.status) {
    case 'passed':
      return style.green(text);
    case 'failed':
      return style.red(text);
    case 'skipped':
      return style.yellow(text);
  }
}

/** `name.....Status`, 80 columns (at least three dots when the status is long). */
export function checkLine(result: CheckResult, style: Style): string {
  const status = statusText(result);
  const dots = '.'.repeat(Math.max(3, WIDTH - result.name.length - status.length));
  return `${result.name}${dots}${paint(result, status, style)}`;
}

function severityLabel(severity: Finding['severity'], style: Style): string {
  switch (severity) {
    case 'error':
      return style.red('error');
    case 'warning':
      return style.yellow('warning');
    case 'info':
      return style.cyan('info');
  }
}

/** The lines under a check: its findings (warnings too), then any output tail. */
function details(result: CheckResult, style: Style): string[] {
  const lines: string[] = [];
  for (const f of result.findings.slice(0, MAX_DETAILS)) {
    const where = f.line === null ? f.file : `${f.file}:${f.line}`;
    const label = severityLabel(f.severity, style);
    lines.push(`- ${where}: ${label}: ${f.message}`, `  fix: ${f.fix}`);
  }
  if (result.findings.length > MAX_DETAILS)
    lines.push(`- … and ${result.findings.length - MAX_DETAILS} more (see --json)`);
  for (const line of result.details ?? []) lines.push(`  ${line}`);
  return lines;
}

/** The whole report, for people. */
export function renderReview(results: readonly CheckResult[], style: Style): string {
  const out: string[] = [];
  for (const result of results) {
    out.push(checkLine(result, style));
    const under = details(result, style);
    if (under.length > 0) out.push(...under, '');
  }
  const failed = results.filter((r) => r.status === 'failed').map((r) => r.name);
  out.push(
    failed.length === 0
      ? style.green('aide review: every check passed or was skipped')
      : style.red(`aide review: failed: ${failed.join(', ')}`),
  );
  return `${out.join('\n')}\n`;
}

/** The report as JSON (`--json`): every check and its findings. */
export function reviewJson(results: readonly CheckResult[], subject: ReviewSubject | null): string {
  const verdict = results.some((r) => r.status === 'failed') ? 'failed' : 'passed';
  return `${JSON.stringify(
    {
      verdict,
      subject,
      checks: results.map((r) => ({
        name: r.name,
        status: r.status,
        ...(r.reason === undefined ? {} : { reason: r.reason }),
        findings: r.findings,
        ...(r.details === undefined ? {} : { details: r.details }),
      })),
    },
    null,
    2,
  )}\n`;
}

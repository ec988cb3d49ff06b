/**
 * An `aide review` run as JUnit XML (`--junit FILE`), with the helpers of junit.ts: one
 * <testsuite> "aide review", one <testcase> per check (classname `aide.review`), so a CI page
 * lists the checks with their verdicts.
 *
 * - passed: an empty testcase; its warnings (a protected path) in <system-out>.
 * - failed: <failure type="failed"> with the findings' count as its message, and every finding
 *   (file:line, what, the fix) plus the check's details (a verify command's output tail) as text.
 * - skipped: <skipped message="…"> with the reason.
 *
 * Findings never hold a secret's value (core/review masks it), so the file never does either.
 */
import type { CheckResult, Finding } from '../../core/review/checks.js';
import { plural } from '../../shared/text.js';
import type { ReviewSubject } from '../wiring/review.js';
import { junitDocument, junitTotals, testcaseXml, type JunitOptions, type JunitOutcome } from './junit.js';

function findingText(f: Finding): string {
  const where = f.line === null ? f.file : `${f.file}:${f.line}`;
  return `${where}: ${f.severity}: ${f.message}\n  fix: ${f.fix}`;
}

function outcomeOf(result: CheckResult): JunitOutcome {
  switch (result.status) {
    case 'passed':
      return { kind: 'passed' };
    case 'skipped':
      return { kind: 'skipped', message: result.reason ?? 'skipped' };
    case 'failed': {
      const errors = result.findings.filter((f) => f.severity === 'error').length;
      const message = result.reason ?? (errors > 0 ? plural(errors, 'problem') : 'failed');
      const body = [...result.findings.map(findingText), ...(result.details ?? [])].join('\n');
      return { kind: 'failure', type: 'failed', message, body };
    }
  }
}

/** What a passing check still has to say: its warnings. */
function systemOut(result: CheckResult): string | null {
  if (result.status !== 'passed' || result.findings.length === 0) return null;
  return result.findings.map(findingText).join('\n');
}

export function renderReviewJunit(
  results: readonly CheckResult[],
  subject: ReviewSubject | null,
  options: JunitOptions & { durationMs: number },
): string {
  const verdict = results.some((r) => r.status === 'failed') ? 'failed' : 'passed';
  const properties: Array<[string, string]> = [['aide.verdict', verdict]];
  if (subject !== null) {
    properties.push(['aide.subject', subject.kind]);
    if (subject.fromCommit !== null) properties.push(['aide.from_commit', subject.fromCommit]);
    if (subject.toCommit !== null) properties.push(['aide.to_commit', subject.toCommit]);
    if (subject.toTree !== null) properties.push(['aide.to_tree', subject.toTree]);
  }
  return junitDocument(
    options,
    junitTotals(
      results.map((r) => outcomeOf(r).kind),
      options.durationMs,
    ),
    properties,
    results.flatMap((r) =>
      testcaseXml({ classname: 'aide.review', name: r.name, time: 0 }, outcomeOf(r), systemOut(r)),
    ),
  );
}

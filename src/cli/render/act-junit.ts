/**
 * An `aide act` run as JUnit XML (`--junit FILE`), written with the helpers of junit.ts: the
 * suite is named after the plan's title, and each step is one <testcase> named "Step N: title",
 * so a CI page lists the plan's steps with their verdicts.
 *
 * - applied, verified (dry run): passed; `time` is the step's verify time.
 * - failed, conflict: <failure type="failed|conflict"> with the reason as its message, and the
 *   reason plus the failing commands' output tails as its text.
 * - skipped, not run, interrupted: <skipped message="…"> saying why.
 * - <system-out>: the verify summary, each verify command with its log, the files, the checkpoint.
 */
import { stopsSession } from '../../core/flows/act.js';
import type { ActReport, StepReport } from '../../core/act-report.js';
import {
  isolationText,
  junitDocument,
  junitTotals,
  testcaseXml,
  type JunitOptions,
  type JunitOutcome,
} from './junit.js';

export interface ActJunitOptions extends JunitOptions {
  /** The plan file, as shown to the user. */
  plan: string;
}

const firstLine = (text: string) => text.split('\n', 1)[0] ?? '';

/** The step that stopped the run before this one, if any. */
/** How a step that stopped the session is named in the later steps' reason. */
const STOPPED: Partial<Record<StepReport['status'], string>> = {
  cancelled: 'was interrupted',
  conflict: 'could not be written',
  refused: 'was refused (protected files)',
  aborted: 'was aborted',
};

function stoppedBy(report: ActReport, index: number): StepReport | undefined {
  return report.steps.slice(0, index).find((s) => stopsSession(s.status));
}

function failureBody(step: StepReport): string {
  const tails = (step.verify?.commands ?? [])
    .filter((c) => (c.status === 'failed' || c.status === 'timed_out') && c.tail.trim() !== '')
    .map((c) => `${c.name}:\n${c.tail.trimEnd()}`);
  const saved = step.patchFile === null ? [] : [`the verified patch is saved in ${step.patchFile}`];
  return [step.reason ?? '', ...saved, ...tails].filter((part) => part !== '').join('\n\n');
}

function outcomeOf(report: ActReport, index: number): JunitOutcome {
  const step = report.steps[index];
  if (step === undefined) return { kind: 'passed' };
  switch (step.status) {
    case 'applied':
    case 'verified':
      return { kind: 'passed' };
    case 'failed':
    case 'conflict':
    case 'refused':
      return {
        kind: 'failure',
        type: step.status,
        message: firstLine(step.reason ?? step.status),
        body: failureBody(step),
      };
    case 'skipped':
      return { kind: 'skipped', message: `skipped: ${step.reason ?? 'not carried out'}` };
    case 'cancelled':
      return { kind: 'skipped', message: 'interrupted (Ctrl-C)' };
    case 'aborted':
      return { kind: 'skipped', message: `aborted: ${step.reason ?? 'you stopped the session here'}` };
    case 'not_run': {
      const before = stoppedBy(report, index);
      return {
        kind: 'skipped',
        message:
          before === undefined
            ? 'not run'
            : `not run: step ${before.number} ${STOPPED[before.status] ?? 'failed'}`,
      };
    }
  }
}

function systemOut(step: StepReport): string | null {
  const lines: string[] = [];
  if (step.verify !== null) {
    lines.push(`verify: ${step.verify.summary}`);
    for (const command of step.verify.commands)
      lines.push(
        `  ${command.name}: ${command.status}${command.logPath === null ? '' : ` (log: ${command.logPath})`}`,
      );
  }
  if (step.files.length > 0)
    lines.push(`files: ${step.files.map((f) => `${f.path} +${f.added} -${f.removed}`).join(', ')}`);
  if (step.checkpoint !== null) lines.push(`checkpoint: ${step.checkpoint}`);
  return lines.length === 0 ? null : lines.join('\n');
}

export function renderActJunit(report: ActReport, options: ActJunitOptions): string {
  const outcomes = report.steps.map((_, index) => outcomeOf(report, index));
  const time = report.steps.reduce((sum, step) => sum + (step.verify?.durationMs ?? 0), 0);
  const isolation = report.steps.find((s) => s.verify !== null)?.verify?.isolation;
  const properties: Array<[string, string]> = [
    ['aide.plan', options.plan],
    ['aide.session', report.session],
    ['aide.dry_run', String(report.dryRun)],
    ...(isolation === undefined ? [] : [['aide.isolation', isolationText(isolation)] as [string, string]]),
  ];
  const testcases = report.steps.flatMap((step, index) =>
    testcaseXml(
      {
        classname: 'aide.act',
        name: `Step ${step.number}: ${step.title}`,
        time: step.verify?.durationMs ?? 0,
      },
      outcomes[index] ?? { kind: 'passed' },
      systemOut(step),
    ),
  );
  return junitDocument(
    options,
    junitTotals(
      outcomes.map((o) => o.kind),
      time,
    ),
    properties,
    testcases,
  );
}

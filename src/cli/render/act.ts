/** Text and JSON lines for `aide act`. */
import type { AideEvent } from '../../core/events.js';
import type { ActReport, StepReport } from '../../core/act-report.js';
import type { ProtectedChange } from '../../core/ports/approval.js';
import { plural } from '../../shared/text.js';
import type { OutputStream } from '../io.js';
import { attemptLines } from './act-agent.js';
import { bestAttemptText } from './act-best-attempt.js';
import { approvalText } from './approval.js';
import { describePlanChanges } from './plan-changes.js';
import type { Style } from './style.js';
import { isolationLine, testsText } from './verify.js';
import { formatDuration } from '../../shared/units.js';

/** How protected files are named in a message: `test/a.test.js (rule **\/test/**)`. */
export function protectedList(files: readonly ProtectedChange[]): string {
  return files.map((f) => `${f.path} (rule ${f.rule})`).join(', ');
}

/**
 * `--json`: one object per line, every event as the audit log has it (schema aide.act.event/1);
 * an approval also in words (`question`, `details`), where the log keeps only what was asked.
 */
export function actEventJson(event: AideEvent): string {
  // The streamed text is the turn's; a JSON line per chunk would drown the log.
  if (event.type === 'step_agent' && event.event.type === 'model_streaming') return '';
  if (event.type === 'approval_requested')
    return `${JSON.stringify({ schema: 'aide.act.event/1', ...event, ...approvalText(event.subject) })}\n`;
  return `${JSON.stringify({ schema: 'aide.act.event/1', ...event })}\n`;
}

function stepLine(report: StepReport, style: Style): string {
  const files = report.files.map((f) => `${f.path} +${f.added} -${f.removed}`).join(', ');
  switch (report.status) {
    case 'applied':
      return `  ${style.green('✓')} written: ${files}`;
    case 'verified':
      return `  ${style.green('✓')} verified, not written (dry run): ${files}`;
    case 'skipped':
      return `  ${style.yellow('-')} skipped: ${report.reason ?? ''}`;
    case 'refused':
      return `  ${style.red('✗')} not written: ${report.reason ?? ''}`;
    case 'aborted':
      return `  ${style.yellow('-')} aborted: ${report.reason ?? ''}`;
    case 'conflict':
      return `  ${style.red('✗')} not written: ${report.reason ?? ''}${report.patchFile === null ? '' : `\n    the verified patch is saved in ${report.patchFile}`}`;
    case 'failed': {
      const reason = (report.reason ?? '').replace(/\n/g, '\n    ');
      // After verification the reason is its verdict, which says "failed: …" itself.
      return `  ${style.red('✗')} ${report.verify === null ? `failed: ${reason}` : reason}`;
    }
    case 'cancelled':
      return `  ${style.yellow('-')} interrupted`;
    case 'not_run':
      return `  ${style.dim('-')} not run`;
  }
}

/** Plain lines as the steps run (logs, CI, pipes). */
export class PlainActView {
  private isolationShown = false;

  constructor(
    private readonly out: OutputStream,
    private readonly style: Style,
  ) {}

  event(event: AideEvent): void {
    const { style } = this;
    switch (event.type) {
      case 'step_started':
        this.out.write(`${style.bold(`Step ${event.step}: ${event.title}`)}\n`);
        break;
      case 'session_resumed':
        this.out.write(renderResumed(event, style));
        break;
      case 'step_edited':
        this.out.write(
          `  ${style.dim('edited:')} ${event.files.map((f) => `${f.path} +${f.added} -${f.removed}`).join(', ')}\n`,
        );
        break;
      case 'verify_started':
        // The same for every step: said once.
        if (!this.isolationShown) this.out.write(`  ${style.dim(isolationLine(event.isolation))}\n`);
        this.isolationShown = true;
        break;
      case 'command_finished': {
        const ok = event.run.exitCode === 0 && !event.run.timedOut;
        const tests = testsText(event.run.tests);
        this.out.write(
          `  ${ok ? style.green('✓') : style.red('✗')} ${event.name}  ${formatDuration(event.run.durationMs)}${tests === '' ? '' : `  ${tests}`}${event.rerun ? style.yellow('  (running it again: flake guard)') : ''}\n`,
        );
        if (!ok && !event.rerun && event.tail.trim() !== '')
          this.out.write(
            `${event.tail
              .trimEnd()
              .split('\n')
              .map((l) => `    ${style.dim('│')} ${l}`)
              .join('\n')}\n`,
          );
        break;
      }
      case 'attempt_started':
      case 'step_agent':
      case 'attempt_finished':
        this.out.write(attemptLines(event, style));
        break;
      case 'verify_finished':
        // A failure is said by the step's own line.
        if (event.report.verdict === 'passed') this.out.write(`  ${style.green(event.report.summary)}\n`);
        break;
      case 'checkpoint_created':
        this.out.write(`  checkpoint ${event.result.checkpoint.short}\n`);
        break;
      case 'step_finished':
        // Said whatever happened to the step: a dry run in CI shows it too.
        if (event.report.protectedFiles.length > 0 && event.report.status !== 'refused') {
          this.out.write(
            `  ${style.yellow('!')} changes protected files: ${protectedList(event.report.protectedFiles)}\n`,
          );
        }
        this.out.write(`${stepLine(event.report, style)}\n`);
        // A step no attempt passed: its best attempt's changes, below the reason and tail.
        this.out.write(indent(bestAttemptText(event.report, style, { tail: false }), '    '));
        break;
      // The step's line says how it ended, with its files and any approval's outcome.
      case 'command_started':
      case 'approval_requested':
      case 'approval_decided':
      case 'edits_parsed':
      case 'block_planned':
      case 'patch_applied':
        break;
      // The summary after the session is printed from the report the flow returns.
      case 'session_finished':
        break;
      // Not events of aide act.
      // The agent loop's events bare are Plan mode's (render/plan.ts); act's come as step_agent.
      case 'plan_started':
      case 'model_turn_started':
      case 'model_streaming':
      case 'model_retrying':
      case 'model_turn':
      case 'tool_call':
      case 'tool_result':
      case 'agent_mistake':
      case 'context_trimmed':
      case 'restore_pending':
      case 'restore_planned':
      case 'files_restored':
      case 'restore_finished':
        break;
    }
  }
}

/** Each line of `text` with `prefix` before it (an empty line stays empty). */
function indent(text: string, prefix: string): string {
  return text.replace(/^(?=.)/gm, prefix);
}

/** A resumed session: what was done before, what is being finished, what changed in the plan. */
function renderResumed(event: Extract<AideEvent, { type: 'session_resumed' }>, style: Style): string {
  const done =
    event.done.length === 0
      ? ''
      : `: ${event.done.length === 1 ? 'step' : 'steps'} ${event.done.join(', ')} done before`;
  const lines = [style.bold(`Resuming session ${event.session}${done}`)];
  if (event.writeBack !== null) {
    lines.push(
      `  aide stopped while it wrote step ${event.writeBack.step} into your files (${plural(event.writeBack.files, 'file')}): finishing it`,
    );
  }
  if (event.planChanges !== null) {
    if (event.planChanges.length === 0)
      lines.push('  the plan file changed since, but none of its steps did');
    else
      lines.push(
        '  the plan changed since the session stopped:',
        ...describePlanChanges(event.planChanges).map((line) => `    ${line}`),
      );
  }
  return `${lines.join('\n')}\n`;
}

/** After a session that stopped short: the command that carries it on. */
export function renderResumeHint(command: string, style: Style): string {
  return `${style.dim(`Carry on from where it stopped with \`${command}\`.`)}\n`;
}

/** The end: how many steps did what, and how to undo. */
export function renderActSummary(report: ActReport, style: Style): string {
  const count = (status: StepReport['status']) => report.steps.filter((s) => s.status === status).length;
  const parts = [
    report.dryRun
      ? `${plural(count('verified'), 'step')} verified (dry run: nothing written)`
      : `${plural(count('applied'), 'step')} applied`,
    `${count('skipped')} skipped`,
    `${count('failed') + count('conflict')} failed`,
    ...(count('refused') > 0 ? [`${count('refused')} refused (protected files)`] : []),
    ...(count('aborted') > 0 ? ['aborted'] : []),
    ...(count('not_run') > 0 ? [`${count('not_run')} not run`] : []),
  ];
  const lines = ['', style.bold(parts.join(', '))];
  const recorded = report.steps.filter(
    (s) => s.checkpoint !== null && (s.status === 'applied' || s.status === 'verified'),
  );
  if (recorded.length > 0)
    lines.push(
      `Checkpoints: ${recorded.map((s) => `${(s.checkpoint ?? '').slice(0, 10)} (step ${s.number})`).join(', ')}`,
    );
  if (!report.dryRun && count('applied') > 0)
    lines.push(
      `Undo with \`aide restore ${report.base.slice(0, 10)}\` (the files as they were before this session).`,
    );
  return `${lines.join('\n')}\n`;
}

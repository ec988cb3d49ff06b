/** Text and JSON for `aide verify`: plain lines as the commands run, then the verdict. */
import { relative } from 'node:path';
import { isModelEvent, type AideEvent } from '../../core/events.js';
import type { IsolationReport } from '../../core/ports/commands.js';
import type { CommandReport, CommandRunRecord, TestCounts, VerifyReport } from '../../core/verify/report.js';
import { failureReason } from '../../core/verify/summary.js';
import { plural } from '../../shared/text.js';
import { formatDuration } from '../../shared/units.js';
import type { OutputStream } from '../io.js';
import type { Style } from './style.js';

/** What was verified, for the header and --json. */
export interface VerifyContext {
  root: string;
  session: string;
  source: { kind: 'worktree' | 'staged' | 'ref'; ref: string | null; commit: string | null; tree: string };
  /** 'sandbox': .aide/sandbox.json; 'detected': it lists none, so the detected ones ran. */
  commandSource: 'sandbox' | 'detected';
  /** Files left out of the working-tree snapshot (over checkpoints.max_file_bytes). */
  skipped: Array<{ path: string; bytes: number }>;
  /** Optional commands of sandbox.json that did not run because nothing named them. */
  optionalNotRun: string[];
}

function sourceLabel(context: VerifyContext): string {
  switch (context.source.kind) {
    case 'worktree':
      return 'the working tree (uncommitted changes included)';
    case 'staged':
      return 'the staged changes (the index)';
    case 'ref':
      return `${context.source.ref ?? ''} (${(context.source.commit ?? '').slice(0, 10)})`;
  }
}

/** What protected the commands, exactly as far as it was in force. */
export function isolationLine(isolation: IsolationReport): string {
  // Without a mechanism the detail is the whole story ("network isolation: unavailable because …").
  if (isolation.mechanism === 'none') return isolation.detail ?? 'isolation: none';
  const parts = [isolation.network === 'off' ? 'no network' : 'network allowed'];
  // 'scratch' also means the sockets outside it are out of sight; the report says both apart.
  if (isolation.writable === 'scratch') parts.push('scratch-only writes');
  else parts.push(isolation.workspaceReadOnly ? 'workspace read-only' : 'workspace writable');
  if (isolation.processTree === 'namespace') parts.push('every process ends with its command');
  const detail = isolation.detail === null ? '' : `; ${isolation.detail}`;
  return `isolation: ${parts.join(', ')} (${isolation.mechanism}${detail})`;
}

export function testsText(tests: TestCounts | null): string {
  if (tests === null) return '';
  const failed = tests.failed > 0 ? `${tests.failed} failed, ` : '';
  const skipped = tests.skipped > 0 ? `, ${tests.skipped} skipped` : '';
  return `${failed}${plural(tests.passed, 'test')} passed${skipped}`;
}

/** How one run ended, e.g. "passed", "exited 1", "timed out after 2.0 s". */
export function runOutcome(run: CommandRunRecord): string {
  if (run.cancelled) return 'interrupted';
  if (run.startError !== null) return `could not start (${run.startError})`;
  if (run.timedOut) return `timed out after ${formatDuration(run.timeoutMs)}`;
  if (run.signal !== null) return `killed by ${run.signal}`;
  return run.exitCode === 0 ? 'passed' : `exited ${run.exitCode ?? '?'}`;
}

/** Plain lines as events arrive: for logs, CI and pipes (no TTY). */
export class PlainVerifyView {
  constructor(
    private readonly out: OutputStream,
    private readonly style: Style,
    private readonly context: VerifyContext,
  ) {}

  event(event: AideEvent): void {
    // A verify has no model.
    if (isModelEvent(event)) return;
    switch (event.type) {
      case 'verify_started':
        this.out.write(
          `aide verify: ${sourceLabel(this.context)}, ${plural(event.commands.length, 'command')}\n`,
        );
        this.out.write(`${this.style.dim(isolationLine(event.isolation))}\n`);
        break;
      case 'command_started':
        this.out.write(
          `${this.style.dim('→')} ${event.name}${event.attempt > 1 ? ` (run ${event.attempt}, flake guard)` : ''}\n`,
        );
        break;
      case 'command_finished':
        this.out.write(`${this.finishedLine(event.name, event.run)}\n`);
        if (event.rerun)
          this.out.write(
            `  ${this.style.yellow('failed once; running it again before the failure counts (flake_reruns)')}\n`,
          );
        break;
      // The verdict is printed from the report, after the last command (renderVerifyResult).
      case 'verify_finished':
        break;
      // Not events of aide verify.
      case 'checkpoint_created':
      case 'edits_parsed':
      case 'block_planned':
      case 'patch_applied':
      case 'restore_pending':
      case 'restore_planned':
      case 'approval_requested':
      case 'approval_decided':
      case 'files_restored':
      case 'restore_finished':
      case 'step_started':
      case 'step_edited':
      case 'step_finished':
      case 'attempt_started':
      case 'step_agent':
      case 'attempt_finished':
      case 'session_finished':
      case 'session_resumed':
        break;
    }
  }

  private finishedLine(name: string, run: CommandRunRecord): string {
    const outcome = runOutcome(run);
    const ok = outcome === 'passed';
    const mark = ok ? this.style.green('✓') : this.style.red('✗');
    const tests = testsText(run.tests);
    return [
      `${mark} ${name}`,
      ok ? null : outcome,
      formatDuration(run.durationMs),
      tests === '' ? null : tests,
    ]
      .filter((p) => p !== null)
      .join('  ');
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** The failing command's output tail and log, indented under it. */
function failureBlock(command: CommandReport, root: string, style: Style): string[] {
  const lines = [`${style.red('✗')} ${style.bold(command.name)} ${failureReason(command)}`];
  const tail = command.tail.trimEnd();
  if (tail !== '') lines.push(...tail.split('\n').map((l) => `  ${style.dim('│')} ${l}`));
  if (command.logPath !== null) lines.push(`  log: ${relative(root, command.logPath)}`);
  return lines;
}

/** The verdict: what failed (with its output tail and log), notes, then the one-line summary. */
export function renderVerifyResult(report: VerifyReport, context: VerifyContext, style: Style): string {
  const lines: string[] = [''];
  for (const command of report.commands) {
    if (command.status === 'failed' || command.status === 'timed_out')
      lines.push(...failureBlock(command, context.root, style));
    if (command.status === 'not_run' && report.verdict !== 'passed')
      lines.push(`${style.dim('-')} ${command.name} not run`);
  }
  if (context.optionalNotRun.length > 0)
    lines.push(
      style.dim(
        `optional, not run: ${context.optionalNotRun.join(', ')} (name them with --commands to run them)`,
      ),
    );
  if (context.commandSource === 'detected')
    lines.push(
      style.yellow(
        'note: .aide/sandbox.json lists no commands; these were detected in the project (`aide init` writes them down).',
      ),
    );
  if (report.withheldEnv.length > 0) {
    lines.push(
      style.dim(
        `withheld from the commands (not on the allow-list): ${report.withheldEnv.join(', ')}; list one in env_allow in .aide/sandbox.json to pass it`,
      ),
    );
  }
  if (context.skipped.length > 0)
    lines.push(
      style.yellow(
        `left out (over checkpoints.max_file_bytes): ${context.skipped.map((s) => s.path).join(', ')}`,
      ),
    );
  if (report.isolation.network === 'unavailable' || report.isolation.mechanism === 'none')
    lines.push(style.yellow(isolationLine(report.isolation)));
  const summary = style.bold(report.summary);
  lines.push(
    report.verdict === 'passed'
      ? style.green(summary)
      : report.verdict === 'failed'
        ? style.red(summary)
        : style.yellow(summary),
  );
  return `${lines.join('\n')}\n`;
}

export function verifyJson(report: VerifyReport, context: VerifyContext): string {
  const { root, session, source, commandSource, skipped } = context;
  return `${JSON.stringify({ schema: 'aide.verify/1', ok: report.verdict === 'passed', root, session, source, commandSource, skipped, ...report }, null, 2)}\n`;
}

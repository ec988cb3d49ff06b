/**
 * `aide plan` as the user sees it: a line when the model is ready, a line per tool call with
 * the turn's speed, a live status line while the model writes (on a terminal only), and at the
 * end the plan's path, its steps and the next command. `--json` is the events as JSON lines
 * (streamed text left out: the turns carry the counts) and one result object.
 */
import type { AideEvent } from '../../core/events.js';
import type { Plan } from '../../core/plan/schema.js';
import { plural } from '../../shared/text.js';
import { formatDuration } from '../../shared/units.js';
import type { OutputStream } from '../io.js';
import type { Style } from './style.js';

const SCHEMA = 'aide.plan.event/1';

/** One event as a JSON line; null for the streamed text, which only the terminal shows. */
export function planEventJson(event: AideEvent): string | null {
  if (event.type === 'model_streaming') return null;
  return `${JSON.stringify({ schema: SCHEMA, ...event })}\n`;
}

/** The JSON result after the events. */
export function planResultJson(path: string, plan: Plan, iterations: number): string {
  return `${JSON.stringify({
    schema: 'aide.plan.result/1',
    ok: true,
    path,
    title: plan.title,
    base: plan.base,
    steps: plan.steps.map((step) => ({ number: step.number, title: step.title, files: step.files })),
    iterations,
  })}\n`;
}

function rate(tokensPerSecond: number | null): string {
  return tokensPerSecond === null ? '' : `, ${tokensPerSecond.toFixed(1)} tok/s`;
}

/** Plain lines as events arrive, on stderr: stdout is left for the result. */
export class PlanView {
  private status = '';

  constructor(
    private readonly out: OutputStream,
    private readonly style: Style,
    /** A terminal: the live status line is drawn (and erased before each line). */
    private readonly live: boolean,
  ) {}

  event(event: AideEvent): void {
    switch (event.type) {
      case 'plan_started': {
        const context = `${event.contextTokens} tokens of context${event.contextSource === null ? '' : ` (${event.contextSource})`}`;
        this.line(`aide plan: ${event.model} on ${event.server}, ${context}`);
        this.line(
          this.style.dim(
            `snapshot ${event.snapshot.slice(0, 10)}: ${plural(event.files, 'file')}; repository map ~${event.mapTokens} tokens`,
          ),
        );
        if (event.focus.length > 0) this.line(this.style.dim(`focus: ${event.focus.join(', ')}`));
        for (const path of event.missingFocus)
          this.line(this.style.yellow(`the task names ${path}, which the snapshot does not have`));
        break;
      }
      case 'model_turn_started':
        this.draw(`model: thinking (turn ${event.iteration}${event.grammar ? ', under a grammar' : ''})…`);
        break;
      case 'model_streaming':
        this.draw(`model: writing, ${plural(event.tokens, 'token')}${rate(event.tokensPerSecond)}`);
        break;
      case 'model_retrying':
        this.line(
          this.style.yellow(
            `the server is not ready (${event.reason}); trying again in ${formatDuration(event.delayMs)} (${event.attempt})`,
          ),
        );
        break;
      case 'model_turn':
        this.line(
          this.style.dim(
            `  turn ${event.iteration}: ${formatDuration(event.durationMs)}` +
              `${event.evalTokens === null ? '' : `, ${plural(event.evalTokens, 'token')}`}${rate(event.tokensPerSecond)}`,
          ),
        );
        break;
      case 'tool_call':
        this.line(`${this.style.cyan('→')} ${event.summary}`);
        break;
      case 'tool_result':
        // A counted failure is said once, by the agent_mistake that follows.
        if (!event.ok && !event.counted) this.line(`  ${this.style.yellow('!')} ${event.summary}`);
        break;
      case 'agent_mistake':
        this.line(
          `  ${this.style.yellow('!')} ${event.forUser} (${plural(event.mistakes, 'mistake')} in a row)`,
        );
        break;
      case 'context_trimmed':
        this.line(
          this.style.dim(
            `  dropped the ${plural(event.droppedResults, 'oldest tool result')} to stay within the context (~${event.promptTokensEstimate} tokens)`,
          ),
        );
        break;
      // Not events of aide plan.
      case 'edits_parsed':
      case 'block_planned':
      case 'checkpoint_created':
      case 'patch_applied':
      case 'restore_pending':
      case 'restore_planned':
      case 'approval_requested':
      case 'approval_decided':
      case 'files_restored':
      case 'restore_finished':
      case 'verify_started':
      case 'command_started':
      case 'command_finished':
      case 'verify_finished':
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

  /** Erases the status line: call before printing anything else to the same terminal. */
  clear(): void {
    if (this.live && this.status !== '') this.out.write('\r\u001b[K');
    this.status = '';
  }

  private line(text: string): void {
    this.clear();
    this.out.write(`${text}\n`);
  }

  private draw(text: string): void {
    if (!this.live) return;
    const width = Math.max(20, (this.out.columns ?? 80) - 1);
    this.status = text.length > width ? `${text.slice(0, width - 1)}…` : text;
    this.out.write(`\r\u001b[K${this.style.dim(this.status)}`);
  }
}

/** What the user reads when the plan is written: where, its steps, what to do next. */
export function renderPlanWritten(shownPath: string, plan: Plan, iterations: number, style: Style): string {
  const lines = [
    `${style.green('✓')} Plan written: ${style.bold(shownPath)} (${plural(plan.steps.length, 'step')}, ${plural(iterations, 'model turn')})`,
    `  ${plan.title}`,
    ...plan.steps.map(
      (step) =>
        `  ${style.bold(`Step ${step.number}:`)} ${step.title}${step.files.length === 0 ? '' : style.dim(` (${step.files.join(', ')})`)}`,
    ),
    '',
    `Next: read and edit the plan, then run ${style.bold(`aide act ${shellPath(shownPath)}`)}`,
  ];
  return `${lines.join('\n')}\n`;
}

function shellPath(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

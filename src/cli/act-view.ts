/**
 * How `aide act` shows its events, and who answers its questions: --json streams the events;
 * a terminal gets the listr2 task tree, which also asks the step reviews (inside the step's
 * approval task) unless --yes or --dry-run answers them; anything else gets plain lines.
 */
import type { AideEvent } from '../core/events.js';
import type { Plan } from '../core/plan/schema.js';
import type { Approver } from '../core/ports/approval.js';
import type { ActOptions } from './commands/act-options.js';
import type { CliIo, GlobalOptions } from './io.js';
import { actEventJson, PlainActView } from './render/act.js';
import type { Style } from './render/style.js';

export interface ActView {
  event(event: AideEvent): void;
  /** Waits until everything is shown (the task tree finished drawing). */
  close(): Promise<void>;
}

export interface ActViewChoice {
  globals: GlobalOptions;
  io: CliIo;
  options: ActOptions;
  plan: Plan;
  style: Style;
  /** The approver chosen for the run (before any work). */
  approver: Approver;
  signal: AbortSignal;
}

/** The view, and the approver to give the flow: the task tree itself when it asks the questions. */
export async function openActView(choice: ActViewChoice): Promise<{ view: ActView; approver: Approver }> {
  const { globals, io, options, plan, style, approver } = choice;
  if (globals.json)
    return {
      view: { event: (e) => io.stdout.write(actEventJson(e)), close: () => Promise.resolve() },
      approver,
    };
  if (io.stdout.isTTY !== true || io.env['TERM'] === 'dumb') {
    const plain = new PlainActView(io.stdout, style);
    return {
      view: {
        event: (e) => {
          plain.event(e);
        },
        close: () => Promise.resolve(),
      },
      approver,
    };
  }
  const { TaskListActView } = await import('./render/act-tasks.js');
  const view = new TaskListActView({
    title: plan.title,
    steps: plan.steps.map((s) => ({ number: s.number, title: s.title, runs: s.run.length })),
    dryRun: options.dryRun,
    style,
    out: io.stdout,
    fd: 1,
    size: () => ({ rows: io.stdout.rows ?? 24, columns: io.stdout.columns ?? 80 }),
    env: io.env,
    stdin: process.stdin,
    signal: choice.signal,
  });
  view.start();
  // Without --yes or --dry-run the person at the terminal answers, in the tree.
  return { view, approver: options.yes || options.dryRun ? approver : view };
}

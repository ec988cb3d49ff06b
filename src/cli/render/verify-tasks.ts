/**
 * The live task list of `aide verify` on a terminal (listr2): one task per command, its elapsed
 * time while it runs, then its time and tests counted. Driven by the same events as the plain
 * lines; nothing here writes to stdout directly while the list is on screen (listr2 owns it).
 */
import {
  Listr,
  PRESET_TIMER,
  type DefaultRenderer,
  type ListrTaskWrapper,
  type SimpleRenderer,
} from 'listr2';
import { isModelEvent, type AideEvent } from '../../core/events.js';
import type { CommandRunRecord } from '../../core/verify/report.js';
import { Deferred } from './deferred.js';
import { isolationLine, runOutcome, testsText } from './verify.js';
import { formatDuration } from '../../shared/units.js';
import type { Style } from './style.js';

interface Outcome {
  run: CommandRunRecord | null;
}

type Task = ListrTaskWrapper<unknown, typeof DefaultRenderer, typeof SimpleRenderer>;

/** Why a command's task failed: "unit exited 1 (1 of 3 tests failed)". */
/**
 * Shows a command's elapsed time (and flake-guard run) in its task's title until it ends; a
 * command that never ran or was interrupted marks the task skipped. Returns the finished run,
 * or null when the task was skipped. Shared by the verify and act task lists.
 */
export async function awaitCommandRun(
  task: { title: string; skip(message: string): void },
  name: string,
  style: Style,
  attempt: () => number,
  ended: Promise<CommandRunRecord | null>,
): Promise<CommandRunRecord | null> {
  const began = Date.now();
  const tick = setInterval(() => {
    const run = attempt();
    task.title = `${name} ${style.dim(`${formatDuration(Date.now() - began)}${run > 1 ? ` · run ${run} (flake guard)` : ''}`)}`;
  }, 250);
  const run = await ended;
  clearInterval(tick);
  if (run === null || run.cancelled) {
    task.skip(`${name}: ${run === null ? 'not run' : 'interrupted'}`);
    return null;
  }
  return run;
}

export function outcomeError(name: string, run: CommandRunRecord): string {
  const tests = testsText(run.tests);
  return `${name} ${runOutcome(run)}${tests === '' ? '' : ` (${tests})`}`;
}

export class TaskListVerifyView {
  private readonly outcomes = new Map<string, Deferred<Outcome>>();
  private readonly attempts = new Map<string, number>();
  private running: Promise<unknown> | null = null;

  constructor(private readonly style: Style) {}

  event(event: AideEvent): void {
    // A verify has no model.
    if (isModelEvent(event)) return;
    switch (event.type) {
      case 'verify_started':
        for (const command of event.commands) this.outcomes.set(command.name, new Deferred());
        this.running = this.start(
          event.commands.map((c) => c.name),
          isolationLine(event.isolation),
        );
        break;
      case 'command_started':
        this.attempts.set(event.name, event.attempt);
        break;
      case 'command_finished':
        if (!event.rerun) this.outcomes.get(event.name)?.resolve({ run: event.run });
        break;
      case 'verify_finished':
        this.settleAll();
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

  private start(names: string[], isolation: string): Promise<unknown> {
    const tasks = names.map((name) => ({
      title: name,
      task: (_: unknown, task: Task) => this.runTask(name, task),
    }));
    const list = new Listr(
      [
        {
          title: this.style.dim(isolation),
          task: (_: unknown, task: Task) => task.newListr(tasks, { concurrent: false, exitOnError: false }),
        },
      ],
      {
        concurrent: false,
        exitOnError: false,
        registerSignalListeners: false,
        rendererOptions: { timer: PRESET_TIMER, collapseSubtasks: false, collapseErrors: false },
      },
    );
    return list.run().catch(() => undefined);
  }

  private async runTask(name: string, task: Task): Promise<void> {
    const ended = (this.outcomes.get(name)?.promise ?? Promise.resolve({ run: null })).then(
      (outcome) => outcome.run,
    );
    const run = await awaitCommandRun(task, name, this.style, () => this.attempts.get(name) ?? 1, ended);
    if (run === null) return;
    const attempts = this.attempts.get(name) ?? 1;
    if (run.exitCode !== 0 || run.timedOut) throw new Error(outcomeError(name, run));
    const tests = testsText(run.tests);
    const flaky = attempts > 1 ? this.style.yellow(' flaky: passed on run ' + String(attempts)) : '';
    // listr2's timer shows the time after the title.
    task.title = `${name}${tests === '' ? '' : `  ${tests}`}${flaky}`;
  }

  private settleAll(): void {
    for (const deferred of this.outcomes.values()) deferred.resolve({ run: null });
  }

  /** Waits for the list to finish drawing; commands that never ran are shown as not run. */
  async close(): Promise<void> {
    this.settleAll();
    await this.running;
  }
}

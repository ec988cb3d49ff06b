/**
 * `aide act` on a terminal: a listr2 task tree with one task per plan step and, under it, a
 * model step's attempts (act-attempt-rows.ts), the edits, each verify command (its time and tests,
 * flake-guard reruns), the approval, and the checkpoint and write; below the tree, the best attempt
 * of a step no attempt passed. Driven by the act flow's events, like the plain lines.
 *
 * It is also the Approver. The flow asks reviewStep() while the step's approval task is on
 * screen; the question is handed to that task, which asks it with a select prompt through the
 * official listr2 enquirer adapter, so listr2 draws the prompt in its own live area instead of
 * two writers fighting over the terminal. "Show diff" suspends the renderer (the prompt is
 * closed by then, so nothing reads the keyboard) and prints the diff, or pages it when it is
 * longer than the screen, then the menu comes back.
 */
import { writeSync } from 'node:fs';
import { Listr } from 'listr2';
import type { AideEvent } from '../../core/events.js';
import type { StepReport } from '../../core/act-report.js';
import type {
  Approval,
  Approver,
  StepDecision,
  StepReview,
  YesNoSubject,
} from '../../core/ports/approval.js';
import { plural } from '../../shared/text.js';
import type { OutputStream } from '../io.js';
import { askStep } from '../step-approver.js';
import type { KeyboardInput } from '../prompt-guard.js';
import { silenceEcho } from '../terminal-echo.js';
import { approvalText } from './approval.js';
import { bestAttemptText } from './act-best-attempt.js';
import {
  agentProgress,
  statusText,
  StepSlot,
  type PlannedStep,
  type Task,
  type Turn,
} from './act-step-slots.js';
import { Deferred } from './deferred.js';
import { showText, type TerminalSize } from './pager.js';
import { stepPrompts } from './act-prompts.js';
import { stepDiff } from './review.js';
import type { Style } from './style.js';
import {
  SUSPENDABLE_OPTIONS,
  suspendableRenderer,
  type SuspendableRenderer,
} from './suspendable-renderer.js';
import { isolationLine } from './verify.js';
import { commandRow, editsRow, writeRow, type StepTask } from './act-step-rows.js';
import { attemptRows } from './act-attempt-rows.js';

export interface ActTaskListOptions {
  /** The plan's title. */
  title: string;
  steps: readonly PlannedStep[];
  dryRun: boolean;
  style: Style;
  /** The terminal (stdout): the final tree and a diff that fits are printed here. */
  out: OutputStream;
  /** Its file descriptor, for the pager's output. */
  fd: number;
  size: () => TerminalSize;
  /** PAGER, LESS. */
  env: Readonly<Record<string, string | undefined>>;
  /** The keyboard the prompts read (keys typed ahead of a prompt are dropped, and not echoed while the tree is live). */
  stdin: KeyboardInput;
  /** Fires on Ctrl-C outside a prompt (SIGINT): a prompt on screen is cancelled, which aborts. */
  signal?: AbortSignal;
}

/** `rows`, each made only once the one before it passed (an untitled task is not drawn, its subtasks are). */
function thenRows(rows: readonly StepTask[]): StepTask {
  const [first, ...rest] = rows;
  return {
    task: (_, host) =>
      host.newListr(first === undefined ? [] : rest.length === 0 ? [first] : [first, thenRows(rest)], {
        concurrent: false,
        exitOnError: true,
      }),
  };
}

export class TaskListActView implements Approver {
  private readonly slots = new Map<number, StepSlot>();
  private current: StepSlot | null = null;
  private readonly answers = new Set<Deferred<StepDecision>>();
  private renderer: SuspendableRenderer | null = null;
  private root: Task | null = null;
  private isolation: string | null = null;
  private running: Promise<void> | null = null;
  /** The steps no attempt passed: their best attempts are shown once the tree is drawn. */
  private readonly unverified: StepReport[] = [];

  constructor(private readonly options: ActTaskListOptions) {
    for (const step of options.steps) this.slots.set(step.number, new StepSlot(step));
  }

  /** Draws the tree; call once, before the first event. */
  start(): void {
    const { style } = this.options;
    const Renderer = suspendableRenderer(this.options.out, (renderer) => (this.renderer = renderer));
    const steps = [...this.slots.values()].map((slot) => this.stepTask(slot));
    const list = new Listr<unknown, typeof SuspendableRenderer, 'simple'>(
      [
        {
          title: style.bold(`aide act: ${this.options.title}${this.options.dryRun ? ' (dry run)' : ''}`),
          task: (_, task) => {
            this.root = task;
            if (this.isolation !== null) task.output = this.isolation;
            return task.newListr(steps, { concurrent: false, exitOnError: false });
          },
          rendererOptions: { persistentOutput: true },
        },
      ],
      {
        renderer: Renderer,
        concurrent: false,
        exitOnError: false,
        registerSignalListeners: false,
        rendererOptions: { ...SUSPENDABLE_OPTIONS, collapseSubtasks: false, collapseErrors: false },
      },
    );
    // listr2 hides the cursor while the tree is live; a process that exits in the middle (an
    // uncaught error, a second signal) must not leave the terminal without one.
    const showCursor = () => writeSync(this.options.fd, '\u001b[?25h');
    process.once('exit', showCursor);
    const restoreEcho = silenceEcho(this.options.stdin);
    this.running = list
      .run()
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        process.off('exit', showCursor);
        restoreEcho();
        // Never leave the flow waiting on a question no task will ask.
        for (const answer of this.answers) answer.resolve({ kind: 'abort' });
      });
  }

  event(event: AideEvent): void {
    const slot = this.current;
    switch (event.type) {
      case 'step_started':
        this.current = this.slots.get(event.step) ?? null;
        this.current?.started.resolve(true);
        break;
      case 'step_edited': {
        const edited = this.slots.get(event.step);
        if (edited !== undefined) edited.edited = event.files;
        break;
      }
      case 'verify_started':
        this.showIsolation(this.options.style.dim(isolationLine(event.isolation)));
        if (slot?.agent != null) {
          slot.agent.commands = event.commands.map((c) => c.name);
          slot.agent.runs.clear();
          break;
        }
        for (const command of event.commands) slot?.runs.set(command.name, new Deferred());
        slot?.verifying.resolve(event.commands.map((c) => c.name));
        break;
      case 'command_started':
        slot?.attempts.set(event.name, event.attempt);
        break;
      case 'command_finished':
        if (!event.rerun) {
          slot?.tails.set(event.name, event.tail);
          slot?.agent?.runs.set(event.name, event.run);
          slot?.runs.get(event.name)?.resolve(event.run);
        }
        break;
      case 'verify_finished':
        slot?.settleRuns();
        break;
      case 'approval_decided':
        // --yes decides without asking; at the terminal the question was handed over already.
        if (event.decision !== undefined) slot?.turn.resolve({ kind: 'decided', decision: event.decision });
        break;
      case 'checkpoint_created':
        if (slot !== null) slot.checkpoint = event.result.checkpoint.short;
        break;
      case 'step_finished':
        this.slots.get(event.report.number)?.finish(event.report);
        if (event.report.bestAttempt !== undefined) this.unverified.push(event.report);
        this.current = null;
        break;
      case 'session_finished':
        for (const report of event.report.steps) this.slots.get(report.number)?.finish(report);
        break;
      // The step's approval task asks its own question (reviewStep); the edits show in its files.
      case 'approval_requested':
      case 'edits_parsed':
      case 'block_planned':
      case 'patch_applied':
        break;
      // The resume's events are shown before the tree opens (act-run.ts); the rest are not aide act's.
      // Agent loop events bare are Plan mode's; a model step's come as step_agent (above).
      case 'attempt_started':
      case 'step_agent':
      case 'attempt_finished':
        if (slot !== null) agentProgress(slot, event);
        break;
      case 'session_resumed':
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

  /** aide act asks only step reviews; a yes/no question here is a bug. */
  confirm(subject: YesNoSubject): Promise<Approval> {
    return Promise.reject(new Error(`the act task list cannot ask "${approvalText(subject).question}"`));
  }

  /** Hands the question to the step's approval task and waits for its answer. */
  reviewStep(review: StepReview): Promise<StepDecision> {
    const slot = this.slots.get(review.step);
    if (slot === undefined || this.running === null)
      return Promise.reject(new Error(`step ${review.step} is not in the task list`));
    const answer = new Deferred<StepDecision>();
    this.answers.add(answer);
    slot.turn.resolve({ kind: 'ask', review, answer });
    return answer.promise.finally(() => this.answers.delete(answer));
  }

  /** Waits for the tree to be drawn in full; steps that never ran are shown as not run. */
  async close(): Promise<void> {
    for (const slot of this.slots.values()) slot.finish(null);
    await this.running;
    // Below the tree (its row says only the verdict), printed, not paged: nothing is asked, so
    // the session should end without waiting on a pager; the patch file keeps it.
    for (const report of this.unverified)
      this.options.out.write(`\n${bestAttemptText(report, this.options.style, { tail: true })}`);
  }

  private showIsolation(line: string): void {
    if (this.isolation !== null) return;
    this.isolation = line;
    if (this.root !== null) this.root.output = line;
  }

  private stepTask(slot: StepSlot): StepTask {
    return {
      title: slot.title,
      task: async (_, task) => {
        slot.task = task;
        if (!(await slot.started.promise)) {
          const report = await slot.finished.promise;
          task.skip(
            `${slot.title} — ${report === null || report.status === 'not_run' ? 'not run' : statusText(report)}`,
          );
          return;
        }
        task.output =
          slot.plan.runs > 0
            ? `applying the edits, running ${plural(slot.plan.runs, 'Run command')}…`
            : 'applying the edits…';
        // A model step's first attempt starts before any verification; written edits verify first.
        const first = await Promise.race([
          slot.firstAttempt.promise,
          slot.verifying.promise.then(() => null),
        ]);
        task.output = '';
        if (first !== null)
          return task.newListr(
            [attemptRows(first, slot, this.options.style, () => this.verifiedRows(slot, task))],
            { concurrent: false, exitOnError: true },
          );
        return task.newListr(await this.verifiedRows(slot, task), { concurrent: false, exitOnError: true });
      },
    };
  }

  /** The rows of a step that reached verification: its edits, each command, the approval, the write. */
  private async verifiedRows(slot: StepSlot, task: Task): Promise<StepTask[]> {
    const commands = await slot.verifying.promise;
    if (commands === null) return [{ task: () => this.endedEarly(slot, task) }];
    // A subtask that fails (a command, a refusal, a conflict) fails the step; the rest are not
    // reached. They are not drawn either: each later row is made (inside an untitled task,
    // which is not drawn itself) only once the rows before it passed, so a failed step does not
    // go on listing an approval and a write that will never come.
    const later = [
      ...(this.options.dryRun ? [] : [this.approvalTask(slot)]),
      writeRow(slot, this.options.style, this.options.dryRun),
    ];
    return [
      editsRow(slot),
      ...commands.map((name) => commandRow(slot, name, this.options.style)),
      thenRows(later),
    ];
  }

  /** The step ended before verification: its edits or Run commands failed, or it changed nothing. */
  private async endedEarly(slot: StepSlot, task: Task): Promise<void> {
    const report = await slot.finished.promise;
    if (report?.status === 'failed') throw new Error(report.reason ?? 'failed');
    task.skip(`${slot.title} — ${report === null ? 'not finished' : statusText(report)}`);
  }

  private approvalTask(slot: StepSlot): StepTask {
    return {
      title: 'Approval',
      task: async (_, task) => {
        const turn = await slot.turn.promise;
        switch (turn.kind) {
          case 'none':
            task.skip('Approval: not asked');
            return;
          case 'decided':
            return this.showDecision(slot, task, { kind: turn.decision }, ' (--yes)');
          case 'ask':
            task.title = 'Approval: waiting for your answer';
            // The prompts get a task of their own (untitled, so not drawn): the enquirer adapter
            // (3.0.5) cancels its prompt when its task is skipped, even a prompt already answered,
            // and that puts the task back to running. The approval task can then show a skip.
            return task.newListr([{ task: (__, host) => this.review(slot, task, host, turn) }]);
        }
      },
    };
  }

  private async review(
    slot: StepSlot,
    approval: Task,
    host: Task,
    turn: Extract<Turn, { kind: 'ask' }>,
  ): Promise<void> {
    const decision = await askStep(
      turn.review,
      stepPrompts(host, {
        style: this.options.style,
        stdin: this.options.stdin,
        signal: this.options.signal,
        showDiff: (review) => this.showDiff(review),
      }),
    ).catch((): StepDecision => ({
      kind: 'abort',
    }));
    turn.answer.resolve(decision);
    const count = turn.review.protectedFiles.length;
    await this.showDecision(
      slot,
      approval,
      decision,
      count === 0 ? '' : `, protected ${count === 1 ? 'file' : 'files'} included`,
    );
  }

  private async showDecision(
    slot: StepSlot,
    task: Task,
    decision: { kind: StepDecision['kind']; reason?: string },
    note: string,
  ): Promise<void> {
    switch (decision.kind) {
      case 'approve':
        task.title = `Approved${note}`;
        return;
      case 'skip':
        task.skip(`Skipped: ${decision.reason ?? 'not approved'}`);
        return;
      case 'abort':
        task.skip('Aborted');
        return;
      case 'refuse': {
        const report = await slot.finished.promise;
        throw new Error(`Not written: ${report?.reason ?? 'refused'}`);
      }
    }
  }

  private async showDiff(review: StepReview): Promise<void> {
    const { style, out, fd, env, size } = this.options;
    const text = stepDiff(review.files, style);
    const show = () => showText(text, { out, fd, env, size: size() });
    await (this.renderer === null ? show() : this.renderer.suspend(show));
  }
}

/**
 * The rows of one step in the act task tree that only show what happened: its edits, each verify
 * command's run, and its checkpoint and write. The rows that ask (the approval) stay in
 * act-tasks.ts with the tree.
 */
import type { SimpleRenderer, ListrTask } from 'listr2';
import { plural } from '../../shared/text.js';
import { formatDuration } from '../../shared/units.js';
import { protectedList } from './act.js';
import { filesText, statusText, type StepSlot } from './act-step-slots.js';
import type { Style } from './style.js';
import type { SuspendableRenderer } from './suspendable-renderer.js';
import { testsText } from './verify.js';
import { awaitCommandRun, outcomeError } from './verify-tasks.js';

/** A row of the tree. */
export type StepTask = ListrTask<unknown, typeof SuspendableRenderer, typeof SimpleRenderer>;

/** At most this many lines of a failing command's output are shown under it. */
const TAIL_LINES = 12;

/** The row that says the step's edits (and Run commands) are done, with the files they changed. */
export function editsRow(slot: StepSlot): StepTask {
  const done =
    slot.plan.runs > 0 ? `Edits and ${plural(slot.plan.runs, 'Run command')} done` : 'Edits applied';
  return { title: `${done}: ${filesText(slot.edited)}`, task: () => undefined };
}

/** One verify command's row: its tests and time, or its failure with the output's tail. */
export function commandRow(slot: StepSlot, name: string, style: Style): StepTask {
  return {
    title: name,
    task: async (_, task) => {
      const run = await awaitCommandRun(
        task,
        name,
        style,
        () => slot.attempts.get(name) ?? 1,
        slot.runs.get(name)?.promise ?? Promise.resolve(null),
      );
      if (run === null) return;
      const attempts = slot.attempts.get(name) ?? 1;
      if (run.exitCode !== 0 || run.timedOut) {
        task.title = `${name}  ${style.dim(`${formatDuration(run.durationMs)}${attempts > 1 ? ` · failed ${plural(attempts, 'run')} (flake guard)` : ''}`)}`;
        const tail = (slot.tails.get(name) ?? '').trimEnd().split('\n').slice(-TAIL_LINES);
        throw new Error([outcomeError(name, run), ...tail.map((l) => style.dim(`│ ${l}`))].join('\n'));
      }
      const tests = testsText(run.tests);
      const flaky = attempts > 1 ? style.yellow(`  flaky: passed on run ${attempts}`) : '';
      task.title = `${name}${tests === '' ? '' : `  ${tests}`}  ${style.dim(formatDuration(run.durationMs))}${flaky}`;
    },
  };
}

/** The step's last row: its checkpoint and what was written, or why nothing was. */
export function writeRow(slot: StepSlot, style: Style, dryRun: boolean): StepTask {
  return {
    title: dryRun ? 'Checkpoint' : 'Checkpoint and write',
    task: async (_, task) => {
      const report = await slot.finished.promise;
      if (report === null) {
        task.skip('Not written');
        return;
      }
      const checkpoint = `Checkpoint ${slot.checkpoint ?? '?'}`;
      const marked =
        report.protectedFiles.length > 0
          ? style.yellow(`  ! protected: ${protectedList(report.protectedFiles)}`)
          : '';
      switch (report.status) {
        case 'applied':
          task.title = `${checkpoint}, written: ${filesText(report.files)}${marked}`;
          return;
        case 'verified':
          task.title = `${checkpoint} (dry run: nothing written)${marked}`;
          return;
        case 'conflict':
          throw new Error(
            `Not written: ${report.reason ?? ''}${report.patchFile === null ? '' : `\nthe verified patch is saved in ${report.patchFile}`}`,
          );
        case 'failed':
        case 'refused':
          throw new Error(report.reason ?? report.status);
        case 'skipped':
        case 'aborted':
        case 'cancelled':
        case 'not_run':
          task.skip(report.status === 'cancelled' ? 'Interrupted' : 'Not written');
          // The step folds into one line that says what happened to it.
          slot.task?.skip(`${slot.title} — ${statusText(report)}`);
          return;
      }
    },
  };
}

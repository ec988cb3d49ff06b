/**
 * The rows of a model step's attempts in the act task tree, one per attempt: "Attempt 2 of 3:
 * running…" with the current tool call or the tokens/s on its output line, then its verify result
 * ("Attempt 1 of 3: verify failed: test exited 1 (…)", "Attempt 2 of 3: verified"). A failed attempt's row fails
 * without failing the step: the next attempt's row follows. After a passed attempt come the
 * step's usual rows (its edits, each verify command, the approval, the write); after the last
 * failed one, the step's verdict.
 */
import type { StepReport } from '../../core/act-report.js';
import type { AttemptSlot, StepSlot } from './act-step-slots.js';
import type { StepTask } from './act-step-rows.js';
import type { Style } from './style.js';

/** What a failed attempt's reason says, in a row: the verdict's first line, "failed: " dropped. */
function failedText(reason: string | null): string {
  const first = (reason ?? '').split('\n')[0] ?? '';
  const verdict = /^failed: (.+)$/.exec(first);
  return verdict === null ? `failed: ${first}` : `verify failed: ${verdict[1] ?? ''}`;
}

/** One attempt's row: running until its verdict, then the verdict (a failed one fails only this row). */
function attemptRow(attempt: AttemptSlot, slot: StepSlot, style: Style): StepTask {
  const name = `Attempt ${attempt.number} of ${attempt.max}`;
  return {
    title: `${name}: running…`,
    exitOnError: false,
    task: async (_, task) => {
      attempt.task = task;
      task.output = attempt.said;
      const end = await attempt.ended.promise;
      task.output = '';
      if (end === null) {
        const report = await slot.finished.promise;
        task.skip(`${name}: ${report?.status === 'cancelled' ? 'interrupted' : 'not finished'}`);
        return;
      }
      if (end.passed) {
        // An attempt that changed nothing passes without a verification: the step is skipped.
        task.title = `${name}: ${slot.agent?.commands == null ? 'changed nothing' : style.green('verified')}`;
        return;
      }
      task.title = `${name}: ${failedText(end.reason)}`;
      throw new Error(task.title);
    },
  };
}

/** The step's end after its last attempt: no attempt passed (or the model went), said once. */
function verdictRow(slot: StepSlot): StepTask {
  return {
    title: 'Verdict',
    task: async (_, task) => {
      const report: StepReport | null = await slot.finished.promise;
      if (report === null || report.status !== 'failed') {
        task.skip(report?.status === 'cancelled' ? 'Interrupted' : 'Not finished');
        return;
      }
      // A best attempt's changes and tail are shown below the tree (act-tasks.ts): here, its verdict.
      const reason = report.reason ?? 'failed';
      throw new Error(
        report.bestAttempt === undefined
          ? reason
          : `${reason.split('\n')[0] ?? ''}\nits changes and output are shown below`,
      );
    },
  };
}

/**
 * Attempt `attempt`'s row, then what follows it: the next attempt's rows, the passed attempt's
 * `verified` rows, or the step's verdict. Untitled, so only its rows are drawn.
 */
export function attemptRows(
  attempt: AttemptSlot,
  slot: StepSlot,
  style: Style,
  verified: () => Promise<StepTask[]>,
): StepTask {
  return {
    task: (_, host) =>
      host.newListr(
        [
          attemptRow(attempt, slot, style),
          {
            task: async (__, next) => {
              const end = await attempt.ended.promise;
              if (end?.passed === true) return next.newListr(await verified(), { exitOnError: true });
              const number = await attempt.next.promise;
              const following = number === null ? undefined : slot.attemptSlots.get(number);
              return next.newListr(
                [following === undefined ? verdictRow(slot) : attemptRows(following, slot, style, verified)],
                { exitOnError: true },
              );
            },
          },
        ],
        { concurrent: false, exitOnError: true },
      ),
  };
}

/**
 * The step review's questions inside the act task tree: the menu and the protected-files yes/no
 * as enquirer prompts in the approval task, cancelled by Ctrl-C (or the session's signal), with
 * keys typed ahead dropped first so a stray Enter is never an answer.
 */
import { ListrEnquirerPromptAdapter } from '@listr2/prompt-adapter-enquirer';
import Enquirer from 'enquirer';
import type { StepReview } from '../../core/ports/approval.js';
import { discardTypeahead, keepSignalsFrom, type KeyboardInput } from '../prompt-guard.js';
import type { StepPrompts } from '../step-approver.js';
import type { Task } from './act-step-slots.js';
import {
  protectedQuestion,
  REVIEW_CHOICES,
  reviewHeader,
  reviewQuestion,
  yesNo,
  type ReviewChoice,
} from './review.js';
import type { Style } from './style.js';

/** What the prompts need from the task tree. */
export interface PromptDeps {
  style: Style;
  stdin: KeyboardInput;
  signal: AbortSignal | undefined;
  /** Shows the step's diff (the tree suspends its drawing meanwhile). */
  showDiff: (review: StepReview) => Promise<void>;
}

/** One prompt through the adapter; null when cancelled (Ctrl-C or Escape in it, or SIGINT). */
async function ask<T>(
  task: Task,
  options: Parameters<ListrEnquirerPromptAdapter['run']>[0],
  deps: Pick<PromptDeps, 'stdin' | 'signal'>,
): Promise<T | null> {
  const { signal } = deps;
  const aborted = () => signal?.aborted === true;
  if (aborted()) return null;
  await discardTypeahead(deps.stdin);
  if (aborted()) return null;
  const prompt = task.prompt(ListrEnquirerPromptAdapter);
  let settled = false;
  // enquirer makes its prompt a moment after run() starts: until then there is nothing to cancel.
  const cancel = (): void => {
    if (settled) return;
    if (prompt.instance === undefined) setTimeout(cancel, 20);
    else prompt.cancel({ throw: true });
  };
  signal?.addEventListener('abort', cancel, { once: true });
  const enquirer = new Enquirer();
  keepSignalsFrom(enquirer);
  try {
    return await prompt.run<T>(options, { enquirer });
  } catch {
    return null;
  } finally {
    settled = true;
    signal?.removeEventListener('abort', cancel);
  }
}

/** The review's questions as prompts inside the approval task. */
export function stepPrompts(task: Task, deps: PromptDeps): StepPrompts {
  return {
    choose: (review) =>
      ask<ReviewChoice>(
        task,
        {
          type: 'select',
          message: reviewQuestion(review),
          header: reviewHeader(review, deps.style),
          choices: REVIEW_CHOICES.map((c) => ({ name: c.name, message: c.message })),
        },
        deps,
      ),
    confirmProtected: (review) =>
      ask<boolean>(
        task,
        { type: 'confirm', message: protectedQuestion(review), initial: false, format: yesNo },
        deps,
      ),
    showDiff: deps.showDiff,
  };
}

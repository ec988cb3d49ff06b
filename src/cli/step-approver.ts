/**
 * The step review at a terminal, independent of how its prompts are drawn (inside the listr2
 * task tree, or plain enquirer prompts when there is none): Approve / Show diff / Skip step /
 * Abort; Show diff comes back to the same menu; a step that changes protected files takes a
 * second, explicit yes after Approve, and no skips it. A cancelled prompt (Ctrl-C, Escape)
 * aborts: nothing of the step is written and no later step runs.
 */
import type { StepDecision, StepReview } from '../core/ports/approval.js';
import type { ReviewChoice } from './render/review.js';

/** How the questions are asked; null: the prompt was cancelled. */
export interface StepPrompts {
  choose(review: StepReview): Promise<ReviewChoice | null>;
  confirmProtected(review: StepReview): Promise<boolean | null>;
  showDiff(review: StepReview): Promise<void>;
}

/** What the step's line says after "skipped: ": the person's own choice, in their words. */
export const SKIPPED = 'you chose Skip step';
export const PROTECTED_DECLINED = 'you did not approve writing its protected files';

export async function askStep(review: StepReview, prompts: StepPrompts): Promise<StepDecision> {
  for (;;) {
    const choice = await prompts.choose(review);
    switch (choice) {
      case null:
      case 'abort':
        return { kind: 'abort' };
      case 'skip':
        return { kind: 'skip', reason: SKIPPED };
      case 'diff':
        await prompts.showDiff(review);
        continue;
      case 'approve': {
        if (review.protectedFiles.length === 0) return { kind: 'approve' };
        const sure = await prompts.confirmProtected(review);
        if (sure === null) return { kind: 'abort' };
        return sure ? { kind: 'approve' } : { kind: 'skip', reason: PROTECTED_DECLINED };
      }
    }
  }
}

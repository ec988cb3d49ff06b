/**
 * The step author of a plan whose edits are written down: the step's Edits section, its
 * templates resolved from earlier steps' output. Asked again, it has nothing new to say, so a
 * retry of a written step gets the same edits.
 */
import { resolveTemplates } from '../plan/templates.js';
import type { ActStep, Authored, AuthorRequest, StepAuthor } from './act-types.js';

export function writtenEdits(): StepAuthor {
  return {
    // eslint-disable-next-line require-yield, @typescript-eslint/require-await -- the seam is a flow (an agent author yields its progress); this one has none
    async *author({ step, outputs }: AuthorRequest): AsyncGenerator<never, Authored> {
      if (step.edits.trim() === '') return { ok: true, edits: '' };
      const resolved = resolveTemplates(step.edits, outputs, step.number);
      return resolved.ok ? { ok: true, edits: resolved.text } : { ok: false, reason: resolved.message };
    },
  };
}

/**
 * Each step's author chosen by the step: the agent for the steps `byAgent` picks (absent: the
 * plan needs no model), the written edits for the others.
 */
export function authorPerStep(
  agent: StepAuthor | undefined,
  byAgent: (step: ActStep) => boolean,
): StepAuthor {
  const written = writtenEdits();
  const pick = (step: ActStep) => (agent !== undefined && byAgent(step) ? agent : written);
  return {
    retries: (step) => pick(step).retries?.(step) === true,
    author: (request) => pick(request.step).author(request),
  };
}

/**
 * The model side of `aide act`, wired: whether any step to run needs the model (a step with
 * neither Edits nor Run commands), and if so the agent author built on it (act-agent-model.ts,
 * loaded only then). A plan whose steps all have written edits needs no model.
 */
import type { ActStep, StepAuthor } from '../core/flows/act-types.js';
import { authorPerStep } from '../core/flows/step-author.js';
import type { ActAgentRequest } from './act-agent-model.js';

/** Whether the agent carries out this step: no written edits and no Run commands to do it. */
export function needsModel(step: ActStep): boolean {
  return step.edits.trim() === '' && step.run.length === 0;
}

/** Each step's author: written edits, or the agent once the model is ready (throws exit 3 when it is not). */
export async function actAuthor(request: ActAgentRequest): Promise<StepAuthor> {
  if (!request.steps.some(needsModel)) return authorPerStep(undefined, needsModel);
  const { modelAuthor } = await import('./act-agent-model.js');
  return authorPerStep(await modelAuthor(request), needsModel);
}

/**
 * What `aide act` carries out, decided before any work: every step of the plan, or the one
 * `--step N` names; and the verify commands, every one of them (a step runs those not optional
 * plus the ones its Verify: line names), with every Verify: name checked against them.
 */
import { SANDBOX_FILE } from '../config/files.js';
import type { SandboxConfig } from '../config/sandbox-schema.js';
import type { PlanLines } from '../core/plan/problem.js';
import type { Plan, PlanStep } from '../core/plan/schema.js';
import { checkPlanCommands, type CommandSelection } from '../core/verify/select-commands.js';
import { AideError } from '../shared/errors.js';
import { everyCommand } from './verify-run.js';

/** The steps to carry out: all of them, or step `only` alone (a usage error when the plan has no such step). */
export function stepsToRun(plan: Plan, only: number | undefined, planFile: string): PlanStep[] {
  if (only === undefined) return plan.steps;
  const step = plan.steps.find((s) => s.number === only);
  if (step !== undefined) return [step];
  const numbers = plan.steps.map((s) => s.number).join(', ');
  throw new AideError('usage', `--step ${only}: ${planFile} has no step ${only}`, {
    hint: `Its steps are ${numbers}; give one of them, e.g. --step ${plan.steps[0]?.number ?? 1}.`,
  });
}

/** Every verify command, once each Verify: name of the plan is known to be one of them. */
export async function planCommands(
  root: string,
  sandbox: SandboxConfig,
  plan: Plan,
  lines: PlanLines,
  planFile: string,
): Promise<CommandSelection> {
  const selection = await everyCommand(root, sandbox);
  checkPlanCommands(plan, lines, planFile, selection, SANDBOX_FILE);
  return selection;
}

/**
 * What `aide act` carries out, decided before any work: the verify commands, every one of them
 * (a step runs those not optional plus the ones its Verify: line names), with every Verify: name
 * checked against them.
 */
import { SANDBOX_FILE } from '../config/files.js';
import type { SandboxConfig } from '../config/sandbox-schema.js';
import type { PlanLines } from '../core/plan/parse.js';
import type { Plan } from '../core/plan/schema.js';
import { checkPlanCommands, type CommandSelection } from '../core/verify/select-commands.js';
import { everyCommand } from './verify-run.js';

/** Every verify command, once each Verify: name of the plan is known to be one of them. */
export async function planCommands(root: string, sandbox: SandboxConfig, plan: Plan, lines: PlanLines, planFile: string): Promise<CommandSelection> {
  const selection = await everyCommand(root, sandbox);
  checkPlanCommands(plan, lines, planFile, selection, SANDBOX_FILE);
  return selection;
}

import { actCommand } from './act-command.js';
import { applyCommand } from './apply-command.js';
import { checkpointsCommand } from './checkpoints-command.js';
import { configCommand } from './config-command.js';
import { doctorCommand } from './doctor-command.js';
import { hooksCommand } from './hooks-command.js';
import { initCommand } from './init-command.js';
import { planCommand } from './plan-command.js';
import { restoreCommand } from './restore-command.js';
import { reviewCommand } from './review-command.js';
import type { CommandSpec } from './spec.js';
import { statusCommand } from './status-command.js';
import { verifyCommand } from './verify-command.js';

/**
 * Every registered command. Only commands that work are listed here. Each is a light stub
 * (usage, options, help text) that imports what runs it only when it runs: see spec.ts.
 */
export const commands: readonly CommandSpec[] = [
  initCommand,
  planCommand,
  actCommand,
  applyCommand,
  verifyCommand,
  reviewCommand,
  checkpointsCommand,
  restoreCommand,
  statusCommand,
  configCommand,
  doctorCommand,
  hooksCommand,
];

import { actCommand } from './act.js';
import { applyCommand } from './apply.js';
import { checkpointsCommand } from './checkpoints.js';
import { configCommand } from './config.js';
import { doctorCommand } from './doctor.js';
import { initCommand } from './init.js';
import { restoreCommand } from './restore.js';
import type { CommandSpec } from './spec.js';
import { statusCommand } from './status.js';
import { verifyCommand } from './verify.js';

/** Every registered command. Only commands that work are listed here. */
export const commands: readonly CommandSpec[] = [
  initCommand,
  actCommand,
  applyCommand,
  verifyCommand,
  checkpointsCommand,
  restoreCommand,
  statusCommand,
  configCommand,
  doctorCommand,
];

import { applyCommand } from './apply.js';
import { checkpointsCommand } from './checkpoints.js';
import { configCommand } from './config.js';
import { doctorCommand } from './doctor.js';
import { initCommand } from './init.js';
import { restoreCommand } from './restore.js';
import type { CommandSpec } from './spec.js';

/** Every registered command. Only commands that work are listed here. */
export const commands: readonly CommandSpec[] = [initCommand, applyCommand, checkpointsCommand, restoreCommand, configCommand, doctorCommand];

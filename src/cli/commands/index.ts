import { applyCommand } from './apply.js';
import type { CommandSpec } from './spec.js';

/** Every registered command. Only commands that work are listed here. */
export const commands: readonly CommandSpec[] = [applyCommand];

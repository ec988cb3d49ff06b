/**
 * The ports: what the core needs from the outside world. infra/ implements them; tests use
 * the real implementations against temp directories.
 */
export type * from './ports/files.js';
export type * from './ports/checkpoints.js';
export type * from './ports/approval.js';
export type * from './ports/scratch.js';
export type * from './ports/commands.js';
export type * from './ports/session.js';
export type * from './ports/session-store.js';
export type * from './ports/changes.js';

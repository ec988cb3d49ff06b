/**
 * The one event stream (DESIGN.md): every flow yields these; the terminal renderers, --json
 * and the audit log consume the same events. New flows add members here.
 */
import type { BlockOutcome } from './edit/plan-edits.js';
import type { ParseProblem } from './edit/types.js';
import type { CheckpointResult } from './ports.js';

export interface ChangedFile {
  path: string;
  action: 'created' | 'modified' | 'deleted';
  added: number;
  removed: number;
  /** Unified diff of the change. */
  diff: string;
}

export type AideEvent =
  | { type: 'edits_parsed'; blocks: number; files: string[]; problems: ParseProblem[] }
  | { type: 'block_planned'; outcome: BlockOutcome }
  | { type: 'checkpoint_created'; result: CheckpointResult }
  | { type: 'patch_applied'; files: ChangedFile[]; written: boolean };

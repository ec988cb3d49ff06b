/** What planning edits returns: an outcome per block and the new contents (plan-edits.ts). */
import type { Closest } from './closest.js';
import type { StrategyName } from './match.js';
import type { TextFile } from './text-file.js';
import type { EditBlock } from './types.js';

export type FailureKind =
  | 'path-rejected'
  | 'file-missing'
  | 'file-exists'
  | 'unreadable'
  | 'blank-search'
  | 'not-found'
  | 'ambiguous'
  | 'lazy-elision'
  | 'indentation'
  | 'invisible-characters'
  | 'invalid-result'
  | 'delete-mismatch';

export interface BlockFailure {
  kind: FailureKind;
  /** What went wrong, for the user. */
  message: string;
  /** What to change, addressed to whoever wrote the block. */
  hint: string;
  /** For not-found: the file's lines most like the SEARCH. */
  closest?: Closest;
  /** For ambiguous: 1-based lines where the SEARCH matches. */
  candidates?: number[];
}

/** already-applied: the file already holds what the block would write (already-applied.ts); nothing changes. */
export type BlockAction = 'created' | 'edited' | 'deleted' | 'unchanged' | 'already-applied';

interface OutcomeBase {
  index: number;
  line: number;
  path: string;
  format: EditBlock['format'];
}

export type BlockOutcome =
  | (OutcomeBase & {
      ok: true;
      action: BlockAction;
      /** The matching strategy; null for creates and deletes. */
      strategy: StrategyName | null;
      /** 1-based lines of the edited region in the new file. */
      range: { first: number; last: number } | null;
    })
  | (OutcomeBase & { ok: false; failure: BlockFailure });

/** A file's content as the planner sees it. */
export type FileInput =
  { state: 'missing' } | { state: 'text'; file: TextFile } | { state: 'unreadable'; reason: string };

/**
 * A file's content before and after the planned edits: what the write needs. Its action (a
 * FileChange's, in the ports) follows from which side is missing.
 */
export interface ContentChange {
  path: string;
  /** null: the file is created. */
  before: TextFile | null;
  /** null: the file is deleted. */
  after: TextFile | null;
}

export interface EditPlan {
  ok: boolean;
  outcomes: BlockOutcome[];
  /** Files whose content changes, in the order first edited. Apply them only if ok. */
  changes: ContentChange[];
}

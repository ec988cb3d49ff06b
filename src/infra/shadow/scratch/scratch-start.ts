/**
 * Where a scratch is and what it starts from (worktree-scratch.ts finds or makes it, and
 * scratch-checkout.ts works in it), and the revisions it may start from.
 */
import type { ScratchLink } from '../../../core/ports/scratch.js';
import { AideError } from '../../../shared/errors.js';

/** Private index of aide's own calls, beside the worktree's `index` that git in the scratch uses. */
export const PRIVATE_INDEX = 'aide-index';

export function unknownBase(base: string): AideError {
  return new AideError('checkpoint_unknown', `no snapshot or checkpoint "${base}"`, {
    hint: 'List checkpoints with `aide checkpoints`.',
  });
}

/** A revision safe to put on a git command line (never an option). */
export function revision(base: string): string {
  if (!/^[\w./~^@{}-]+$/.test(base) || base.startsWith('-')) throw unknownBase(base);
  return base;
}

/** Where a scratch is: its folder in the home, its record, its admin folder in the shadow. */
export interface ScratchPlace {
  home: string;
  records: string;
  /** The folder's name in the home and its owner record's: the session's, or the kept scratch's. */
  name: string;
  session: string;
  path: string;
  /** `shadow.git/worktrees/<name>`, read when the worktree was made and checked to be there. */
  adminDir: string;
  /** The workspace's kept scratch: dispose leaves it for the next session. */
  kept: boolean;
}

/** What a WorktreeScratch starts from. */
export interface ScratchStart {
  place: ScratchPlace;
  /** aide's private index in the admin folder. */
  indexFile: string;
  /** The tree the files and the index are at. */
  tree: string;
  links: ScratchLink[];
  /** The link paths, globs resolved when the scratch was opened. */
  configuredLinks: readonly string[];
}

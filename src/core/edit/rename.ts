/**
 * A rename from `git diff -M` (`rename from`, `rename to`): the file moves to its new path, and
 * the diff's hunks then apply there as blocks of their own (parse-diff.ts). It moves only when
 * the move is unambiguous: the old file is there and readable, and nothing is at the new path,
 * so a rename never overwrites a file.
 */
import type { BlockFailure, FileInput } from './plan-types.js';
import type { TextFile } from './text-file.js';

export type RenameResult = { ok: true; file: TextFile } | { ok: false; failure: BlockFailure };

/** The file that moves from `from` (its current content, `source`) to `to` (currently `target`). */
export function planRename(
  from: string,
  to: string,
  source: FileInput | undefined,
  target: FileInput,
): RenameResult {
  if (source === undefined || source.state === 'missing') {
    return failure(
      'file-missing',
      `${from} does not exist, so it cannot be renamed to ${to}`,
      'Check the path after `rename from` (it is relative to the repository root).',
    );
  }
  if (source.state === 'unreadable') {
    return failure(
      'unreadable',
      `aide will not rename ${from}: ${source.reason}`,
      'Rename this file by hand.',
    );
  }
  if (target.state !== 'missing') {
    return failure(
      'file-exists',
      `${to} already exists, so ${from} cannot be renamed to it`,
      `Rename to a path that is free, or edit ${to} with SEARCH/REPLACE blocks and delete ${from} with a diff to /dev/null.`,
    );
  }
  return { ok: true, file: source.file };
}

function failure(kind: BlockFailure['kind'], message: string, hint: string): RenameResult {
  return { ok: false, failure: { kind, message, hint } };
}

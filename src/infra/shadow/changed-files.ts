/**
 * The files that differ between two trees of the shadow, each with its line counts and git's
 * unified diff: what a step review shows and an act report lists. The changes come from the one
 * raw-diff parser (raw-objects.ts), so the core never reads diff text to learn which files
 * changed; the diff text is only cut at its `diff --git` lines, which git writes in the order it
 * lists the changes.
 */
import type { ChangedFile, FileChange } from '../../core/ports/changes.js';
import type { ShadowGit } from './git.js';
import { diffTrees } from './raw-objects.js';
import { objectsOnly } from './scratch/object-reader.js';

/** `git diff` as aide shows it: plain text whatever the user's config, no renames (a rename is a deletion and a creation). */
export const DIFF_ARGS = ['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames'] as const;

/** Lines added and removed in a diff: the `+` and `-` lines of its hunks (a binary file has none). */
export function lineCounts(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  let inHunk = false;
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) inHunk = false;
    else if (line.startsWith('@@')) inHunk = true;
    else if (inHunk && line.startsWith('+')) added++;
    else if (inHunk && line.startsWith('-')) removed++;
  }
  return { added, removed };
}

/** Whether a diff section is about this path (a quoted header, for a name with a quote or a control character, is taken on trust). */
function isAbout(section: string, path: string): boolean {
  const header = section.slice(0, section.indexOf('\n'));
  return header === `diff --git a/${path} b/${path}` || header.startsWith('diff --git "');
}

/**
 * Changes in git's order: by the paths' bytes, as `diff-tree -r` lists them (a folder's entries
 * sort as if its name ended in '/', which a full path's '/' does).
 */
function inGitOrder(changes: readonly FileChange[]): FileChange[] {
  const key = (c: FileChange) => Buffer.from(c.path, 'utf8');
  return [...changes].sort((a, b) => Buffer.compare(key(a), key(b)));
}

/**
 * The changed files from one tree (or commit) to another, in git's order. `known`: the changes
 * between them when the caller has them already (a scratch's capture), which saves a diff-tree.
 */
export async function changedFilesBetween(
  git: ShadowGit,
  from: string,
  to: string,
  known?: readonly FileChange[],
): Promise<ChangedFile[]> {
  if (from === to) return [];
  const [changes, patch] = await Promise.all([
    known === undefined ? diffTrees(git, from, to, objectsOnly(git)) : inGitOrder(known),
    git.run([...DIFF_ARGS, from, to], objectsOnly(git)),
  ]);
  const sections = patch.stdout
    .toString('utf8')
    .split(/^(?=diff --git )/m)
    .filter((part) => part.startsWith('diff --git '));
  let next = 0;
  return changes.map((change) => {
    // git shows a file that became a symlink (or the reverse) as a deletion, then a creation.
    const count = change.action === 'type_changed' ? 2 : 1;
    const parts = sections.slice(next, next + count);
    next += count;
    if (parts.length < count || !parts.every((part) => isAbout(part, change.path)))
      throw new Error(`git diff ${from} ${to} does not list ${change.path} where git diff-tree does`);
    const diff = parts.join('');
    return { path: change.path, action: change.action, ...lineCounts(diff), diff };
  });
}

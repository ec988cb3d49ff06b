/**
 * The two full scans of a scratch: every file against the private index (`add -A`), and the
 * sweep of a kept scratch taken up again. Both read every file; the stat scan (stat-scan.ts) and
 * the known-path capture (written-tree.ts) are the cheaper reads used when they can decide.
 */
import type { ScratchLink } from '../../../core/ports/scratch.js';
import type { GitCallOptions, ShadowGit } from '../git.js';
import { linkPaths } from './links.js';
import { removeNestedGit } from './nested-git.js';

/** Every file of a scratch against its index (`add -A`, like `git status`): the tree they hold, links left out. */
export async function scanFiles(
  git: ShadowGit,
  options: GitCallOptions,
  links: readonly ScratchLink[],
): Promise<string> {
  await git.run(['add', '-A', '--', ':/'], options);
  // The links (and whatever a command may have put in their place) are never captured. Dropped
  // after the add, not excluded from it: an exclusion naming an ignored link fails the add.
  const linked = linkPaths(links);
  if (linked.length > 0)
    await git.run(['rm', '-r', '-q', '-f', '--cached', '--ignore-unmatch', '--', ...linked], options);
  return git.text(['write-tree'], options);
}

/**
 * The sweep of a kept scratch taken up again: everything untracked or ignored goes (`clean
 * -ffdx`: nested repositories too, links as links) while every tracked file is compared with
 * aide's index (`add -u`), side by side. Together they are the clean then `add -A` they
 * replace: clean removes only paths the index lacks and `add -u` reads only paths it has, so
 * neither sees what the other changes (a tracked file turned folder or symlink is gone for
 * `add -u` before and after clean removes it), and after clean nothing is left for `add -A`
 * to add. Both walks run at once instead of one after the other. Returns the tree the files
 * hold; a broken index fails it, and the caller makes the scratch afresh. Both have ended
 * when it returns or throws. Beside them, every `.git` below the root goes, which git never
 * lists (nested-git.ts).
 */
export async function sweepKept(git: ShadowGit, root: string, options: GitCallOptions): Promise<string> {
  const settled = await Promise.allSettled([
    git.run(['clean', '-ffdxq', '--', ':/'], options),
    git.run(['add', '-u', '--', ':/'], options),
    removeNestedGit(root),
  ]);
  for (const result of settled) if (result.status === 'rejected') throw result.reason;
  return git.text(['write-tree'], options);
}

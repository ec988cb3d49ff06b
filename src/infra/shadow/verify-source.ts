/**
 * The trees `aide verify` can check, written into the shadow's object store without touching
 * the user's repository: the staged content (the index, exactly) and a commit. The working tree
 * is a snapshot (snapshot.ts).
 */
import { copyFileSync, rmSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { AideError } from '../../shared/errors.js';
import { resolveCommit } from '../git/user-repo.js';
import { GitCommandError, type ShadowGit } from './git.js';
import { objectsOnly } from './scratch/object-reader.js';
import type { Env, Workspace } from './shadow-repo.js';
import { EMPTY_TREE } from './snapshot.js';

function notARepository(what: string): AideError {
  return new AideError('workspace_invalid', `${what} needs a git repository, and this workspace is not one`, {
    remedy: 'verify_working_tree',
  });
}

/**
 * The index git would commit. Inside a pre-commit hook git names it in GIT_INDEX_FILE (for
 * `git commit -a` or `git commit <paths>` it is a temporary index, not `.git/index`); the path
 * may be relative to the top of the work tree.
 */
function userIndexFile(workspace: Workspace, env: Env): string {
  if (workspace.user === null) throw notARepository('--staged');
  const named = env['GIT_INDEX_FILE'];
  if (named !== undefined && named !== '') return isAbsolute(named) ? named : resolve(workspace.root, named);
  return join(workspace.user.gitDir, 'index');
}

/**
 * Runs `use` on a copy of the index git would commit, in the shadow's git dir, and removes the
 * copy after: git's own index (or the temporary one of `git commit -a`, whose lock git holds) is
 * only ever read, once. `use` is given null when there is no index yet (nothing was ever staged).
 * The copy is made synchronously (copy_file_range: a few megabytes at most, one call instead of
 * the thread pool's round trips, in front of every commit's review).
 */
export async function withStagedIndex<T>(
  git: ShadowGit,
  workspace: Workspace,
  env: Env,
  use: (indexFile: string | null) => Promise<T>,
): Promise<T> {
  const source = userIndexFile(workspace, env);
  const copy = join(git.location.gitDir, `aide-staged-index-${process.pid}`);
  try {
    copyFileSync(source, copy);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return use(null);
    throw error;
  }
  try {
    return await use(copy);
  } finally {
    rmSync(copy, { force: true });
  }
}

/**
 * The tree of an index copy (withStagedIndex): `write-tree` in the shadow reads no work-tree file,
 * and the tree objects land in the shadow, never in the user's `.git` (the staged blobs are there
 * already, borrowed through alternates).
 */
export async function writeStagedTree(git: ShadowGit, indexFile: string): Promise<string> {
  try {
    return await git.text(['write-tree'], { ...objectsOnly(git), indexFile });
  } catch (error) {
    if (error instanceof GitCommandError && /unmerged|not able to write|invalid object/i.test(error.stderr))
      throw unusableIndex(error.stderr.trim().split('\n')[0] ?? 'git write-tree failed');
    throw error;
  }
}

/** The staged index cannot be made a tree (what git said is `reason`): it is not what a commit would hold. */
export function unusableIndex(reason: string): AideError {
  return new AideError('workspace_invalid', `the staged content cannot be verified: ${reason}`, {
    remedy: 'restage_and_verify',
  });
}

/** The staged content as a tree (the empty tree when nothing was ever staged). */
export function stagedTree(git: ShadowGit, workspace: Workspace, env: Env): Promise<string> {
  return withStagedIndex(git, workspace, env, (indexFile) =>
    indexFile === null ? Promise.resolve(EMPTY_TREE) : writeStagedTree(git, indexFile),
  );
}

/** A commit of the user's repository (any revision git understands) and its tree. */
export async function refTree(
  git: ShadowGit,
  workspace: Workspace,
  env: Env,
  rev: string,
): Promise<{ commit: string; tree: string }> {
  if (workspace.user === null) throw notARepository('--ref');
  const commit = rev.startsWith('-') ? undefined : await resolveCommit(workspace.root, rev, env);
  if (commit === undefined || commit === '') {
    throw new AideError('usage', `${rev}: no such commit in this repository`, {
      remedy: 'name_a_commit',
    });
  }
  const tree = await git.text(['rev-parse', '--verify', `${commit}^{tree}`], objectsOnly(git));
  return { commit, tree };
}

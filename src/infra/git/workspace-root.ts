/**
 * Finds the workspace root: the top of the git work tree that contains `cwd`, or `cwd` itself
 * outside git; a git dir is refused. It runs on every command's start-up; git is asked through
 * user-repo.ts, whose environment cannot redirect it (inside a git hook GIT_DIR and GIT_INDEX_FILE
 * are set and would point elsewhere).
 */
import { realpathSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { AideError } from '../../shared/errors.js';
import { gitLocation, locateFolder, type Env, type GitLocation, type RepoLayout } from './user-repo.js';

export async function findWorkspaceRoot(cwd: string, env: Env): Promise<string> {
  const real = realFolder(cwd);
  return rootAt(real, await gitLocation(real, env));
}

/** The workspace root and, when git told it on the way, the layout of the repository around it. */
export interface LocatedWorkspace {
  root: string;
  /**
   * For describeWorkspace (infra/shadow/shadow-repo.ts), which then need not ask git again: null
   * when the workspace is in no repository; unset when not known.
   */
  layout?: RepoLayout | null;
}

/**
 * findWorkspaceRoot, and the repository's layout from the same git process (user-repo.ts,
 * locateFolder): for a command that opens the shadow right after, one git process fewer. Asked
 * anew on every call: in one process (the in-process tests) HEAD moves between two runs.
 */
export async function locateWorkspace(cwd: string, env: Env): Promise<LocatedWorkspace> {
  const real = realFolder(cwd);
  const { location, layout } = await locateFolder(real, env);
  const root = await rootAt(real, location);
  return { root, layout };
}

/**
 * The folder's real path, synchronously (one realpath(3) call, as the async one made): through the
 * thread pool, it waited for a core at every start on a busy machine, before git could be asked.
 */
function realFolder(cwd: string): string {
  try {
    return realpathSync.native(cwd);
  } catch {
    throw new AideError('workspace_invalid', `the directory ${cwd} does not exist`, { remedy: 'check_cwd' });
  }
}

async function rootAt(real: string, where: GitLocation): Promise<string> {
  if (where.kind === 'git-dir') throw gitDirError(real, where.bare);
  if (where.kind === 'work-tree') return realpathSync.native(resolve(real, where.cdup));
  // git does not know the folder (or refuses it: another user's repository): a git dir it still is.
  const lookalike = await gitDirAbove(real);
  if (lookalike !== undefined) throw gitDirError(real, false, lookalike);
  return real;
}

/**
 * A git dir (`.git`, a bare repository, a linked worktree's `.git/worktrees/<name>`, or any folder
 * inside one) holds git's own config, hooks and refs: edited or checkpointed as ordinary files
 * they would run code and break the repository, so it is never a workspace.
 */
function gitDirError(cwd: string, bare: boolean, gitDir?: string): AideError {
  const what = bare
    ? 'in a bare git repository'
    : `in a git directory${gitDir !== undefined && gitDir !== cwd ? ` (${gitDir})` : ''}`;
  return new AideError(
    'workspace_invalid',
    `${cwd} is ${what}, not a work tree: aide does not edit or checkpoint git's own files`,
    {
      ...(bare
        ? { hint: 'Run aide in a checkout of the repository (git clone, or git worktree add).' }
        : { remedy: 'use_work_tree' }),
    },
  );
}

/** What git itself checks of a HEAD: a symbolic ref or an object id. */
async function looksLikeHead(path: string): Promise<boolean> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return /^(ref: refs\/|[0-9a-f]{40}\s*$|[0-9a-f]{64}\s*$)/.test(text);
}

/**
 * The nearest folder at or above `dir` laid out as a git dir (HEAD, objects/, refs/), if any: git
 * refuses to look at another user's repository, and a git dir it still is.
 */
async function gitDirAbove(dir: string): Promise<string | undefined> {
  for (let current = dir; ; current = dirname(current)) {
    const [objects, refs] = await Promise.all(
      ['objects', 'refs'].map((name) => stat(join(current, name)).catch(() => undefined)),
    );
    if (
      objects?.isDirectory() === true &&
      refs?.isDirectory() === true &&
      (await looksLikeHead(join(current, 'HEAD')))
    )
      return current;
    if (dirname(current) === current) return undefined;
  }
}

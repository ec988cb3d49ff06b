/**
 * Opening the shadow repository: `.aide/state/shadow.git`, whose work tree is the workspace.
 * It borrows the user's object store (alternates) so the first snapshot need not re-hash
 * files git already knows, reads the same ignore rules as the user's repository, and never
 * writes anything in the user's `.git`.
 *
 * Its file work is synchronous: a handful of files of a few hundred bytes each, read and written
 * again only when they differ. Through the thread pool each readFile was four round trips (open,
 * stat, read, close) that waited for a core on a busy machine: about 6 ms, with the lock's, in
 * front of every hook's review before its first git process could start.
 */
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { STATE_DIR } from '../../config/files.js';
import { AideError } from '../../shared/errors.js';
import { readTextOr } from '../fs/small-files.js';
import { configPath, repoLayout, type RepoLayout } from '../git/user-repo.js';
import { ShadowGit, type ShadowLocation } from './git.js';

export type Env = Readonly<Record<string, string | undefined>>;

/** The user's repository, as far as the shadow needs it. All paths absolute. */
export interface UserRepo {
  /** The per-worktree git dir (holds the index and HEAD). */
  gitDir: string;
  /** The common git dir (holds objects, info/exclude). */
  commonDir: string;
  /** The tree of the user's HEAD commit; null on an unborn branch. */
  headTree: string | null;
}

export interface Workspace {
  root: string;
  /** <root>/.aide/state */
  stateDir: string;
  /** null when the workspace is not a git work tree (aide still works: no alternates, plain index). */
  user: UserRepo | null;
}

export { STATE_DIR };

/** Refuses workspaces whose checkpoints would be everything the user owns. */
function refuseHugeRoots(root: string, env: Env): void {
  const home = env['HOME'];
  const realHome = home === undefined ? undefined : realpathOr(home, undefined);
  if (root === '/' || root === realHome) {
    throw new AideError(
      'workspace_invalid',
      `aide will not keep checkpoints of ${root === '/' ? 'the whole file system' : 'your home directory'} (${root})`,
      { remedy: 'use_project_folder' },
    );
  }
}

/**
 * The workspace at `root`. `known` is the repository's layout when the caller has it already
 * (infra/git/workspace-root.ts, locateWorkspace, from the same moment's git process; null: no
 * repository); else git is asked here.
 */
export async function describeWorkspace(
  root: string,
  env: Env,
  known?: RepoLayout | null,
): Promise<Workspace> {
  refuseHugeRoots(root, env);
  const stateDir = join(root, STATE_DIR);
  const layout = known === undefined ? await repoLayout(root, env) : (known ?? undefined);
  if (layout === undefined) return { root, stateDir, user: null };
  // Only the top of the user's work tree borrows from it; a subfolder workspace does not.
  if (realpathOr(layout.toplevel, layout.toplevel) !== root) return { root, stateDir, user: null };
  return {
    root,
    stateDir,
    user: { gitDir: layout.gitDir, commonDir: layout.commonDir, headTree: layout.headTree },
  };
}

/**
 * The user's effective global excludes file (core.excludesFile, or git's XDG default), if it
 * exists. Never rejects (a git that fails answers unset), so it can start before it is awaited.
 */
export async function userExcludesFile(root: string, env: Env): Promise<string | undefined> {
  const configured = await configPath(root, 'core.excludesFile', env);
  const xdg =
    env['XDG_CONFIG_HOME'] ?? (env['HOME'] === undefined ? undefined : join(env['HOME'], '.config'));
  const candidate =
    configured !== undefined ? configured : xdg === undefined ? undefined : join(xdg, 'git', 'ignore');
  return candidate !== undefined && existsSync(candidate) ? candidate : undefined;
}

function realpathOr<T>(path: string, fallback: T): string | T {
  try {
    return realpathSync.native(path);
  } catch {
    return fallback;
  }
}

function writeIfChanged(path: string, content: string): void {
  if (readTextOr(path, undefined) !== content) writeFileSync(path, content);
}

/**
 * Creates `.aide/state/` with a `.gitignore` of `*`: git then ignores the folder and that file
 * too, so the user's `git status` stays clean even without `aide init`.
 */
export function ensureStateDir(workspace: Workspace): void {
  mkdirSync(workspace.stateDir, { recursive: true });
  writeIfChanged(join(workspace.stateDir, '.gitignore'), '# aide runtime state: never committed\n*\n');
}

/** A value in git's config syntax: quoted, with backslashes and quotes escaped. */
function configValue(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function shadowConfig(workTree: string, excludesFile: string | undefined): string {
  const lines = [
    '# Written by aide: the shadow repository of this workspace. Edits here are overwritten.',
    '[core]',
    '\trepositoryformatversion = 0',
    '\tfilemode = true',
    '\tbare = false',
    '\tlogallrefupdates = always',
    `\tworktree = ${configValue(workTree)}`,
    ...(excludesFile === undefined ? [] : [`\texcludesFile = ${configValue(excludesFile)}`]),
  ];
  return `${lines.join('\n')}\n`;
}

/** The excludes file a shadow config of aide's names (shadowConfig's line, unquoted); undefined: none. */
function configuredExcludes(config: string): string | undefined {
  const quoted = /^\texcludesFile = "((?:[^"\\]|\\.)*)"$/m.exec(config)?.[1];
  return quoted?.replace(/\\(.)/g, '$1');
}

/**
 * What openShadow is told of the user's excludes file: userExcludesFile's answer, or `keep` for
 * a command whose git processes never read the work tree (aide review reads an index copy or two
 * commits): the config keeps the excludes file the last other command wrote, and a config of
 * another work tree, or none, is written without one. That command asks anew, as each does.
 */
export type ExcludesFile = Promise<string | undefined> | 'keep';

/** The shadow's info/attributes, which outrank every .gitattributes (openShadow says why each). */
const SHADOW_ATTRIBUTES = '* -text -crlf -ident -filter -working-tree-encoding !diff';

/**
 * Creates the shadow repository if needed and brings its settings up to date. `excludesFile`:
 * userExcludesFile of the workspace, when the caller started it earlier (one git process, run
 * while other work goes on).
 */
export async function openShadow(
  workspace: Workspace,
  env: Env,
  excludesFile: ExcludesFile = userExcludesFile(workspace.root, env),
): Promise<ShadowGit> {
  const gitDir = join(workspace.stateDir, 'shadow.git');
  const location: ShadowLocation = { gitDir, workTree: workspace.root, indexFile: join(gitDir, 'index') };
  const git = new ShadowGit(location, env);
  if (!existsSync(join(gitDir, 'HEAD'))) {
    mkdirSync(gitDir, { recursive: true });
    await git.run(['init', '-q', '--initial-branch=aide/main']);
  }
  // The shadow's config is aide's own file: written whole, it costs no git process per run.
  const configFile = join(gitDir, 'config');
  const excludes =
    excludesFile === 'keep' ? configuredExcludes(readTextOr(configFile, '')) : await excludesFile;
  writeIfChanged(configFile, shadowConfig(workspace.root, excludes));
  mkdirSync(join(gitDir, 'info'), { recursive: true });
  mkdirSync(join(gitDir, 'objects', 'info'), { recursive: true });
  const userExclude =
    workspace.user === null ? '' : readTextOr(join(workspace.user.commonDir, 'info', 'exclude'), '');
  writeIfChanged(
    join(gitDir, 'info', 'exclude'),
    `${userExclude}${userExclude.endsWith('\n') || userExclude === '' ? '' : '\n'}# aide's own runtime state is never captured\n/${STATE_DIR}/\n`,
  );
  // Checkpoints hold the bytes on disk: no end-of-line conversion, filter (git-lfs), ident or
  // re-encoding from the user's .gitattributes, which info/attributes overrides. Else a CRLF
  // file would be restored as LF. `!diff` resets the diff attribute: a `.gitattributes` saying
  // `binary` or `-diff` (or naming a driver) left a file's patch empty, so `aide review` saw none
  // of its added lines (a staged token or conflict marker passed) and a step's diff hid them.
  // Unspecified, git tells text from binary by content, as the review's own check does.
  writeIfChanged(join(gitDir, 'info', 'attributes'), `${SHADOW_ATTRIBUTES}\n`);
  const alternates = workspace.user === null ? '' : `${join(workspace.user.commonDir, 'objects')}\n`;
  writeIfChanged(join(gitDir, 'objects', 'info', 'alternates'), alternates);
  return git;
}

/**
 * The one door to the user's own repository: read-only queries (where the work tree and the git
 * dirs are, a commit, a config value, the hooks folder, the worktrees).
 *
 * The shadow's writes have their own runner (infra/shadow/git.ts: forced config, a lock, raw
 * bytes). Here git runs with the user's own configuration, as the user's git would, but nothing
 * in aide's environment can redirect it: inside a git hook GIT_DIR, GIT_INDEX_FILE and
 * GIT_WORK_TREE are set (LESSONS: child git processes that keep them have corrupted users'
 * indexes). So the environment is built from an allow-list, never copied: no GIT_* variable but
 * those named below, no PAGER or EDITOR. Every argument is aide's own (a revision given by the
 * user is checked not to start with '-' and follows `--end-of-options`).
 *
 * git is started with node's execFile, not simple-git: the bin starts a hook's first queries
 * (prestart, below) before the CLI bundle is even compiled, and the bin cannot carry simple-git's
 * hundred kilobytes (every `aide --version` would compile them). child_process itself is loaded
 * on the first query, for the same reason.
 */
import type * as ChildProcess from 'node:child_process';
import { createRequire } from 'node:module';
import { isAbsolute, resolve } from 'node:path';

export type Env = Readonly<Record<string, string | undefined>>;

/** Ordinary variables git needs to find itself, the user's config and a temp folder. */
const PASSED = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'SYSTEMROOT', 'XDG_CONFIG_HOME'] as const;

/**
 * The only GIT_* variables a query sees: which global config is the user's (tests and careful
 * users point GIT_CONFIG_GLOBAL elsewhere), no credential prompt, and no optional locks (a read
 * must not refresh the index: LESSONS, a plain `git status` rewrites it).
 */
const GIT_PASSED = ['GIT_CONFIG_GLOBAL', 'GIT_CONFIG_NOSYSTEM'] as const;
const GIT_FORCED = { GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' } as const;

/**
 * The environment of a query: the allow-listed variables of `env` and the forced ones. No
 * GIT_PAGER is needed: git's output is read through a pipe, and git never pages to one.
 */
export function userRepoEnv(env: Env): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const key of [...PASSED, ...GIT_PASSED]) {
    const value = env[key];
    if (value !== undefined) clean[key] = value;
  }
  return { ...clean, ...GIT_FORCED };
}

/** How long a query may take; where-am-I questions at start-up get less. */
const QUERY_TIMEOUT_MS = 30_000;
const LOCATE_TIMEOUT_MS = 10_000;

let execFileOnce: typeof ChildProcess.execFile | undefined;

/** Runs git in `cwd`: its output, or undefined when git fails, cannot start or overruns `timeoutMs`. */
function runGit(
  cwd: string,
  args: readonly string[],
  env: Env,
  timeoutMs: number,
): Promise<string | undefined> {
  execFileOnce ??= (createRequire(import.meta.url)('node:child_process') as typeof ChildProcess).execFile;
  const execFile = execFileOnce;
  return new Promise((done) => {
    execFile(
      'git',
      [...args],
      {
        cwd,
        env: userRepoEnv(env),
        encoding: 'utf8',
        // A git that hangs (a network filesystem, a credential helper) is killed outright.
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        // The answer is read whole: a worktree list or a pushed range can be long.
        maxBuffer: 1 << 30,
        windowsHide: true,
      },
      (error, stdout) => {
        done(error === null ? stdout : undefined);
      },
    );
  });
}

/** A query started before it was asked (prestart), by what it will be asked as. */
interface Prestarted {
  env: Env;
  answer: Promise<string | undefined>;
}

/**
 * Queries the bin started before the CLI bundle was compiled, waiting for the CLI to ask them.
 * On globalThis: the bin and the bundle are two compiled files, each with its own copy of this
 * module, in one process.
 */
const PRESTARTED = Symbol.for('aide.user-repo.prestarted');
function prestarted(): Map<string, Prestarted> {
  const holder = globalThis as { [PRESTARTED]?: Map<string, Prestarted> };
  holder[PRESTARTED] ??= new Map();
  return holder[PRESTARTED];
}

const queryKey = (cwd: string, args: readonly string[]) => [cwd, ...args].join('\0');

/**
 * Runs one query in `cwd`: git's output, or undefined when git fails or cannot start. A query
 * prestarted with the same folder, arguments and environment (the same object: process.env in
 * the shipped CLI) is taken instead, once.
 */
function query(
  cwd: string,
  args: readonly string[],
  env: Env,
  timeoutMs = QUERY_TIMEOUT_MS,
): Promise<string | undefined> {
  const key = queryKey(cwd, args);
  const early = prestarted().get(key);
  if (early !== undefined && early.env === env) {
    prestarted().delete(key);
    return early.answer;
  }
  return runGit(cwd, args, env, timeoutMs);
}

/**
 * Starts now the query `aide review` asks first in `cwd` (where the folder is, with HEAD's
 * tree), so that its git process runs while the bin compiles the CLI instead of after (a hook's
 * review at every commit). The CLI takes the answer when it asks the same question of the same
 * folder with the same environment; anything else asks git anew. Read-only: an answer nobody
 * takes costs only its process.
 */
export function prestartReviewQuery(cwd: string, env: Env): void {
  const args = [...LOCATE_ARGS, 'HEAD^{tree}'];
  prestarted().set(queryKey(cwd, args), { env, answer: runGit(cwd, args, env, LOCATE_TIMEOUT_MS) });
}

function lines(output: string): string[] {
  return output.split('\n').filter((line) => line !== '');
}

function absolute(cwd: string, path: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/** Where a folder is for git. */
export type GitLocation =
  /** In a work tree; `cdup` is the relative way up to its top ('' at the top). */
  | { kind: 'work-tree'; cdup: string }
  /** Inside a git dir (`.git`, a linked worktree's git dir) or a bare repository. */
  | { kind: 'git-dir'; bare: boolean }
  /** Not in a repository, or one git refuses (another user's). */
  | { kind: 'none' };

/**
 * Where `cwd` is, in one git process (it runs on every command's start-up). `--show-cdup` rather
 * than `--show-toplevel`, which fails inside a git dir.
 */
export async function gitLocation(cwd: string, env: Env): Promise<GitLocation> {
  const output = await query(cwd, ['rev-parse', ...LOCATION_ARGS], env, LOCATE_TIMEOUT_MS);
  return output === undefined ? { kind: 'none' } : parseLocation(output.split('\n'));
}

/** rev-parse's flags for where a folder is: one line each, in this order (parseLocation). */
const LOCATION_ARGS = ['--is-inside-git-dir', '--is-bare-repository', '--is-inside-work-tree', '--show-cdup'];

function parseLocation([insideGitDir, bare, insideWorkTree, cdup = '']: readonly string[]): GitLocation {
  if (insideGitDir === 'true' || bare === 'true') return { kind: 'git-dir', bare: bare === 'true' };
  if (insideWorkTree === 'true') return { kind: 'work-tree', cdup };
  return { kind: 'none' };
}

/** The folders of the repository around a work tree. All paths absolute. */
export interface RepoLayout {
  /** The top of the work tree (`--show-toplevel`). */
  toplevel: string;
  /** The per-worktree git dir (holds the index and HEAD). */
  gitDir: string;
  /** The common git dir (objects, refs, config, info/); the git dir itself outside linked worktrees. */
  commonDir: string;
  /** The tree of HEAD's commit; null on an unborn branch. */
  headTree: string | null;
}

/** rev-parse's flags for the layout, one line each, in this order (parseLayout); `HEAD^{tree}` may follow. */
const LAYOUT_ARGS = ['--show-toplevel', '--absolute-git-dir', '--git-common-dir'];

function parseLayout(
  cwd: string,
  [toplevel, gitDir, common, headTree]: readonly string[],
): RepoLayout | undefined {
  if (toplevel === undefined || toplevel === '' || gitDir === undefined || common === undefined)
    return undefined;
  return {
    toplevel,
    gitDir,
    commonDir: absolute(cwd, common),
    headTree: headTree === undefined || headTree === '' ? null : headTree,
  };
}

/** The repository around `cwd`, or undefined outside one. */
export async function repoLayout(cwd: string, env: Env): Promise<RepoLayout | undefined> {
  const dirs = ['rev-parse', ...LAYOUT_ARGS];
  // One process when HEAD exists; an unborn HEAD makes the combined query fail, then ask again.
  const output = (await query(cwd, [...dirs, 'HEAD^{tree}'], env)) ?? (await query(cwd, dirs, env));
  return output === undefined ? undefined : parseLayout(cwd, output.split('\n'));
}

/** locateFolder's query: gitLocation's and repoLayout's flags in one rev-parse (`HEAD^{tree}` may follow). */
const LOCATE_ARGS = ['rev-parse', ...LOCATION_ARGS, ...LAYOUT_ARGS];

/** Where a folder is for git and, when known already, the layout of the repository around it. */
export interface LocatedFolder {
  location: GitLocation;
  /**
   * The repository's layout in a work tree; null where git knows no repository (what repoLayout
   * would answer there); unset inside a git dir (nothing opens a shadow there).
   */
  layout?: RepoLayout | null;
}

/**
 * gitLocation and repoLayout in one git process: what a command that opens the shadow asks at
 * every start (`aide review --staged` in a hook). `HEAD^{tree}` fails on an unborn branch: then
 * the same without it (the first commit's hook: two processes). `--show-toplevel` fails inside a
 * git dir and outside a repository: then gitLocation alone answers.
 */
export async function locateFolder(cwd: string, env: Env): Promise<LocatedFolder> {
  for (const args of [[...LOCATE_ARGS, 'HEAD^{tree}'], LOCATE_ARGS]) {
    const output = await query(cwd, args, env, LOCATE_TIMEOUT_MS);
    if (output === undefined) continue;
    const fields = output.split('\n');
    const location = parseLocation(fields.slice(0, LOCATION_ARGS.length));
    const layout = parseLayout(cwd, fields.slice(LOCATION_ARGS.length));
    if (location.kind === 'work-tree' && layout !== undefined) return { location, layout };
  }
  const location = await gitLocation(cwd, env);
  return location.kind === 'none' ? { location, layout: null } : { location };
}

/** The git dir and common dir of the repository at `cwd` (one entry when they are the same); [] outside one. */
export async function gitDirs(cwd: string, env: Env): Promise<string[]> {
  const output = await query(cwd, ['rev-parse', '--absolute-git-dir', '--git-common-dir'], env);
  return output === undefined ? [] : [...new Set(lines(output.trim()).map((dir) => absolute(cwd, dir)))];
}

/** The commit a revision names (any spelling git understands), or undefined. `rev` must not start with '-'. */
export async function resolveCommit(cwd: string, rev: string, env: Env): Promise<string | undefined> {
  const output = await query(
    cwd,
    ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`],
    env,
  );
  const commit = output?.trim();
  return commit === '' ? undefined : commit;
}

/** git's id of the empty tree: the base of a history that starts with the pushed commits. */
const EMPTY_TREE_ID = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/**
 * Where a pushed range starts for a ref the remote does not have yet: the parent of the oldest
 * commit of `local` that none of the remote's branches (as last fetched) holds, so a new branch
 * is reviewed from where it left them. The empty tree when that commit is a root; null when the
 * remote already has every commit (nothing new to review). `local` must not start with '-'.
 */
export async function pushBase(cwd: string, local: string, remote: string, env: Env): Promise<string | null> {
  const output = await query(
    cwd,
    ['rev-list', '--topo-order', '--reverse', local, '--not', `--remotes=${remote}`],
    env,
  );
  const oldest = output?.split('\n')[0]?.trim();
  if (oldest === undefined || oldest === '') return null;
  return (await resolveCommit(cwd, `${oldest}^`, env)) ?? EMPTY_TREE_ID;
}

/** configPath's query. */
function configPathArgs(key: string): string[] {
  return ['config', '--path', '--default', '', '--get', key];
}

/**
 * A path-valued config setting (`git config --path --get`, `~` expanded), or undefined when unset
 * (`--default ''`: an empty line then, where a bare `--get` exits 1).
 */
export async function configPath(cwd: string, key: string, env: Env): Promise<string | undefined> {
  const value = (await query(cwd, configPathArgs(key), env))?.trim();
  return value === '' ? undefined : value;
}

/**
 * The folder git runs hooks from: `core.hooksPath` when set, else the common dir's `hooks/`
 * (`git rev-parse --git-path hooks` resolves both). Absolute; undefined outside a repository.
 */
export async function hooksDir(cwd: string, env: Env): Promise<string | undefined> {
  const path = (await query(cwd, ['rev-parse', '--git-path', 'hooks'], env))?.trim();
  return path === undefined || path === '' ? undefined : absolute(cwd, path);
}

/** One entry of `git worktree list`. */
export interface Worktree {
  /** The work tree's folder (for a bare main repository, the repository itself). */
  path: string;
  /** The checked-out commit; null for a bare repository or an unborn branch. */
  head: string | null;
  /** The checked-out branch (`refs/heads/…`); null when detached or bare. */
  branch: string | null;
  bare: boolean;
}

/** Parses `git worktree list --porcelain -z`: attribute lines separated by NUL, entries by an empty one. */
export function parseWorktrees(output: string): Worktree[] {
  const worktrees: Worktree[] = [];
  let current: Worktree | undefined;
  for (const field of output.split('\0')) {
    if (field === '') {
      current = undefined;
      continue;
    }
    const space = field.indexOf(' ');
    const [name, value] = space < 0 ? [field, ''] : [field.slice(0, space), field.slice(space + 1)];
    if (name === 'worktree') {
      current = { path: value, head: null, branch: null, bare: false };
      worktrees.push(current);
    } else if (current !== undefined) {
      if (name === 'HEAD') current.head = /^0+$/.test(value) ? null : value;
      else if (name === 'branch') current.branch = value;
      else if (name === 'bare') current.bare = true;
    }
  }
  return worktrees;
}

/** Every worktree of the repository at `cwd`, the main one first; [] outside a repository. */
export async function worktrees(cwd: string, env: Env): Promise<Worktree[]> {
  const output = await query(cwd, ['worktree', 'list', '--porcelain', '-z'], env);
  return output === undefined ? [] : parseWorktrees(output);
}

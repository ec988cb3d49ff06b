/**
 * The one way aide runs git against its shadow repository. Every call names the git dir, the
 * work tree and the index file explicitly, runs with an environment built from scratch (no
 * inherited GIT_DIR, GIT_INDEX_FILE, hooks, global or system config, signing, fsmonitor or
 * prompts), and has its exit code checked: a failed `git add` must never be followed by a
 * `write-tree` that records stale content (opencode #26893).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** Settings forced on every shadow git call, whatever the user's configuration says. */
const FORCED_CONFIG = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.autocrlf=false',
  'core.safecrlf=false',
  'core.quotePath=false',
  'core.splitIndex=false',
  'core.untrackedCache=false',
  'index.sparse=false',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'advice.addEmbeddedRepo=false',
  'advice.detachedHead=false',
];

/** A timeout kills git outright: a git left writing in the background corrupts state (Cline #5015). */
const DEFAULT_TIMEOUT_MS = 5 * 60 * 1000;

export interface GitCallOptions {
  /** Bytes or text for stdin. */
  input?: string | Uint8Array;
  /** Index file for this call; defaults to the shadow's own index. */
  indexFile?: string;
  /** Work tree for this call; defaults to the workspace. */
  workTree?: string;
  /** Exit codes that are not failures (e.g. 1 for `diff --quiet`). */
  okCodes?: readonly number[];
  timeoutMs?: number;
}

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

export class GitCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(
      `git ${args.join(' ')} failed (${code === null ? 'killed' : `exit ${code}`}): ${stderr.trim().split('\n').slice(-3).join(' / ')}`,
    );
    this.name = 'GitCommandError';
  }
}

/**
 * What git says when an object is not in the store (a checkpoint whose content the user's gc
 * removed before checkpoints owned their objects, or a damaged shadow).
 */
const MISSING_OBJECT =
  /(?:unable to read|could not read|bad|invalid object [0-7]+|missing|unable to parse object)(?: (?:tree|blob|commit|object)){0,2}\W+([0-9a-f]{40,64})|([0-9a-f]{40,64}) missing\b/i;

/** The id of the object a failed git call could not find; null when it failed for another reason. */
export function missingObject(error: unknown): string | null {
  if (!(error instanceof GitCommandError)) return null;
  const match = MISSING_OBJECT.exec(error.stderr);
  return match === null ? null : (match[1] ?? match[2] ?? null);
}

export interface ShadowLocation {
  /** The shadow repository: <workspace>/.aide/state/shadow.git */
  gitDir: string;
  /** The workspace root. */
  workTree: string;
  /** The shadow's own index file. */
  indexFile: string;
}

/** The author and committer of every checkpoint. */
export const SHADOW_IDENTITY = { name: 'aide', email: 'aide@localhost' } as const;

/** Environment for shadow git: only what git needs, plus a fixed identity. */
export function shadowEnv(
  env: Readonly<Record<string, string | undefined>>,
  location: ShadowLocation,
  options: GitCallOptions,
): Record<string, string> {
  const clean: Record<string, string> = {
    PATH: env['PATH'] ?? '/usr/bin:/bin',
    LANG: 'C',
    LC_ALL: 'C',
    GIT_DIR: location.gitDir,
    GIT_WORK_TREE: options.workTree ?? location.workTree,
    GIT_INDEX_FILE: options.indexFile ?? location.indexFile,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    GIT_AUTHOR_NAME: SHADOW_IDENTITY.name,
    GIT_AUTHOR_EMAIL: SHADOW_IDENTITY.email,
    GIT_COMMITTER_NAME: SHADOW_IDENTITY.name,
    GIT_COMMITTER_EMAIL: SHADOW_IDENTITY.email,
  };
  const tmp = env['TMPDIR'];
  if (tmp !== undefined) clean['TMPDIR'] = tmp;
  return clean;
}

export class ShadowGit {
  constructor(
    readonly location: ShadowLocation,
    private readonly env: Readonly<Record<string, string | undefined>>,
  ) {}

  private argv(args: readonly string[], workTree: string): string[] {
    return [
      ...FORCED_CONFIG.flatMap((c) => ['-c', c]),
      `--git-dir=${this.location.gitDir}`,
      `--work-tree=${workTree}`,
      ...args,
    ];
  }

  /**
   * Starts a long-running git (`cat-file --batch`) with the same isolation as run(). The caller
   * ends it by closing its stdin; it also ends when this process dies (its stdin closes).
   */
  start(
    args: readonly string[],
    options: Omit<GitCallOptions, 'input' | 'okCodes' | 'timeoutMs'> = {},
  ): ChildProcessWithoutNullStreams {
    const workTree = options.workTree ?? this.location.workTree;
    return spawn('git', this.argv(args, workTree), {
      cwd: workTree,
      env: shadowEnv(this.env, this.location, options),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  }

  /** Runs git; throws GitCommandError unless the exit code is 0 or in okCodes. */
  run(args: readonly string[], options: GitCallOptions = {}): Promise<GitResult> {
    const workTree = options.workTree ?? this.location.workTree;
    return new Promise((resolve, reject) => {
      const child = spawn('git', this.argv(args, workTree), {
        cwd: workTree,
        env: shadowEnv(this.env, this.location, options),
        stdio: ['pipe', 'pipe', 'pipe'],
        timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        killSignal: 'SIGKILL',
      });
      const out: Buffer[] = [];
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
      child.on('error', reject);
      child.on('close', (code) => {
        const result = { code: code ?? -1, stdout: Buffer.concat(out), stderr: err };
        if (code === 0 || (code !== null && (options.okCodes ?? []).includes(code))) resolve(result);
        else reject(new GitCommandError(args, code, err));
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.input ?? '');
    });
  }

  /** stdout as trimmed text. */
  async text(args: readonly string[], options: GitCallOptions = {}): Promise<string> {
    return (await this.run(args, options)).stdout.toString('utf8').trim();
  }

  /** stdout split on NUL (for -z output), without the empty tail. */
  async fields(args: readonly string[], options: GitCallOptions = {}): Promise<string[]> {
    const text = (await this.run(args, options)).stdout.toString('utf8');
    const parts = text.split('\0');
    if (parts.at(-1) === '') parts.pop();
    return parts;
  }
}

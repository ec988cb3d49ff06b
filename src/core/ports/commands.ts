/** Running verify commands, and the isolation they ran under. */

/** One verify command as the runner receives it: fully resolved, nothing inherited. */
export interface CommandRun {
  /** The command's name in sandbox.json, for messages. */
  name: string;
  /** An argv (run without a shell) or a shell line (run by /bin/sh -c). */
  run: readonly string[] | string;
  /** Absolute folder the command runs in (a scratch). */
  cwd: string;
  /** The child's complete environment: nothing else is passed through. */
  env: Readonly<Record<string, string>>;
  /** Milliseconds before the whole process group is killed (TERM, then KILL after a grace period). */
  timeoutMs: number;
  /** Absolute path of the log file: stdout and stderr interleaved, capped at `maxLogBytes`. */
  logFile: string;
  /** Bytes of the log kept beyond which the rest is dropped and a marker line written. */
  maxLogBytes: number;
  /** Bytes at most of the tail: whole lines from the end of the output, ANSI escapes stripped. */
  tailBytes: number;
  /** Called with each output line (ANSI stripped, at most a few KiB each), in order, e.g. to count tests. */
  onLine?: (line: string) => void;
  /** Aborting kills the whole process group (TERM, then KILL) and the result says `cancelled`. */
  signal?: AbortSignal;
  /**
   * Where the runner has `layers`: the command writes to a throwaway copy-on-write layer over
   * `cwd`, not to `cwd`, which is left exactly as it was. Runs that name the same layer, one
   * after another, see each other's writes (a build, then the tests of what it built); a run
   * naming another layer drops the last one's. Ignored by a runner without layers.
   */
  layer?: string;
}

/** How one run of a command ended. The runner never rejects: every failure is described here. */
export interface CommandResult {
  /** null when killed by a signal or never started. */
  exitCode: number | null;
  /** e.g. 'SIGKILL' when killed by a signal. */
  signal: string | null;
  timedOut: boolean;
  /** Stopped because the run's AbortSignal fired (Ctrl-C). */
  cancelled: boolean;
  /** The log reached `maxLogBytes`: the rest of the output was read and dropped. */
  truncated: boolean;
  durationMs: number;
  /** All output bytes the command produced, kept or not. */
  outputBytes: number;
  /** The last whole lines of the output, at most `tailBytes`, ANSI escapes stripped. */
  tail: string;
  /** Why the command could not be started at all (e.g. "spawn npx ENOENT"); null when it ran. */
  startError: string | null;
}

/** What protection verify commands actually ran under; never more than was in force. */
export interface IsolationReport {
  /** 'unshare' (user, mount, network and PID namespaces), 'bwrap', or 'none'. */
  mechanism: 'unshare' | 'bwrap' | 'none';
  /** 'off': commands had no network; 'allowed': by sandbox.json or --no-isolation; 'unavailable': wanted off, but no mechanism works. */
  network: 'off' | 'allowed' | 'unavailable';
  /** The workspace folder and every git dir aide knows (its .git, a linked worktree's common dir, the shadow, alternates) were read-only for the commands. */
  workspaceReadOnly: boolean;
  /**
   * Where commands could write: 'scratch' (only the scratch and their own HOME and temp folder;
   * the rest of the file system read-only), 'outside-workspace' (anywhere but the workspace and
   * its git dirs), 'anywhere'.
   */
  writable: 'scratch' | 'outside-workspace' | 'anywhere';
  /** UNIX sockets on disk outside the scratch (docker, ssh-agent): 'hidden' behind private /tmp, /run, /dev/shm and $HOME, or 'reachable'. */
  sockets: 'hidden' | 'reachable';
  /** Every process a command started dies with it (PID namespace); else only its process group. */
  processTree: 'namespace' | 'process-group';
  /** Why isolation is missing or partial, in one sentence; null when all is in force. */
  detail: string | null;
}

/** Runs verify commands, each in its own process group, under the isolation it reports. */
export interface CommandRunner {
  readonly isolation: IsolationReport;
  /** Runs given a `layer` leave their `cwd` untouched (an overlay in the sandbox); absent or false: a layer is ignored. */
  readonly layers?: boolean;
  run(command: CommandRun): Promise<CommandResult>;
}

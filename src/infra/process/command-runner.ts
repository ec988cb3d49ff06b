/**
 * The verify command runner: each command in its own process group, stdin closed, stdout and
 * stderr interleaved into one capped log, killed as a group on timeout, cancel or aide's exit.
 * It never rejects; every way a run can end is a field of the result.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { CommandResult, CommandRun, CommandRunner, IsolationReport } from '../../core/ports/commands.js';
import { CappedLog, OutputSink } from './output-sink.js';
import { groupGone, signalGroup, trackGroup, untrackGroup } from './process-group.js';
import { closeInheritedFds } from './inherited-fds.js';
import { checkStart } from './start-check.js';
import { monotonicMs } from '../../shared/monotonic.js';

/** A way to run commands and the protection it gives (see isolation.ts). */
export interface Isolation {
  report: IsolationReport;
  /**
   * The argv to spawn so that a command's argv runs isolated in `cwd`, the only folder it may
   * write besides its own temp folder; with `layer`, on that overlay over `cwd` where `layers`.
   */
  wrap: (argv: readonly string[], cwd: string, layer?: string) => string[];
  /** Runs given a layer leave `cwd` untouched (CommandRun.layer). */
  layers?: boolean;
  /**
   * The wrapped argv writes, on fd 3 (sandbox-argv.ts NAMESPACE_INFO_FD), bwrap's JSON naming
   * the pid of its PID namespace's init (`child-pid`).
   */
  reportsInit?: boolean;
  /** The command's environment as the sandbox sets it (a HOME and TMPDIR of its own); unchanged when absent. */
  environment?: (env: Readonly<Record<string, string>>) => Record<string, string>;
}

export interface CommandRunnerOptions {
  /** How each command is wrapped (namespaces) and what that protection is. */
  isolation: Isolation;
  /** Milliseconds between SIGTERM and SIGKILL when a run is stopped. Default 2000. */
  killGraceMs?: number;
  /**
   * Milliseconds to keep reading after the command's own process exits while something it
   * started still holds the output open. Then the group is killed. Default 250.
   */
  drainMs?: number;
}

interface Timing {
  killGraceMs: number;
  drainMs: number;
}

/** setTimeout fires at once for delays past 2^31-1 ms; a huge timeout means "none". */
const MAX_DELAY = 2 ** 31 - 1;
/** More than bwrap's info JSON ever holds: the rest is not kept. */
const INFO_MAX_CHARS = 4096;
/** How long a killed group may take to be gone before the result is given anyway. */
const GONE_WITHIN_MS = 2000;

function argvOf(run: CommandRun['run']): [string, ...string[]] {
  if (typeof run === 'string') return ['/bin/sh', '-c', run];
  const [program = '', ...args] = run;
  return [program, ...args];
}

function notRun(fields: Partial<CommandResult>): CommandResult {
  return {
    exitCode: null,
    signal: null,
    timedOut: false,
    cancelled: false,
    truncated: false,
    durationMs: 0,
    outputBytes: 0,
    tail: '',
    startError: null,
    ...fields,
  };
}

/** Leaves the reason in the log, so a report's link to it never points at nothing. */
function logStartError(command: CommandRun, message: string): void {
  const log = new CappedLog(command.logFile, Number.MAX_SAFE_INTEGER);
  log.write(Buffer.from(`[aide: could not start: ${message}]\n`));
  log.close();
}

export class ProcessCommandRunner implements CommandRunner {
  readonly isolation: IsolationReport;
  readonly layers: boolean;
  private readonly wrap: Isolation['wrap'];
  private readonly reportsInit: boolean;
  private readonly environment: NonNullable<Isolation['environment']>;
  private readonly timing: Timing;

  constructor(options: CommandRunnerOptions) {
    // Before any command runs: none may hold a descriptor aide inherited (inherited-fds.ts).
    closeInheritedFds();
    this.isolation = options.isolation.report;
    this.layers = options.isolation.layers === true;
    this.wrap = options.isolation.wrap;
    this.reportsInit = options.isolation.reportsInit === true;
    this.environment = options.isolation.environment ?? ((env) => ({ ...env }));
    this.timing = { killGraceMs: options.killGraceMs ?? 2000, drainMs: options.drainMs ?? 250 };
  }

  run(command: CommandRun): Promise<CommandResult> {
    if (command.signal?.aborted === true) return Promise.resolve(notRun({ cancelled: true }));
    const argv = argvOf(command.run);
    const startError = checkStart(argv[0], command.cwd, command.env);
    if (startError !== null) {
      logStartError(command, startError);
      return Promise.resolve(notRun({ startError }));
    }
    let prepared: { command: CommandRun; argv: string[] };
    try {
      prepared = {
        command: { ...command, env: this.environment(command.env) },
        argv: this.wrap(argv, command.cwd, command.layer),
      };
    } catch (error) {
      const reason = `the sandbox could not be prepared: ${error instanceof Error ? error.message : String(error)}`;
      logStartError(command, reason);
      return Promise.resolve(notRun({ startError: reason }));
    }
    return new Promise((resolve) => {
      new RunningCommand(prepared.command, prepared.argv, this.timing, this.reportsInit, resolve).start();
    });
  }
}

/** One run, from spawn to the result. Every path ends in `finish()`, exactly once. */
class RunningCommand {
  private readonly sink: OutputSink;
  private readonly started = monotonicMs();
  private child: ChildProcess | null = null;
  private pgid: number | null = null;
  private openStreams = 2;
  /** What the sandbox wrote on its info fd (reportsInit), read to its end. */
  private info = '';
  private exit: { code: number | null; signal: string | null } | null = null;
  private timedOut = false;
  private cancelled = false;
  /** 'term' once SIGTERM went to the group, 'kill' once SIGKILL followed. */
  private stopping: 'no' | 'term' | 'kill' = 'no';
  private readonly timers = new Set<NodeJS.Timeout>();
  private finished = false;

  constructor(
    private readonly command: CommandRun,
    private readonly argv: string[],
    private readonly timing: Timing,
    private readonly reportsInit: boolean,
    private readonly resolve: (result: CommandResult) => void,
  ) {
    this.sink = new OutputSink(command);
  }

  start(): void {
    const [program = '', ...args] = this.argv;
    try {
      // detached: the child leads a new process group, so one signal reaches all it starts.
      this.child = spawn(program, args, {
        cwd: this.command.cwd,
        env: { ...this.command.env },
        detached: true,
        stdio: this.reportsInit ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      this.finish(error instanceof Error ? error.message : String(error));
      return;
    }
    this.child.on('error', (error) => {
      if (this.pgid === null) this.finish(error.message);
    });
    if (this.child.pid === undefined) return; // 'error' follows and finishes the run
    this.pgid = this.child.pid;
    trackGroup(this.pgid);
    this.child.on('exit', (code, signal) => {
      this.onExit(code, signal);
    });
    for (const stream of [this.child.stdout, this.child.stderr]) this.read(stream);
    if (this.reportsInit) this.readInfo(this.child.stdio[3] as Readable | null | undefined);
    this.watch();
  }

  private read(stream: Readable | null): void {
    if (stream === null) {
      this.openStreams--;
      return;
    }
    stream.on('data', (chunk: Buffer) => {
      this.sink.write(chunk);
    });
    stream.on('error', () => {
      // A read error ends this stream like a close; 'close' follows.
    });
    stream.on('close', () => {
      this.openStreams--;
      if (this.openStreams === 0 && this.exit !== null) this.finish(null);
    });
  }

  /** The sandbox's info fd, read like an output stream (the run ends once it closes too), its text capped. */
  private readInfo(stream: Readable | null | undefined): void {
    if (stream === null || stream === undefined) return;
    this.openStreams++;
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      if (this.info.length < INFO_MAX_CHARS) this.info += chunk;
    });
    stream.on('error', () => undefined);
    stream.on('close', () => {
      this.openStreams--;
      if (this.openStreams === 0 && this.exit !== null) this.finish(null);
    });
  }

  /** The namespace init's pid, as the sandbox wrote it; undefined when it wrote none that reads as one. */
  private initPid(): number | undefined {
    const found = /"child-pid"\s*:\s*(\d+)/.exec(this.info);
    const pid = found === null ? Number.NaN : Number(found[1]);
    return Number.isSafeInteger(pid) && pid > 1 ? pid : undefined;
  }

  private watch(): void {
    const { timeoutMs, signal } = this.command;
    if (Number.isFinite(timeoutMs) && timeoutMs < MAX_DELAY) {
      this.after(Math.max(0, timeoutMs), () => {
        // Once the command has exited it did not time out, even if a daemon is still draining.
        if (this.exit !== null) return;
        this.timedOut = true;
        this.stop();
      });
    }
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  private readonly onAbort = (): void => {
    if (this.exit !== null) return;
    this.cancelled = true;
    this.stop();
  };

  /** SIGTERM to the group, SIGKILL after the grace period. */
  private stop(): void {
    if (this.stopping !== 'no' || this.finished || this.pgid === null) return;
    const pgid = this.pgid;
    this.stopping = 'term';
    signalGroup(pgid, 'SIGTERM');
    this.after(this.timing.killGraceMs, () => {
      this.stopping = 'kill';
      signalGroup(pgid, 'SIGKILL');
      if (this.exit !== null) this.drain();
    });
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.exit = { code, signal };
    if (this.openStreams === 0) this.finish(null);
    // While stopping, the grace period runs to its end before the drain: under bwrap the direct
    // child dies of SIGTERM at once, while the command inside is still handling it.
    else if (this.stopping !== 'term') this.drain();
  }

  /**
   * The command's own process is gone but something it started still holds the output pipes
   * (`sleep 100 &`): read a little longer, then kill the group and stop reading.
   */
  private drain(): void {
    this.after(this.timing.drainMs, () => {
      this.finish(null);
    });
  }

  private after(ms: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      action();
    }, ms);
    this.timers.add(timer);
  }

  private finish(startError: string | null): void {
    if (this.finished) return;
    this.finished = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.command.signal?.removeEventListener('abort', this.onAbort);
    this.child?.stdout?.destroy();
    this.child?.stderr?.destroy();
    (this.child?.stdio[3] as Readable | null | undefined)?.destroy();
    if (startError !== null) this.sink.note(`[aide: could not start: ${startError}]`);
    const durationMs = Math.round(monotonicMs() - this.started);
    const pgid = this.pgid;
    if (pgid === null) {
      this.report(startError, durationMs);
      return;
    }
    // Also after a clean exit: a background process that closed its output is still running.
    // The result waits until the group is really gone, so "nothing survives" holds when it is read.
    signalGroup(pgid, 'SIGKILL');
    void groupGone(pgid, GONE_WITHIN_MS, this.initPid()).then(() => {
      untrackGroup(pgid);
      this.report(startError, durationMs);
    });
  }

  private report(startError: string | null, durationMs: number): void {
    const summary = this.sink.finish();
    this.resolve({
      exitCode: this.exit?.code ?? null,
      signal: this.exit?.signal ?? null,
      timedOut: this.timedOut,
      cancelled: this.cancelled,
      truncated: summary.truncated,
      durationMs,
      outputBytes: summary.outputBytes,
      tail: summary.tail,
      startError,
    });
  }
}

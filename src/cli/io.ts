/**
 * Everything a command may touch of the outside process, passed in explicitly so that
 * nothing below the CLI reads process.cwd(), process.env or the TTY state itself.
 */
export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  /** A terminal's size (a TTY stream keeps them current). */
  rows?: number;
  columns?: number;
}

export interface InputStream extends AsyncIterable<Buffer | string> {
  isTTY?: boolean;
}

export interface CliIo {
  stdout: OutputStream;
  stderr: OutputStream;
  stdin: InputStream;
  env: Readonly<Record<string, string | undefined>>;
  /** The process working directory; commands use the resolved --cwd instead. */
  cwd: string;
  /**
   * Awaited after each file change aide makes in the workspace (a restore's files, an act step's
   * write-back), with the number done so far in that commit. Only aide's test entry point
   * (test/helpers/aide-test-bin.ts) sets it, to kill aide between two writes; src/bin.ts never does.
   */
  afterWorkspaceChange?: (done: number) => Promise<void>;
}

/** Options every command accepts. */
export interface GlobalOptions {
  /** The directory aide works in (--cwd), absolute. */
  cwd: string;
  /** Machine-readable output (--json). */
  json: boolean;
}

/** True when a person can answer a prompt: both stdin and stdout are terminals. */
export function isInteractive(io: CliIo): boolean {
  return io.stdin.isTTY === true && io.stdout.isTTY === true;
}

/** Whether to color output: a TTY on stdout, and neither NO_COLOR nor a dumb terminal. */
export function useColor(io: CliIo): boolean {
  if (io.env['NO_COLOR'] !== undefined && io.env['NO_COLOR'] !== '') return false;
  if (io.env['FORCE_COLOR'] !== undefined && io.env['FORCE_COLOR'] !== '0') return true;
  return io.stdout.isTTY === true && io.env['TERM'] !== 'dumb';
}

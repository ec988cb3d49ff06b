/**
 * Long text on a terminal (a step's diff): printed when it fits on the screen, else handed to
 * the user's pager — `$PAGER` through the shell, as git runs it, or `less` — with the terminal
 * as the pager's output. A pager that cannot be started is not an error: the text is printed.
 */
import { stripAnsi } from '../../shared/text.js';
import type { OutputStream } from '../io.js';

export interface TerminalSize {
  rows: number;
  columns: number;
}

/** The rows `text` takes on a terminal `columns` wide (escape sequences take no room). */
export function screenRows(text: string, columns: number): number {
  const lines = stripAnsi(text).replace(/\n$/, '').split('\n');
  const width = Math.max(1, columns);
  return lines.reduce((rows, line) => rows + Math.max(1, Math.ceil(Array.from(line).length / width)), 0);
}

/** Whether `text` needs a pager: it would not fit on the screen with a line to spare for the prompt's return. */
export function needsPager(text: string, size: TerminalSize): boolean {
  return screenRows(text, size.columns) > size.rows - 1;
}

export interface Pager {
  /** A shell command line. */
  command: string;
  env: Record<string, string>;
}

/**
 * The pager to use: `$PAGER` (empty: none), else `less`. Like git, LESS defaults to FRX (colors
 * shown, the text stays on screen after quitting) and LV to -c, unless the user set them.
 */
export function choosePager(env: Readonly<Record<string, string | undefined>>): Pager | null {
  const chosen = env['PAGER'];
  if (chosen !== undefined && chosen.trim() === '') return null;
  const inherited = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return {
    command: chosen ?? 'less',
    env: { ...inherited, LESS: env['LESS'] ?? 'FRX', LV: env['LV'] ?? '-c' },
  };
}

/**
 * Runs the pager with `text` on its stdin and the terminal (file descriptor `fd`) as its output;
 * it reads keys from the terminal itself. Resolves false when it could not be started (no shell,
 * or the shell's 127: command not found), true once it exits.
 */
export async function runPager(pager: Pager, text: string, fd: number): Promise<boolean> {
  // execa, imported only when a text needs paging (it costs about 0.1 s to load). Not in a process
  // group of its own: the pager must stay in the terminal's foreground group to read keys.
  const { execa } = await import('execa');
  // The terminal is stdout or stderr (Screen.fd); execa's types name just those two.
  const terminal = fd === 2 ? 2 : 1;
  const result = await execa(pager.command, {
    shell: true,
    input: text,
    stdout: terminal,
    stderr: terminal,
    env: pager.env,
    extendEnv: false,
    reject: false,
  });
  // A pager quit before reading everything closes its stdin: EPIPE, which execa ignores.
  const started = result.exitCode !== undefined || result.signal !== undefined;
  return started && result.exitCode !== 127;
}

export interface Screen {
  out: OutputStream;
  /** The terminal's file descriptor (1 or 2), for the pager. */
  fd: number;
  size: TerminalSize;
  env: Readonly<Record<string, string | undefined>>;
}

/** Shows `text`: printed when it fits, else through the pager (printed when there is none). */
export async function showText(text: string, screen: Screen): Promise<'printed' | 'paged'> {
  if (needsPager(text, screen.size)) {
    const pager = choosePager(screen.env);
    if (pager !== null && (await runPager(pager, text, screen.fd))) return 'paged';
  }
  screen.out.write(text.endsWith('\n') ? text : `${text}\n`);
  return 'printed';
}

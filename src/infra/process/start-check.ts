/**
 * Checks, before spawning, that a command can start: its folder exists and its program is
 * found and executable on the command's own PATH. Node reports a missing cwd as
 * "spawn /bin/sh ENOENT" (naming the program, not the folder), and under a sandbox wrapper a
 * missing program is only an exit 127 from the inner shell; checking here gives the same,
 * clear `startError` with or without isolation.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/** What execvp searches when PATH is unset. */
const DEFAULT_PATH = '/usr/bin:/bin';

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** 'ok', or the errno name spawn would report for this file. */
function executableStatus(path: string): 'ok' | 'ENOENT' | 'EACCES' {
  try {
    if (!statSync(path).isFile()) return 'EACCES';
  } catch {
    return 'ENOENT';
  }
  try {
    accessSync(path, constants.X_OK);
    return 'ok';
  } catch {
    return 'EACCES';
  }
}

function findProgram(program: string, cwd: string, path: string): 'ok' | 'ENOENT' | 'EACCES' {
  if (program.includes('/')) return executableStatus(isAbsolute(program) ? program : resolve(cwd, program));
  let status: 'ENOENT' | 'EACCES' = 'ENOENT';
  for (const dir of path.split(delimiter)) {
    // An empty PATH entry means the current folder, as for execvp.
    const found = executableStatus(join(dir === '' ? cwd : resolve(cwd, dir), program));
    if (found === 'ok') return 'ok';
    if (found === 'EACCES') status = 'EACCES';
  }
  return status;
}

/** Why `program` cannot be started in `cwd` with `env`, in spawn's words; null when it can. */
export function checkStart(
  program: string,
  cwd: string,
  env: Readonly<Record<string, string>>,
): string | null {
  if (!isAbsolute(cwd) || !isDirectory(cwd)) return `cannot run in ${cwd}: no such folder`;
  if (program === '') return 'spawn: the command is empty';
  const status = findProgram(program, cwd, env['PATH'] ?? DEFAULT_PATH);
  return status === 'ok' ? null : `spawn ${program} ${status}`;
}

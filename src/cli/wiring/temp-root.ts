/**
 * The OS temp dir as the command's environment names it. os.tmpdir() reads the process's own
 * environment, which is the same object in the shipped CLI but not when a test runs aide in its
 * own process (test/helpers/in-process.ts): scratch copies go where the given TMPDIR says.
 */
import { tmpdir } from 'node:os';

/** TMPDIR of `env` without trailing slashes (as os.tmpdir() gives it), else os.tmpdir(). */
export function tempRoot(env: Readonly<Record<string, string | undefined>>): string {
  const named = env['TMPDIR'];
  return named !== undefined && named !== '' ? named.replace(/(?<=.)\/+$/, '') : tmpdir();
}

/**
 * Finds the workspace root: the top of the git work tree that contains `cwd`, or `cwd` itself
 * outside git. Git runs with an environment that cannot redirect it (inside a git hook,
 * GIT_DIR and GIT_INDEX_FILE are set and would point elsewhere).
 */
import { execFile } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { AideError } from '../../shared/errors.js';

/** Environment for read-only git queries: no inherited GIT_* redirection, no prompts, no pager. */
export function gitQueryEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'SYSTEMROOT']) {
    const value = env[key];
    if (value !== undefined) clean[key] = value;
  }
  clean['GIT_TERMINAL_PROMPT'] = '0';
  clean['GIT_PAGER'] = 'cat';
  clean['GIT_OPTIONAL_LOCKS'] = '0';
  return clean;
}

export async function findWorkspaceRoot(cwd: string, env: Readonly<Record<string, string | undefined>>): Promise<string> {
  let real: string;
  try {
    real = await realpath(cwd);
  } catch {
    throw new AideError('workspace_invalid', `the directory ${cwd} does not exist`, { hint: 'Check --cwd.' });
  }
  const top = await gitTopLevel(real, env);
  return top === undefined ? real : realpath(top);
}

/**
 * `git rev-parse --show-toplevel`, or undefined outside a work tree (or without git). A plain
 * child process rather than execa: this runs on every command's startup, and importing execa
 * costs about 0.1 s there.
 */
function gitTopLevel(cwd: string, env: Readonly<Record<string, string | undefined>>): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', ['rev-parse', '--show-toplevel'], { cwd, env: gitQueryEnv(env), encoding: 'utf8', timeout: 10_000 }, (error, stdout) => {
      const top = stdout.trim();
      resolve(error === null && top !== '' ? top : undefined);
    });
  });
}

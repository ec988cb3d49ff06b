/**
 * Finds the workspace root: the top of the git work tree that contains `cwd`, or `cwd` itself
 * outside git. Git runs with an environment that cannot redirect it (inside a git hook,
 * GIT_DIR and GIT_INDEX_FILE are set and would point elsewhere).
 */
import { realpath } from 'node:fs/promises';
import { execa } from 'execa';
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
  const result = await execa('git', ['rev-parse', '--show-toplevel'], {
    cwd: real,
    env: gitQueryEnv(env),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
  if (result.exitCode === 0 && typeof result.stdout === 'string' && result.stdout.trim() !== '') {
    return realpath(result.stdout.trim());
  }
  return real;
}

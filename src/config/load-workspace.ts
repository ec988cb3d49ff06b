/**
 * Loads both .aide files of a workspace. Every problem in either file is reported at once (one
 * round of fixes, not one per run); any problem is an error, never a silent fallback to
 * defaults. A missing file is not a problem: its defaults apply.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unreadableReason } from '../shared/file-errors.js';
import { AideError } from '../shared/errors.js';
import { plural } from '../shared/text.js';
import type { AideConfig } from './config-schema.js';
import type { Env } from './env-overrides.js';
import { CONFIG_FILE, SANDBOX_FILE } from './files.js';
import type { ConfigFlags } from './flag-overrides.js';
import { parseConfigFile, parseSandboxFile, type LoadedFile } from './load.js';
import { formatProblem, type ConfigProblem } from './problems.js';
import type { SandboxConfig } from './sandbox-schema.js';

export interface WorkspaceConfig {
  config: LoadedFile<AideConfig>;
  sandbox: LoadedFile<SandboxConfig>;
}

/**
 * The file's text, or null when it does not exist. Read synchronously: a settings file of a few
 * kilobytes, one call instead of four thread pool round trips (open, stat, read, close).
 */
function readText(root: string, file: string): string | null {
  try {
    return readFileSync(join(root, file), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw new AideError('config_invalid', `cannot read ${file}: ${unreadableReason(error)}`, {
      hint: `${file} must be a readable JSON file (or absent, for the defaults).`,
    });
  }
}

/** The problems as detail lines: each problem, then its fix indented under it. */
export function problemLines(problems: readonly ConfigProblem[]): string[] {
  return problems.flatMap((p) =>
    p.hint === null ? [formatProblem(p)] : [formatProblem(p), `  hint: ${p.hint}`],
  );
}

/** One error for every problem, with each problem as data for `--json`. */
export function invalidConfigError(problems: readonly ConfigProblem[]): AideError {
  const sources = [...new Set(problems.map((p) => p.flag ?? p.variable ?? p.file))];
  const last = sources.pop() ?? 'the configuration';
  const what = sources.length === 0 ? `${last} is invalid` : `${sources.join(', ')} and ${last} are invalid`;
  return new AideError(
    'config_invalid',
    `${what} (${plural(problems.length, 'problem')}); aide does not fall back to defaults`,
    {
      details: problemLines(problems),
      hint: 'Fix the problems above, then check again with `aide config`.',
      data: { problems },
    },
  );
}

/**
 * Loads and validates `.aide/config.json` and `.aide/sandbox.json` under `root`, with the
 * environment's and the command line's overrides (`--model`, `--endpoint`).
 */
export function loadWorkspaceConfig(
  root: string,
  env: Env,
  flags: ConfigFlags = {},
): Promise<WorkspaceConfig> {
  // A promise still: an unreadable or invalid file is a rejection, never a throw at the call.
  return Promise.resolve().then(() => loadNow(root, env, flags));
}

function loadNow(root: string, env: Env, flags: ConfigFlags): WorkspaceConfig {
  const config = parseConfigFile(readText(root, CONFIG_FILE), env, flags);
  const sandbox = parseSandboxFile(readText(root, SANDBOX_FILE));
  if (!config.ok || !sandbox.ok) {
    throw invalidConfigError([
      ...(config.ok ? [] : config.problems),
      ...(sandbox.ok ? [] : sandbox.problems),
    ]);
  }
  return { config: config.loaded, sandbox: sandbox.loaded };
}

/**
 * The runner for verify commands, with the strongest isolation this machine offers. When
 * network isolation is wanted and nothing provides it, aide refuses rather than run the
 * commands with network access the user did not agree to.
 */
import type { CommandRunner } from '../core/ports.js';
import { ProcessCommandRunner } from '../infra/process/command-runner.js';
import type { Isolation } from '../infra/process/command-runner.js';
import { prepareIsolation } from '../infra/process/isolation.js';
import { AideError } from '../shared/errors.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface RunnerRequest {
  /** The workspace: mounted read-only for the commands where the mechanism allows. */
  root: string;
  env: Env;
  /** sandbox.json `allow_network`. */
  allowNetwork: boolean;
  /** false with --no-isolation: the user accepts unconfined commands. */
  isolate: boolean;
}

const FORCE_VALUES = ['unshare', 'bwrap', 'none'] as const;
type Force = (typeof FORCE_VALUES)[number];

/** AIDE_ISOLATION picks one mechanism (for tests, and to rule one out on a machine where it misbehaves). */
function forcedMechanism(env: Env): Force | undefined {
  const value = env['AIDE_ISOLATION'];
  if (value === undefined || value === '') return undefined;
  if ((FORCE_VALUES as readonly string[]).includes(value)) return value as Force;
  throw new AideError('usage', `AIDE_ISOLATION=${value} is not a mechanism aide knows`, { hint: `Use one of ${FORCE_VALUES.join(', ')}, or unset it to let aide choose.` });
}

const UNCONFINED: Isolation = {
  report: { mechanism: 'none', network: 'allowed', workspaceReadOnly: false, processTree: 'process-group', detail: 'isolation: none (--no-isolation)' },
  wrap: (argv) => [...argv],
};

export async function openVerifyRunner(request: RunnerRequest): Promise<CommandRunner> {
  const force = forcedMechanism(request.env);
  const isolation = request.isolate ? await prepareIsolation({ allowNetwork: request.allowNetwork, readOnlyPaths: [request.root], env: request.env, ...(force === undefined ? {} : { force }) }) : UNCONFINED;
  if (isolation.report.network === 'unavailable') {
    throw new AideError('isolation_unavailable', `${isolation.report.detail ?? 'network isolation: unavailable'}; verify commands would run with network access`, {
      hint: 'To accept that, set "allow_network": true in .aide/sandbox.json or pass --no-isolation. `aide doctor` shows what this machine offers.',
    });
  }
  return new ProcessCommandRunner({ isolation });
}

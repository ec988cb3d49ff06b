/**
 * The runner for verify commands, with the strongest isolation this machine offers. When
 * network isolation is wanted and nothing provides it, aide refuses rather than run the
 * commands with network access the user did not agree to.
 */
import { join } from 'node:path';
import type { CommandRunner } from '../../core/ports/commands.js';
import { knownGitDirs } from '../../infra/git/git-dirs.js';
import { ProcessCommandRunner } from '../../infra/process/command-runner.js';
import { prepareIsolation, unconfined, type SessionIsolation } from '../../infra/process/isolation.js';
import { PlanMemory, planMemoryFile } from '../../infra/process/plan-memory.js';
import { STATE_DIR } from '../../config/files.js';
import { AideError } from '../../shared/errors.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface RunnerRequest {
  /** The workspace: mounted read-only for the commands where the mechanism allows. */
  root: string;
  env: Env;
  /** sandbox.json `allow_network`. */
  allowNetwork: boolean;
  /** false with --no-isolation: the user accepts unconfined commands. */
  isolate: boolean;
  /** sandbox.json `home_binds`. */
  homeBinds: readonly string[];
  /** The workspace's git dir and common dir, when the caller knows them already (none: ask git). */
  gitDirs?: readonly string[];
  /** Runs will name layers (CommandRun.layer): a plan that can mount an overlay is preferred. */
  layers?: boolean;
}

/** The runner of one session; `dispose()` removes the commands' private HOME and temp folder. */
export interface VerifyRunner extends CommandRunner {
  dispose(): void;
}

const FORCE_VALUES = ['unshare', 'bwrap', 'none'] as const;
type Force = (typeof FORCE_VALUES)[number];

/** AIDE_ISOLATION picks one mechanism (for tests, and to rule one out on a machine where it misbehaves). */
function forcedMechanism(env: Env): Force | undefined {
  const value = env['AIDE_ISOLATION'];
  if (value === undefined || value === '') return undefined;
  if ((FORCE_VALUES as readonly string[]).includes(value)) return value as Force;
  throw new AideError('usage', `AIDE_ISOLATION=${value} is not a mechanism aide knows`, {
    hint: `Use one of ${FORCE_VALUES.join(', ')}, or unset it to let aide choose.`,
  });
}

async function isolationFor(request: RunnerRequest): Promise<SessionIsolation> {
  if (!request.isolate)
    return unconfined(
      { env: request.env, homeBinds: request.homeBinds, network: 'allowed' },
      'isolation: none (--no-isolation)',
    );
  const force = forcedMechanism(request.env);
  // Read-only: the workspace and every git dir a command could reach it through.
  const readOnlyPaths = [
    request.root,
    ...(await knownGitDirs(
      request.root,
      join(request.root, STATE_DIR, 'shadow.git'),
      request.env,
      request.gitDirs,
    )),
  ];
  return prepareIsolation({
    allowNetwork: request.allowNetwork,
    readOnlyPaths,
    env: request.env,
    homeBinds: request.homeBinds,
    ...(force === undefined ? {} : { force }),
    ...(request.layers === true ? { layers: true } : {}),
    // A hook reviewing each commit, verify after verify: the plan proved a few minutes ago is
    // used without its probe (~10 program starts). aide doctor always probes afresh.
    memory: new PlanMemory(planMemoryFile(request.env)),
  });
}

export async function openVerifyRunner(request: RunnerRequest): Promise<VerifyRunner> {
  const isolation = await isolationFor(request);
  if (isolation.report.network === 'unavailable') {
    throw new AideError(
      'isolation_unavailable',
      `${isolation.report.detail ?? 'network isolation: unavailable'}; verify commands would run with network access`,
      {
        hint: 'To accept that, set "allow_network": true in .aide/sandbox.json or pass --no-isolation. `aide doctor` shows what this machine offers.',
      },
    );
  }
  const runner = new ProcessCommandRunner({ isolation });
  return {
    isolation: runner.isolation,
    layers: runner.layers,
    run: (command) => runner.run(command),
    dispose: () => {
      isolation.dispose();
    },
  };
}

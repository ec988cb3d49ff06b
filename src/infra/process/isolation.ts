/**
 * Chooses how verify commands are isolated (threat T10, network egress; writes outside the
 * scratch; UNIX sockets on disk) by trying the strongest plan first and keeping the first that
 * demonstrably works, then reports exactly that: never a protection that is not in force.
 */
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { IsolationReport } from '../../core/ports/commands.js';
import type { Isolation } from './command-runner.js';
import { probe } from './probe.js';
import { planKey, type PlanMemory } from './plan-memory.js';
import { probePlan } from './sandbox-probe.js';
import { Sandbox, type SandboxSettings } from './sandbox.js';
import type { SandboxPlan, SandboxTools } from './sandbox-argv.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface IsolationOptions {
  /** Commands may use the network: no network namespace. */
  allowNetwork: boolean;
  /** Absolute paths kept read-only for commands: the user's workspace and every git dir aide knows. */
  readOnlyPaths: readonly string[];
  /** For PATH (to find unshare, bwrap, mount, setpriv, ip), TMPDIR, HOME and XDG_RUNTIME_DIR (what to hide). */
  env: Env;
  /** sandbox.json `home_binds`: "~/…" files and folders shown read-only in the commands' HOME. */
  homeBinds?: readonly string[];
  /** Use only this mechanism ('none': no isolation); from AIDE_ISOLATION, so tests reach each fallback. */
  force?: 'unshare' | 'bwrap' | 'none';
  /** Plans that passed their probe in a run a few minutes ago, trusted without a new probe (plan-memory.ts). */
  memory?: PlanMemory;
  /**
   * Runs will name layers (CommandRun.layer): unshare's confined plan with an overlay over the
   * scratch is tried first, before bwrap's, which cannot mount one (act's verify commands then
   * leave the scratch as the step's capture left it, and nothing needs sweeping after them).
   */
  layers?: boolean;
}

/** A way to run the session's commands; `dispose()` removes their private HOME and temp folder. */
export interface SessionIsolation extends Isolation {
  environment: NonNullable<Isolation['environment']>;
  dispose(): void;
}

/** Administrator folders are searched too: an unprivileged PATH often lacks /usr/sbin (ip). */
const EXTRA_DIRS = ['/usr/sbin', '/sbin', '/usr/bin', '/bin'];

function findTool(name: string, env: Env): string | null {
  const dirs = [...(env['PATH'] ?? '').split(delimiter).filter(isAbsolute), ...EXTRA_DIRS];
  for (const dir of dirs) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not here
    }
  }
  return null;
}

/** Whether unshare maps the current user, asked once per unshare binary. */
const unshareFeatures = new Map<string, Promise<boolean>>();

/** Larger than any unshare; a file past it is not read whole, and `--help` answers instead. */
const MAX_PROGRAM_BYTES = 16 * 1024 * 1024;

/**
 * util-linux's unshare lists both options in its usage text, which is in its own file: found
 * there, no `unshare --help` process is started (one per verify, act and review). A program that
 * cannot be read or is too large (not util-linux's) is asked with `--help`, as before.
 */
function helpInProgram(unshare: string): boolean | undefined {
  try {
    if (statSync(unshare).size > MAX_PROGRAM_BYTES) return undefined;
    const bytes = readFileSync(unshare);
    return bytes.includes('--map-current-user') && bytes.includes('--keep-caps');
  } catch {
    return undefined;
  }
}

export function mapsCurrentUser(unshare: string, env: Env): Promise<boolean> {
  let answer = unshareFeatures.get(unshare);
  if (answer === undefined) {
    const fromFile = helpInProgram(unshare);
    answer =
      fromFile === true
        ? Promise.resolve(true)
        : probe([unshare, '--help'], { env }).then(
            (help) => help.stdout.includes('--map-current-user') && help.stdout.includes('--keep-caps'),
          );
    unshareFeatures.set(unshare, answer);
  }
  return answer;
}

/** Where the sandbox programs are on this machine (PATH first, then the admin folders). */
export async function findSandboxTools(env: Env): Promise<SandboxTools> {
  const unshare = findTool('unshare', env);
  return {
    unshare,
    unshareMapsCurrentUser: unshare !== null && (await mapsCurrentUser(unshare, env)),
    bwrap: findTool('bwrap', env),
    mount: findTool('mount', env),
    umount: findTool('umount', env),
    pivotRoot: findTool('pivot_root', env),
    setpriv: findTool('setpriv', env),
    ip: findTool('ip', env),
  };
}

/**
 * Strongest first. bwrap and unshare's first plan give the same protections; bwrap comes first
 * because it is one program where unshare's plan starts seven (unshare, sh, mount, pivot_root,
 * umount, ip, setpriv): measured here, `true` under bwrap cost ~3.5 ms of CPU over a bare
 * spawn against ~15 ms under unshare (`npm run bench:verify` prints both). unshare stays the
 * fallback, with weaker plans after it, where bwrap is missing or refused (AppArmor, no setuid
 * helper and no unprivileged user namespaces for it). Where runs name layers, unshare's plan
 * with an overlay comes first: it is the only one that can leave the scratch untouched. Its
 * probe mounts the overlay (sandbox-probe.ts), so a kernel or a temp folder where overlayfs
 * will not mount falls through to bwrap as before.
 */
function candidatePlans(
  allowNetwork: boolean,
  force: IsolationOptions['force'],
  layers: boolean,
): SandboxPlan[] {
  const network = !allowNetwork;
  const bwrap: SandboxPlan = { mechanism: 'bwrap', network, filesystem: 'confined', pid: true };
  const unshare: SandboxPlan = { mechanism: 'unshare', network, filesystem: 'confined', pid: true };
  const plans: SandboxPlan[] = [
    ...(layers ? [{ ...unshare, layers: true }] : []),
    bwrap,
    unshare,
    { mechanism: 'unshare', network, filesystem: 'confined', pid: false },
    { mechanism: 'unshare', network, filesystem: 'paths', pid: true },
    { mechanism: 'unshare', network, filesystem: 'paths', pid: false },
  ];
  if (network) plans.push({ mechanism: 'unshare', network, filesystem: 'open', pid: false });
  return plans.filter((plan) => force === undefined || plan.mechanism === force);
}

/** Why `plan` cannot even be tried, or null. */
function missingTool(plan: SandboxPlan, tools: SandboxTools): string | null {
  if (plan.mechanism === 'bwrap') return tools.bwrap === null ? 'bwrap is not installed' : null;
  if (tools.unshare === null) return 'unshare is not installed (util-linux)';
  if (plan.filesystem !== 'open' && tools.mount === null) return 'mount is not installed (util-linux)';
  // Without setpriv the command keeps its capabilities and could unmount the read-only binds.
  if (plan.filesystem !== 'open' && tools.setpriv === null)
    return 'setpriv is not installed (util-linux), so the workspace cannot be kept read-only';
  if (plan.filesystem === 'confined' && (tools.pivotRoot === null || tools.umount === null))
    return 'pivot_root or umount is not installed (util-linux)';
  return null;
}

/** Probes are cached for the life of the process: the answer does not change while aide runs. */
const probes = new Map<string, Promise<string | null>>();

function tryPlan(
  plan: SandboxPlan,
  tools: SandboxTools,
  env: Env,
  memory: PlanMemory | undefined,
): Promise<string | null> {
  const key = JSON.stringify([plan, tools, env['TMPDIR'], env['HOME'], env['XDG_RUNTIME_DIR']]);
  let result = probes.get(key);
  if (result === undefined) {
    const remembered = memory === undefined ? null : planKey(plan, tools, env);
    result =
      remembered !== null && memory?.passedLately(remembered) === true
        ? Promise.resolve(null)
        : probePlan(plan, tools, env).then((reason) => {
            if (reason === null && remembered !== null) memory?.rememberPass(remembered);
            return reason;
          });
    probes.set(key, result);
  }
  return result;
}

/** What a plan leaves open, in words for the verdict's detail. */
function gaps(plan: SandboxPlan, readOnly: boolean): string[] {
  const missing: string[] = [];
  if (plan.filesystem === 'open' && readOnly) missing.push('the workspace and its git dirs are writable');
  if (plan.filesystem !== 'confined')
    missing.push(
      '$HOME, /tmp and the rest of the file system outside the workspace are writable and UNIX sockets on disk (/tmp, /run, $HOME) are reachable',
    );
  if (!plan.pid)
    missing.push('background processes are killed only through the process group (no PID namespace)');
  return missing;
}

function report(
  plan: SandboxPlan,
  tools: SandboxTools,
  options: IsolationOptions,
  failures: readonly string[],
): IsolationReport {
  const readOnly = options.readOnlyPaths.length > 0;
  const missing = gaps(plan, readOnly);
  const notes = missing.length > 0 ? [`${missing.join('; ')} because ${failures.join('; ')}`] : [];
  if (plan.network && plan.mechanism === 'unshare' && tools.ip === null)
    notes.push('loopback is down inside because iproute2 `ip` was not found');
  return {
    mechanism: plan.mechanism,
    network: plan.network ? 'off' : 'allowed',
    workspaceReadOnly: plan.filesystem !== 'open' && readOnly,
    writable:
      plan.filesystem === 'confined'
        ? 'scratch'
        : plan.filesystem === 'paths'
          ? 'outside-workspace'
          : 'anywhere',
    sockets: plan.filesystem === 'confined' ? 'hidden' : 'reachable',
    processTree: plan.pid ? 'namespace' : 'process-group',
    detail: notes.length > 0 ? notes.join('; ') : null,
  };
}

function settingsOf(options: IsolationOptions): SandboxSettings {
  return {
    env: options.env,
    readOnlyPaths: options.readOnlyPaths,
    homeBinds: options.homeBinds ?? [],
    allowNetwork: options.allowNetwork,
  };
}

function session(sandbox: Sandbox, report: IsolationReport): SessionIsolation {
  return {
    report,
    layers: sandbox.layers,
    reportsInit: sandbox.reportsInit,
    wrap: (argv, cwd, layer) => sandbox.wrap(argv, cwd, layer),
    environment: (env) => sandbox.environment(env),
    dispose: () => {
      sandbox.dispose();
    },
  };
}

const NO_TOOLS: SandboxTools = {
  unshare: null,
  unshareMapsCurrentUser: false,
  bwrap: null,
  mount: null,
  umount: null,
  pivotRoot: null,
  setpriv: null,
  ip: null,
};

/** Commands run unconfined (still with a HOME and TMPDIR of their own); `detail` says why. */
export function unconfined(
  options: Pick<IsolationOptions, 'env' | 'homeBinds'> & { network: IsolationReport['network'] },
  detail: string,
): SessionIsolation {
  const sandbox = new Sandbox(null, NO_TOOLS, {
    env: options.env,
    readOnlyPaths: [],
    homeBinds: options.homeBinds ?? [],
    allowNetwork: true,
  });
  return session(sandbox, {
    mechanism: 'none',
    network: options.network,
    workspaceReadOnly: false,
    writable: 'anywhere',
    sockets: 'reachable',
    processTree: 'process-group',
    detail,
  });
}

function unisolated(options: IsolationOptions, reason: string): SessionIsolation {
  const what = options.allowNetwork ? 'isolation' : 'network isolation';
  return unconfined(
    { ...options, network: options.allowNetwork ? 'allowed' : 'unavailable' },
    `${what}: unavailable because ${reason}`,
  );
}

/** Tries one plan for real: null when it works, else why not (the tool's own words). */
export type PlanTrial = (plan: SandboxPlan) => Promise<string | null>;

const FORCED_OFF = 'it was turned off (AIDE_ISOLATION=none)';

/** The first candidate plan that `trial` accepts, reported with what is missing and why. */
export async function selectIsolation(
  options: IsolationOptions,
  tools: SandboxTools,
  trial: PlanTrial,
): Promise<SessionIsolation> {
  if (options.force === 'none') return unisolated(options, FORCED_OFF);
  const failures: string[] = [];
  for (const plan of candidatePlans(options.allowNetwork, options.force, options.layers === true)) {
    const reason = missingTool(plan, tools) ?? (await trial(plan));
    if (reason === null)
      return session(new Sandbox(plan, tools, settingsOf(options)), report(plan, tools, options, failures));
    // The plans after it give the same protections without the overlay: its failure is no gap.
    if (plan.layers !== true && !failures.includes(reason)) failures.push(reason);
  }
  return unisolated(options, failures.join('; '));
}

/**
 * Finds the strongest isolation that works here, by running a check inside each candidate
 * (about 50 ms the first time, cached after). Never rejects for a missing or failing tool:
 * that is reported as `mechanism: 'none'` with the reason, and the caller decides.
 */
export async function prepareIsolation(options: IsolationOptions): Promise<SessionIsolation> {
  for (const path of options.readOnlyPaths) {
    if (!isAbsolute(path)) throw new TypeError(`prepareIsolation: read-only path must be absolute: ${path}`);
  }
  if (options.force === 'none') return unisolated(options, FORCED_OFF);
  const tools = await findSandboxTools(options.env);
  return selectIsolation(options, tools, (plan) => tryPlan(plan, tools, options.env, options.memory));
}

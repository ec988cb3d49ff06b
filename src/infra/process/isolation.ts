/**
 * Chooses how verify commands are isolated (threat T10, network egress, and writes to the
 * workspace) by trying the strongest plan first and keeping the first that demonstrably works,
 * then reports exactly that: never a protection that is not in force.
 */
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { Isolation } from './command-runner.js';
import { probe } from './probe.js';
import { sandboxArgv, type SandboxPlan, type SandboxTools } from './sandbox-argv.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface IsolationOptions {
  /** Commands may use the network: no network namespace. */
  allowNetwork: boolean;
  /** Absolute paths mounted read-only for commands (the user's workspace). */
  readOnlyPaths: readonly string[];
  /** For PATH (to find unshare, bwrap, mount, setpriv, ip) and TMPDIR (for the probe). */
  env: Env;
  /** Use only this mechanism ('none': no isolation); from AIDE_ISOLATION, so tests reach each fallback. */
  force?: 'unshare' | 'bwrap' | 'none';
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

/** Whether unshare maps the current user, asked once per unshare binary (`unshare --help`). */
const unshareFeatures = new Map<string, Promise<boolean>>();

function mapsCurrentUser(unshare: string, env: Env): Promise<boolean> {
  let answer = unshareFeatures.get(unshare);
  if (answer === undefined) {
    answer = probe([unshare, '--help'], { env }).then((help) => help.stdout.includes('--map-current-user') && help.stdout.includes('--keep-caps'));
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
    setpriv: findTool('setpriv', env),
    ip: findTool('ip', env),
  };
}

/** Strongest first; bwrap second, for systems where only its setuid helper makes namespaces. */
function candidatePlans(allowNetwork: boolean, force: IsolationOptions['force']): SandboxPlan[] {
  const network = !allowNetwork;
  const plans: SandboxPlan[] = [
    { mechanism: 'unshare', network, readOnly: true, pid: true },
    { mechanism: 'bwrap', network, readOnly: true, pid: true },
    { mechanism: 'unshare', network, readOnly: true, pid: false },
  ];
  if (network) plans.push({ mechanism: 'unshare', network, readOnly: false, pid: false });
  return plans.filter((plan) => force === undefined || plan.mechanism === force);
}

/** Why `plan` cannot even be tried, or null. */
function missingTool(plan: SandboxPlan, tools: SandboxTools): string | null {
  if (plan.mechanism === 'bwrap') return tools.bwrap === null ? 'bwrap is not installed' : null;
  if (tools.unshare === null) return 'unshare is not installed (util-linux)';
  if (plan.readOnly && tools.mount === null) return 'mount is not installed (util-linux)';
  // Without setpriv the command keeps its capabilities and could unmount the read-only bind.
  if (plan.readOnly && tools.setpriv === null) return 'setpriv is not installed (util-linux), so the workspace cannot be kept read-only';
  return null;
}

/**
 * Run inside a plan on a scratch folder mounted read-only: the folder must refuse a write and an
 * unmount, only loopback may be visible (/proc/net/dev lists the reader's own namespace), and
 * the parent must be the namespace's PID 1.
 */
function checkScript(plan: SandboxPlan): string {
  const checks = ['d=$1'];
  if (plan.readOnly) {
    checks.push('if (: > "$d/probe") 2>/dev/null; then echo "aide: $d is still writable" >&2; exit 10; fi');
    checks.push('if umount "$d" 2>/dev/null; then echo "aide: the command can unmount $d" >&2; exit 11; fi');
  }
  if (plan.network) checks.push('[ "$(grep -c : /proc/net/dev)" = 1 ] || { echo "aide: network interfaces are visible" >&2; exit 12; }');
  if (plan.pid) checks.push('[ "$PPID" = 1 ] || { echo "aide: not in a PID namespace" >&2; exit 13; }');
  return checks.join('\n');
}

function firstLine(text: string): string {
  return text.split('\n').find((line) => line.trim() !== '')?.trim() ?? '';
}

/** Probes are cached for the life of the process: the answer does not change while aide runs. */
const probes = new Map<string, Promise<string | null>>();

/** Runs the check inside `plan`: null when it works, else the tool's own error line. */
function tryPlan(plan: SandboxPlan, tools: SandboxTools, env: Env): Promise<string | null> {
  const key = JSON.stringify([plan, tools]);
  let result = probes.get(key);
  if (result === undefined) {
    result = runProbe(plan, tools, env);
    probes.set(key, result);
  }
  return result;
}

async function runProbe(plan: SandboxPlan, tools: SandboxTools, env: Env): Promise<string | null> {
  const dir = mkdtempSync(join(env['TMPDIR'] ?? '/tmp', 'aide-isolation-'));
  try {
    const [program = '', ...args] = sandboxArgv(plan, tools, [dir], ['/bin/sh', '-c', checkScript(plan), 'aide-probe', dir]);
    const result = await probe([program, ...args], { env, cwd: dir });
    if (result.ok) return null;
    return firstLine(result.stderr) || `${plan.mechanism} exited ${result.code ?? 'on a signal'}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function isolated(plan: SandboxPlan, tools: SandboxTools, options: IsolationOptions, failures: readonly string[]): Isolation {
  const readOnlyPaths = [...options.readOnlyPaths];
  const missing: string[] = [];
  if (!plan.readOnly && readOnlyPaths.length > 0) missing.push('the workspace is writable');
  if (!plan.pid) missing.push('background processes are killed only through the process group (no PID namespace)');
  const notes = missing.length > 0 ? [`${missing.join(' and ')} because ${failures.join('; ')}`] : [];
  if (plan.network && plan.mechanism === 'unshare' && tools.ip === null) notes.push('loopback is down inside because iproute2 `ip` was not found');
  return {
    report: {
      mechanism: plan.mechanism,
      network: plan.network ? 'off' : 'allowed',
      workspaceReadOnly: plan.readOnly && readOnlyPaths.length > 0,
      processTree: plan.pid ? 'namespace' : 'process-group',
      detail: notes.length > 0 ? notes.join('; ') : null,
    },
    wrap: (argv) => sandboxArgv(plan, tools, readOnlyPaths, argv),
  };
}

function unisolated(options: IsolationOptions, reason: string): Isolation {
  return {
    report: {
      mechanism: 'none',
      network: options.allowNetwork ? 'allowed' : 'unavailable',
      workspaceReadOnly: false,
      processTree: 'process-group',
      detail: `${options.allowNetwork ? 'isolation' : 'network isolation'}: unavailable because ${reason}`,
    },
    wrap: (argv) => [...argv],
  };
}

/** Tries one plan for real: null when it works, else why not (the tool's own words). */
export type PlanTrial = (plan: SandboxPlan) => Promise<string | null>;

const FORCED_OFF = 'it was turned off (AIDE_ISOLATION=none)';

/** The first candidate plan that `trial` accepts, reported with what is missing and why. */
export async function selectIsolation(options: IsolationOptions, tools: SandboxTools, trial: PlanTrial): Promise<Isolation> {
  if (options.force === 'none') return unisolated(options, FORCED_OFF);
  const failures: string[] = [];
  for (const plan of candidatePlans(options.allowNetwork, options.force)) {
    const reason = missingTool(plan, tools) ?? (await trial(plan));
    if (reason === null) return isolated(plan, tools, options, failures);
    if (!failures.includes(reason)) failures.push(reason);
  }
  return unisolated(options, failures.join('; '));
}

/**
 * Finds the strongest isolation that works here, by running a check inside each candidate
 * (about 50 ms the first time, cached after). Never rejects for a missing or failing tool:
 * that is reported as `mechanism: 'none'` with the reason, and the caller decides.
 */
export async function prepareIsolation(options: IsolationOptions): Promise<Isolation> {
  for (const path of options.readOnlyPaths) {
    if (!isAbsolute(path)) throw new TypeError(`prepareIsolation: read-only path must be absolute: ${path}`);
  }
  if (options.force === 'none') return unisolated(options, FORCED_OFF);
  const tools = await findSandboxTools(options.env);
  return selectIsolation(options, tools, (plan) => tryPlan(plan, tools, options.env));
}

/**
 * `aide doctor`: what works on this machine, judged from facts the CLI gathers (versions,
 * probes, the workspace's state). Pure: facts in, checks out. A check fails only when aide
 * cannot do its job without the fix; everything else is a warning or a note.
 */
import { formatBytes } from '../../shared/units.js';
import type { IsolationReport } from '../ports/commands.js';
import { modelVerdict, type ModelFacts } from './model-check.js';

/** Oldest git with everything aide runs: `worktree add`, `--pathspec-from-file` (2.26), `init --initial-branch` (2.28). */
export const MIN_GIT = '2.28.0';

export interface DoctorFacts {
  platform: string;
  node: { version: string; /** package.json `engines.node`, e.g. ">=20.19" */ required: string | null };
  /** `git --version`'s number; null when git is not on PATH. */
  git: { version: string | null };
  workspace: {
    root: string;
    /** Why aide refuses this folder as a workspace (home, /), or null. */
    refused: string | null;
    gitRepo: boolean;
    shadow: { present: boolean; bytes: number; sessions: number };
  };
  scratch: {
    /** Where this workspace's scratches go. */
    home: string;
    active: number;
    stale: number;
    /** The workspace's kept scratch (reused by the next session, swept first), when there is one. */
    kept?: { path: string; inUse: boolean } | null;
    /** Free bytes in the temp dir, and whether it is RAM-backed (tmpfs); null when unknown. */
    tempFree: { bytes: number; tmpfs: boolean } | null;
    overlay: { available: boolean; detail: string };
  };
  isolation: {
    /** What `aide verify` would run its commands under here, with network off (as probed for real). */
    verify: IsolationReport;
    bubblewrap: { present: boolean; version: string | null };
  };
  /** From .aide/config.json and the server doctor contacted; `error` when the file is invalid. */
  model: ModelFacts | { error: string };
}

export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface DoctorCheck {
  /** `config`: .aide/config.json or sandbox.json is invalid (shown instead of `model`, which cannot be judged then). */
  id: 'node' | 'git' | 'workspace' | 'scratch' | 'network' | 'model' | 'config';
  status: CheckStatus;
  summary: string;
  details: string[];
  /** What to do about it; null when nothing needs doing. */
  fix: string | null;
}

export interface ScratchChoice {
  /** How scratches are made here: a git worktree moved incrementally, or none at all (no usable git). */
  mechanism: 'worktree' | 'none';
  reason: string;
}

export interface DoctorReport {
  ok: boolean;
  checks: DoctorCheck[];
  scratch: ScratchChoice;
}

/** "v20.20.2", "2.39.5 (Apple Git-154)" → [20, 20, 2]; null when there is no number. */
export function parseVersion(text: string): number[] | null {
  const match = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  return match === null ? null : [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
}

export function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

/** Whether a version meets a ">=X.Y[.Z]" range; null for a range this does not understand. */
export function satisfies(version: string, range: string): boolean | null {
  const have = parseVersion(version);
  const want = /^\s*>=\s*v?(\d+(?:\.\d+){0,2})\s*$/.exec(range)?.[1];
  if (have === null || want === undefined) return null;
  return compareVersions(have, want.split('.').map(Number)) >= 0;
}

function check(
  id: DoctorCheck['id'],
  status: CheckStatus,
  summary: string,
  details: string[] = [],
  fix: string | null = null,
): DoctorCheck {
  return { id, status, summary, details, fix };
}

function nodeCheck({ node }: DoctorFacts): DoctorCheck {
  if (node.required === null) return check('node', 'ok', `Node ${node.version}`);
  const ok = satisfies(node.version, node.required);
  if (ok === false)
    return check(
      'node',
      'fail',
      `Node ${node.version} is too old (aide needs ${node.required})`,
      [],
      `Install Node ${node.required.replace(/^>=\s*/, '')} or newer.`,
    );
  return check('node', 'ok', `Node ${node.version} (needs ${node.required})`);
}

function gitOk(facts: DoctorFacts): boolean {
  const have = facts.git.version === null ? null : parseVersion(facts.git.version);
  return have !== null && compareVersions(have, parseVersion(MIN_GIT) ?? []) >= 0;
}

function gitCheck(facts: DoctorFacts): DoctorCheck {
  const { version } = facts.git;
  const fix = `Install git ${MIN_GIT.replace(/\.0$/, '')} or newer.`;
  if (version === null)
    return check(
      'git',
      'fail',
      'git is not on PATH: aide keeps checkpoints and scratch copies with git',
      [],
      fix,
    );
  if (!gitOk(facts))
    return check(
      'git',
      'fail',
      `git ${version} is too old (aide needs ${MIN_GIT.replace(/\.0$/, '')}: worktree, --pathspec-from-file, init --initial-branch)`,
      [],
      fix,
    );
  return check('git', 'ok', `git ${version} (needs ${MIN_GIT.replace(/\.0$/, '')} or newer)`);
}

function workspaceCheck({ workspace }: DoctorFacts): DoctorCheck {
  if (workspace.refused !== null)
    return check(
      'workspace',
      'warn',
      workspace.refused,
      [],
      'Run aide inside a project folder (a git repository), or pass --cwd with one.',
    );
  const kind = workspace.gitRepo
    ? 'git repository'
    : "folder (not a git repository: snapshots work, but cannot borrow git's objects, so the first one is slower)";
  const { shadow } = workspace;
  const shadowText = shadow.present
    ? `shadow repository ${formatBytes(shadow.bytes)}, ${shadow.sessions} session${shadow.sessions === 1 ? '' : 's'} with checkpoints`
    : 'no shadow repository yet (the first checkpoint creates .aide/state/shadow.git)';
  return check('workspace', 'ok', `${workspace.root}: ${kind}`, [shadowText]);
}

/** How scratch copies are made on this machine, and why. */
export function chooseScratch(facts: DoctorFacts): ScratchChoice {
  if (!gitOk(facts))
    return {
      mechanism: 'none',
      reason: `a scratch is a git worktree of the shadow, which needs git ${MIN_GIT.replace(/\.0$/, '')} or newer`,
    };
  const overlay = facts.scratch.overlay.available
    ? "an overlay mounts here too, but only inside its own mount namespace, out of reach of aide's process that writes the edits and reads them back: act's verify commands write to a throwaway one over the scratch instead"
    : 'no overlay here';
  return {
    mechanism: 'worktree',
    reason: `checked out once and kept for the workspace, then moved by writing only the files that differ; ${overlay}`,
  };
}

function scratchCheck(facts: DoctorFacts, choice: ScratchChoice): DoctorCheck {
  const { scratch } = facts;
  const overlay = scratch.overlay.available
    ? `overlay: works (${scratch.overlay.detail}); aide act runs verify commands on a throwaway one over the scratch, under the unshare sandbox (sandbox.json keep_verify_writes: true turns that off)`
    : `overlay: unavailable (${scratch.overlay.detail})`;
  const stale = scratch.stale === 0 ? '' : `, ${scratch.stale} stale (removed when the next session starts)`;
  const free =
    scratch.tempFree === null
      ? ''
      : `; ${formatBytes(scratch.tempFree.bytes)} free${scratch.tempFree.tmpfs ? ' in RAM (tmpfs: a scratch copy of a large repository takes memory)' : ''}`;
  const kept =
    scratch.kept === undefined || scratch.kept === null
      ? 'kept scratch: none yet (the next session checks one out and keeps it)'
      : `kept scratch: ${scratch.kept.path}${scratch.kept.inUse ? ' (in use)' : ''}; swept and moved by the next session, removed by \`aide checkpoints prune\``;
  const details = [
    `why: ${choice.reason}`,
    `${scratch.home}: ${scratch.active} in use${stale}${free}`,
    kept,
    overlay,
  ];
  if (choice.mechanism === 'none')
    return check(
      'scratch',
      'fail',
      'no way to make scratch copies: git is missing or too old',
      details,
      `Install git ${MIN_GIT.replace(/\.0$/, '')} or newer.`,
    );
  return check('scratch', 'ok', 'git worktree of the shadow, moved incrementally', details);
}

const WRITABLE: Record<IsolationReport['writable'], string> = {
  scratch: 'only the scratch and their own fresh HOME and temp folder',
  'outside-workspace': 'anywhere but the workspace and its git dirs ($HOME and /tmp included)',
  anywhere: 'anywhere they have permission to',
};

function networkCheck({ isolation, platform }: DoctorFacts): DoctorCheck {
  const { verify, bubblewrap } = isolation;
  const bwrap = bubblewrap.present
    ? `bubblewrap ${bubblewrap.version ?? ''} installed`.replace(/ {2}/, ' ').trim()
    : 'bubblewrap not installed';
  const details = [
    `mechanism: ${verify.mechanism}`,
    `workspace read-only for verify commands: ${verify.workspaceReadOnly ? 'yes (its git dirs and the shadow too)' : 'no'}`,
    `where verify commands can write: ${WRITABLE[verify.writable]}`,
    `UNIX sockets on disk outside the scratch (docker, ssh-agent): ${verify.sockets === 'hidden' ? 'out of sight (private /tmp, /run, /dev/shm and $HOME)' : 'reachable'}`,
    `processes a command leaves behind: ${verify.processTree === 'namespace' ? 'all killed with it (PID namespace)' : 'killed through its process group (a setsid daemon can survive)'}`,
    bwrap,
    ...(verify.detail === null ? [] : [verify.detail]),
  ];
  if (verify.network === 'off')
    return check(
      'network',
      'ok',
      `verify commands run without network access (${verify.mechanism})`,
      details,
    );
  const fix =
    platform === 'linux'
      ? 'Allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 also kernel.apparmor_restrict_unprivileged_userns=0), or run verify in a container without network.'
      : 'Network isolation of verify commands needs Linux namespaces; on this system they run with network access.';
  return check(
    'network',
    'warn',
    'no network isolation here: `aide verify` refuses to run unless allow_network or --no-isolation accepts that',
    details,
    fix,
  );
}

function modelCheck({ model }: DoctorFacts): DoctorCheck {
  // The error may be sandbox.json's: it is the configuration that failed, not the model.
  if ('error' in model)
    return check(
      'config',
      'fail',
      model.error,
      [],
      'Run `aide config` to see every problem with its file and line, and fix them.',
    );
  const { status, summary, details, fix } = modelVerdict(model);
  return check('model', status, summary, details, fix);
}

export function assessDoctor(facts: DoctorFacts): DoctorReport {
  const scratch = chooseScratch(facts);
  const checks = [
    nodeCheck(facts),
    gitCheck(facts),
    workspaceCheck(facts),
    scratchCheck(facts, scratch),
    networkCheck(facts),
    modelCheck(facts),
  ];
  return { ok: checks.every((c) => c.status !== 'fail'), checks, scratch };
}

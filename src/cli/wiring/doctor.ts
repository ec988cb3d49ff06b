/**
 * Gathers what `aide doctor` judges: versions, probes and the workspace's state. Read-only: no
 * lock is taken, no shadow is created, the model server is not contacted.
 */
import { readFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isLoopbackHost } from '../../config/config-schema.js';
import { loadWorkspaceConfig } from '../../config/load-workspace.js';
import type { DoctorFacts } from '../../core/doctor/assess.js';
import { findWorkspaceRoot } from '../../infra/git/workspace-root.js';
import { probeBubblewrap } from '../../infra/process/isolation-probe.js';
import { prepareIsolation } from '../../infra/process/isolation.js';
import { probe } from '../../infra/process/probe.js';
import { detectOverlay } from '../../infra/shadow/scratch/overlay.js';
import { listWorkspaceScratches, scratchHome } from '../../infra/shadow/scratch/registry.js';
import { describeWorkspace } from '../../infra/shadow/shadow-repo.js';
import { ShadowReader } from '../../infra/shadow/shadow-store.js';
import { AideError } from '../../shared/errors.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The OS temp dir as the given environment names it (os.tmpdir() reads the process's own). */
export function tempRoot(env: Env): string {
  const named = env['TMPDIR'];
  return named !== undefined && named !== '' ? named.replace(/(?<=.)\/+$/, '') : tmpdir();
}

/** `engines.node` of aide's package.json. */
function requiredNode(): string | null {
  const raw = readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8');
  const engines = (JSON.parse(raw) as { engines?: { node?: unknown } }).engines;
  return typeof engines?.node === 'string' ? engines.node : null;
}

/** Linux's TMPFS_MAGIC: a temp dir held in memory. */
const TMPFS_MAGIC = 0x01021994;

async function tempFree(path: string): Promise<DoctorFacts['scratch']['tempFree']> {
  try {
    const info = await statfs(path);
    return { bytes: info.bavail * info.bsize, tmpfs: info.type === TMPFS_MAGIC };
  } catch {
    return null;
  }
}

async function gitVersion(env: Env): Promise<string | null> {
  const result = await probe(['git', '--version'], { env });
  return result.ok ? (/git version (\S+)/.exec(result.stdout)?.[1] ?? null) : null;
}

async function workspaceFacts(root: string, env: Env): Promise<DoctorFacts['workspace']> {
  try {
    const workspace = await describeWorkspace(root, env);
    const reader = await ShadowReader.openExisting(root, env);
    const stats = reader === null ? null : await reader.stats();
    const shadow =
      stats === null
        ? { present: false, bytes: 0, sessions: 0 }
        : { present: true, bytes: stats.bytes, sessions: stats.sessions };
    return { root, refused: null, gitRepo: workspace.user !== null, shadow };
  } catch (error) {
    if (error instanceof AideError && error.code === 'workspace_invalid')
      return {
        root,
        refused: error.message,
        gitRepo: false,
        shadow: { present: false, bytes: 0, sessions: 0 },
      };
    throw error;
  }
}

async function modelFacts(root: string, env: Env): Promise<DoctorFacts['model']> {
  try {
    const { model } = (await loadWorkspaceConfig(root, env)).config.value;
    return {
      endpoint: model.endpoint,
      loopback: isLoopbackHost(new URL(model.endpoint).hostname),
      allowRemote: model.allow_remote,
    };
  } catch (error) {
    if (error instanceof AideError && error.code === 'config_invalid') return { error: error.message };
    throw error;
  }
}

export async function gatherDoctorFacts(cwd: string, env: Env): Promise<DoctorFacts> {
  const root = await findWorkspaceRoot(cwd, env);
  const temp = tempRoot(env);
  const home = scratchHome(temp, root);
  const [git, workspace, scratches, free, overlay, verify, bubblewrap, model] = await Promise.all([
    gitVersion(env),
    workspaceFacts(root, env),
    listWorkspaceScratches(temp, root),
    tempFree(temp),
    detectOverlay(temp, env),
    prepareIsolation({ allowNetwork: false, readOnlyPaths: [root], env }).then(
      (isolation) => isolation.report,
    ),
    probeBubblewrap(env),
    modelFacts(root, env),
  ]);
  const active = scratches.filter((s) => s.alive).length;
  return {
    platform: process.platform,
    node: { version: process.version, required: requiredNode() },
    git: { version: git },
    workspace,
    scratch: { home, active, stale: scratches.length - active, tempFree: free, overlay },
    isolation: { verify, bubblewrap },
    model,
  };
}

/**
 * Gathers what `aide doctor` judges: versions, probes and the workspace's state. Read-only: no
 * lock is taken, no shadow is created. The model server is contacted through the model client
 * (loopback, or remote with allow_remote: the client refuses the rest), briefly: one tiny chat.
 */
import { statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { isLoopbackHost } from '../../config/config-schema.js';
import type { ConfigFlags } from '../../config/flag-overrides.js';
import { loadWorkspaceConfig } from '../../config/load-workspace.js';
import type { DoctorFacts } from '../../core/doctor/assess.js';
import type { ModelContact, RoundTrip } from '../../core/doctor/model-check.js';
import type { ModelClient } from '../../core/ports/model.js';
import { findWorkspaceRoot } from '../../infra/git/workspace-root.js';
import { probeBubblewrap } from '../../infra/process/isolation-probe.js';
import { prepareIsolation } from '../../infra/process/isolation.js';
import { probe } from '../../infra/process/probe.js';
import { keptName } from '../../infra/shadow/scratch/kept-scratch.js';
import { detectOverlay } from '../../infra/process/overlay.js';
import { listWorkspaceScratches, scratchHome } from '../../infra/shadow/scratch/registry.js';
import { describeWorkspace, STATE_DIR } from '../../infra/shadow/shadow-repo.js';
import { ShadowReader } from '../../infra/shadow/shadow-store.js';
import { AideError } from '../../shared/errors.js';
import { packageManifest } from '../package-files.js';
import { tempRoot } from './temp-root.js';

type Env = Readonly<Record<string, string | undefined>>;

/** `engines.node` of aide's package.json. */
function requiredNode(): string | null {
  const engines = packageManifest().engines;
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

/** Doctor never hangs on a server: each request, and each silence, gets this long at most. */
export const DOCTOR_MODEL_TIMEOUT_MS = 5000;

/** The least context aide can work in at all (the schema's floor for context_tokens). */
const DOCTOR_NEEDED_CONTEXT = 1024;

type ModelConfig = Awaited<ReturnType<typeof loadWorkspaceConfig>>['config']['value']['model'];

/** A one-token chat: the smallest reply the client allows, its `length` finish included. */
async function roundTrip(client: ModelClient): Promise<RoundTrip> {
  const chat = client.chat({
    messages: [{ role: 'user', content: 'Reply with one word: ok' }],
    promptTokensEstimate: 0,
    maxReplyTokens: 1,
  });
  let next = await chat.next();
  while (next.done !== true) next = await chat.next();
  const outcome = next.value;
  const reply = outcome.ok
    ? outcome.value
    : outcome.failure.kind === 'incomplete'
      ? outcome.failure.reply
      : null;
  if (reply === null) return { ok: false, failure: outcome.ok ? { kind: 'cancelled' } : outcome.failure };
  return {
    ok: true,
    latencyMs: reply.timings.totalMs,
    evalTokens: reply.evalTokens,
    tokensPerSecond: reply.tokensPerSecond,
  };
}

/** What the configured server (or replay script) says; infra/model is loaded only here. */
async function contactModel(model: ModelConfig, root: string, env: Env): Promise<ModelContact> {
  const { createModelClient } = await import('../../infra/model/create.js');
  const { ReplayModelClient } = await import('../../infra/model/replay.js');
  const created = createModelClient(
    { ...model, timeout_ms: Math.min(model.timeout_ms, DOCTOR_MODEL_TIMEOUT_MS) },
    { cwd: root, env, idleTimeoutMs: DOCTOR_MODEL_TIMEOUT_MS, retry: { attempts: 1, baseDelayMs: 0 } },
  );
  if (!created.ok) return { state: 'failed', model: model.name, failure: created.failure };
  const client = created.value;
  if (client instanceof ReplayModelClient) {
    const replies = await client.replies();
    const file = model.name.replace(/^replay:/, '');
    return replies.ok
      ? { state: 'replay', file, replies: replies.value }
      : { state: 'failed', model: model.name, failure: replies.failure };
  }
  const info = await client.prepare({ neededContextTokens: DOCTOR_NEEDED_CONTEXT });
  if (!info.ok) return { state: 'failed', model: model.name, failure: info.failure };
  return { state: 'ready', info: info.value, roundTrip: await roundTrip(client) };
}

async function modelFacts(root: string, env: Env, flags: ConfigFlags): Promise<DoctorFacts['model']> {
  try {
    const { model } = (await loadWorkspaceConfig(root, env, flags)).config.value;
    return {
      endpoint: model.endpoint,
      loopback: isLoopbackHost(new URL(model.endpoint).hostname),
      allowRemote: model.allow_remote,
      contact: await contactModel(model, root, env),
    };
  } catch (error) {
    if (error instanceof AideError && error.code === 'config_invalid') return { error: error.message };
    throw error;
  }
}

/** `flags`: `--model` and `--endpoint`, which override the config and the AIDE_* variables. */
export async function gatherDoctorFacts(
  cwd: string,
  env: Env,
  flags: ConfigFlags = {},
): Promise<DoctorFacts> {
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
    modelFacts(root, env, flags),
  ]);
  const active = scratches.filter((s) => s.alive).length;
  const keptAs = await keptName(join(root, STATE_DIR, 'shadow.git'));
  const kept = scratches.find((s) => s.session === keptAs);
  return {
    platform: process.platform,
    node: { version: process.version, required: requiredNode() },
    git: { version: git },
    workspace,
    scratch: {
      home,
      active,
      // The kept scratch is idle between sessions, not stale.
      stale: scratches.length - active - (kept !== undefined && !kept.alive ? 1 : 0),
      kept: kept === undefined ? null : { path: kept.path, inUse: kept.alive },
      tempFree: free,
      overlay,
    },
    isolation: { verify, bubblewrap },
    model,
  };
}

/**
 * The `model` check of `aide review`, wired. It runs only when a model is configured (model.name
 * or model.endpoint set by .aide/config.json, AIDE_MODEL/AIDE_MODEL_ENDPOINT or --model/--endpoint:
 * the default endpoint nobody chose is not a request for a review) and the server answers a probe
 * within a short deadline; otherwise it is Skipped with the reason, so a server that is down
 * never blocks a commit nor slows the hook. The probe starts before the change is read and
 * runs while the other checks do. A remote endpoint never gets this far: the config schema
 * refuses it without allow_remote, as for `aide plan`.
 */
import type { AideConfig } from '../../config/config-schema.js';
import type { LoadedFile } from '../../config/load.js';
import type { ModelFailure, ModelOutcome } from '../../core/ports/model.js';
import type { FilePatch } from '../../core/ports/review.js';
import type { CheckResult } from '../../core/review/checks.js';
import { runModelCheck } from '../../core/review/model-check.js';
import { createModelClient } from '../../infra/model/create.js';
import { probeModelServer } from '../../infra/model/probe.js';
import { modelFailureError } from '../render/model-failure.js';
import { randomFence } from './plan.js';

type Env = Readonly<Record<string, string | undefined>>;

/** How long the server has to answer the probe: a refused connection is at once, a hung server this. */
export const REVIEW_PROBE_MS = 2000;
/**
 * A reply silent this long fails the check (Skipped): long enough for a local server to load a
 * model from disk, far shorter than the 5 minutes `aide plan` waits (a commit is waiting).
 */
const REVIEW_IDLE_MS = 120_000;

/** The model check before it runs: off (with the reason), or the probe under way. */
export type ModelProbe =
  | { state: 'off'; reason: string }
  | {
      state: 'probing';
      model: AideConfig['model'];
      reachable: Promise<ModelOutcome<null>>;
      /** Stops the probe (the review ended early). */
      stop: () => void;
    };

/** Whether anything but the schema's defaults names the model or its server. */
export function modelConfigured(config: LoadedFile<AideConfig>): boolean {
  return config.entries.some(
    (e) => (e.path === 'model.name' || e.path === 'model.endpoint') && e.source.kind !== 'default',
  );
}

/** Starts the probe when a model is configured; `signal` is Ctrl-C. */
export function startModelProbe(config: LoadedFile<AideConfig>, env: Env, signal: AbortSignal): ModelProbe {
  if (!modelConfigured(config)) return { state: 'off', reason: 'no model configured' };
  const local = new AbortController();
  const model = config.value.model;
  return {
    state: 'probing',
    model,
    reachable: probeModelServer(model, env, REVIEW_PROBE_MS, AbortSignal.any([signal, local.signal])),
    stop: () => {
      local.abort();
    },
  };
}

/** A failure as the Skipped line's reason: the message `aide plan` would print, one line. */
function reasonOf(failure: ModelFailure, model: AideConfig['model'], probing: boolean): string {
  if (probing && failure.kind === 'timeout')
    return `${model.endpoint} did not answer within ${REVIEW_PROBE_MS / 1000} s`;
  return modelFailureError(failure, { endpoint: model.endpoint, model: model.name }).message;
}

export interface ModelCheckContext {
  root: string;
  env: Env;
  config: AideConfig;
  /** The change's patch, read with the change; null when it was not read. */
  patches: readonly FilePatch[] | null;
  signal: AbortSignal;
}

/** The model check's result; null when Ctrl-C stopped it (the caller exits 130). */
export async function modelCheck(probe: ModelProbe, context: ModelCheckContext): Promise<CheckResult | null> {
  const skipped = (reason: string): CheckResult => ({
    name: 'model',
    status: 'skipped',
    reason,
    findings: [],
  });
  if (probe.state === 'off') return skipped(probe.reason);
  const reachable = await probe.reachable;
  if (context.signal.aborted) return null;
  if (!reachable.ok) return skipped(reasonOf(reachable.failure, probe.model, true));
  const client = createModelClient(probe.model, {
    cwd: context.root,
    env: context.env,
    idleTimeoutMs: REVIEW_IDLE_MS,
  });
  if (!client.ok) return skipped(reasonOf(client.failure, probe.model, false));
  const outcome = await runModelCheck(client.value, {
    patches: context.patches ?? [],
    contextTokens: probe.model.context_tokens,
    ...(context.config.limits.context_budget_tokens === undefined
      ? {}
      : { contextBudgetTokens: context.config.limits.context_budget_tokens }),
    blocksOn: context.config.review.model_blocks_on,
    model: probe.model.name,
    fence: randomFence(),
    signal: context.signal,
  });
  if (outcome.ok) return outcome.result;
  if (outcome.failure.kind === 'cancelled' || context.signal.aborted) return null;
  return skipped(reasonOf(outcome.failure, probe.model, false));
}

/**
 * The model client for a config's `model` section: the replay model for `replay:FILE`, else an
 * HTTP adapter for the configured (or, with `provider: auto`, detected) server. A remote
 * endpoint without `allow_remote` gets no client at all.
 */
import { resolve } from 'node:path';
import type { AideConfig } from '../../config/config-schema.js';
import type {
  ModelClient,
  ModelEvent,
  ModelInfo,
  ModelOutcome,
  ModelReply,
  ModelRequest,
  PrepareOptions,
} from '../../core/ports/model.js';
import { detectServer, type HttpServerKind } from './detect.js';
import { DEFAULT_RETRY, RequestTimer, refuseRemote, type RetryPolicy } from './http.js';
import { OllamaClient } from './ollama.js';
import { OpenAiCompatibleClient } from './openai.js';
import { ReplayModelClient, REPLAY_PREFIX } from './replay.js';
import type { ClientSettings } from './settings.js';

/** A stream silent this long fails, even when the total timeout is further off (a hung server). */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

/** What the client needs from outside the config. */
export interface ModelClientDeps {
  /** Folder a relative replay file is resolved against. */
  cwd: string;
  /** Read for `api_key_env`. */
  env: Readonly<Record<string, string | undefined>>;
  idleTimeoutMs?: number;
  retry?: RetryPolicy;
}

export function createModelClient(
  model: AideConfig['model'],
  deps: ModelClientDeps,
): ModelOutcome<ModelClient> {
  if (model.name.startsWith(REPLAY_PREFIX)) {
    return {
      ok: true,
      value: new ReplayModelClient(resolve(deps.cwd, model.name.slice(REPLAY_PREFIX.length))),
    };
  }
  const refused = refuseRemote(model.endpoint, model.allow_remote);
  if (refused !== null) return { ok: false, failure: refused };
  const apiKey = model.api_key_env === undefined ? undefined : deps.env[model.api_key_env];
  const settings: ClientSettings = {
    endpoint: model.endpoint,
    model: model.name,
    contextTokens: model.context_tokens,
    temperature: model.temperature,
    keepAlive: model.keep_alive,
    grammar: model.grammar,
    ...(apiKey === undefined ? {} : { apiKey }),
    timeouts: { totalMs: model.timeout_ms, idleMs: deps.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS },
    retry: deps.retry ?? DEFAULT_RETRY,
  };
  switch (model.provider) {
    case 'ollama':
      return { ok: true, value: new OllamaClient(settings) };
    case 'openai-compatible':
      return { ok: true, value: new DetectingClient(settings, 'openai') };
    case 'auto':
      return { ok: true, value: new DetectingClient(settings, 'any') };
  }
}

/** An HTTP adapter for the detected kind of server. */
export function clientFor(kind: HttpServerKind, settings: ClientSettings): ModelClient {
  return kind === 'ollama' ? new OllamaClient(settings) : new OpenAiCompatibleClient(settings, kind);
}

/**
 * Detects the server on first use, then hands every call to its adapter. With
 * `provider: openai-compatible` an Ollama answer still goes through /v1 (the user chose it).
 */
class DetectingClient implements ModelClient {
  private inner: ModelClient | null = null;

  constructor(
    private readonly settings: ClientSettings,
    private readonly accept: 'any' | 'openai',
  ) {}

  async prepare(options: PrepareOptions): Promise<ModelOutcome<ModelInfo>> {
    const inner = await this.resolve(options.signal);
    if (!inner.ok) return inner;
    return inner.value.prepare(options);
  }

  async *chat(request: ModelRequest): AsyncGenerator<ModelEvent, ModelOutcome<ModelReply>, void> {
    const inner = await this.resolve(request.signal);
    if (!inner.ok) return inner;
    return yield* inner.value.chat(request);
  }

  private async resolve(signal: AbortSignal | undefined): Promise<ModelOutcome<ModelClient>> {
    if (this.inner !== null) return { ok: true, value: this.inner };
    const timer = new RequestTimer(this.settings.timeouts, signal);
    try {
      const kind = await detectServer(this.settings, timer);
      if (!kind.ok) return kind;
      const chosen = this.accept === 'openai' && kind.value === 'ollama' ? 'openai-compatible' : kind.value;
      this.inner = clientFor(chosen, this.settings);
      return { ok: true, value: this.inner };
    } finally {
      timer.dispose();
    }
  }
}

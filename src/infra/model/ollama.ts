/**
 * Ollama through its native API (docs/api.md). Not /v1: there the context size cannot be set and
 * temperature and top_p are forced to 1.0. Every request carries the same `options.num_ctx` (a
 * num_ctx that changes between requests reloads the model) and `truncate: false, shift: false`
 * (Ollama ≥ 0.12.6), so a prompt too large fails with a 400 instead of losing its oldest messages
 * or its middle, which Ollama logs only at debug level.
 */
import type {
  ModelClient,
  ModelEvent,
  ModelFailure,
  ModelInfo,
  ModelOutcome,
  ModelReply,
  ModelRequest,
  PrepareOptions,
} from '../../core/ports/model.js';
import { contextKnob, errorMessage, overflowFailure, rate, settleReply } from './classify.js';
import { field, getJson, num, parseJson, RequestTimer, sendWithRetry, type Refusal } from './http.js';
import { headers, serverRoot, type ClientSettings } from './settings.js';
import { readLines } from './stream.js';

const NS_PER_MS = 1_000_000;

export class OllamaClient implements ModelClient {
  private readonly root: string;

  constructor(private readonly settings: ClientSettings) {
    this.root = serverRoot(settings.endpoint);
  }

  async prepare(options: PrepareOptions): Promise<ModelOutcome<ModelInfo>> {
    const timer = new RequestTimer(this.settings.timeouts, options.signal);
    try {
      // An empty message list loads the model with these options and answers done_reason "load".
      const load = sendWithRetry({
        url: `${this.root}/api/chat`,
        init: { method: 'POST', headers: headers(this.settings), body: JSON.stringify(this.body([], false)) },
        timer,
        retry: this.settings.retry,
        endpoint: this.settings.endpoint,
        refusal: (status, body) => this.refusal(status, body, timer),
      });
      let sent = await load.next();
      while (sent.done !== true) sent = await load.next();
      if (!sent.value.ok) return sent.value;
      await sent.value.response.text();
      const ps = await getJson(`${this.root}/api/ps`, { timer, endpoint: this.settings.endpoint });
      if (!ps.ok) return ps;
      const loaded = loadedContext(ps.body, this.settings.model);
      const contextTokens = loaded ?? this.settings.contextTokens;
      const info: ModelInfo = {
        server: 'ollama',
        model: this.settings.model,
        contextTokens,
        contextSource:
          loaded === null
            ? 'num_ctx sent (this Ollama has no /api/ps context_length)'
            : '/api/ps context_length',
      };
      if (contextTokens < options.neededContextTokens) {
        const failure: ModelFailure = {
          kind: 'context_too_small',
          server: 'ollama',
          available: contextTokens,
          needed: options.neededContextTokens,
          knob: contextKnob('ollama'),
        };
        return { ok: false, failure };
      }
      return { ok: true, value: info };
    } finally {
      timer.dispose();
    }
  }

  async *chat(request: ModelRequest): AsyncGenerator<ModelEvent, ModelOutcome<ModelReply>, void> {
    const timer = new RequestTimer(this.settings.timeouts, request.signal);
    const started = Date.now();
    try {
      const sent = yield* sendWithRetry({
        url: `${this.root}/api/chat`,
        init: {
          method: 'POST',
          headers: headers(this.settings),
          body: JSON.stringify(this.body(request.messages, true, request.maxReplyTokens)),
        },
        timer,
        retry: this.settings.retry,
        endpoint: this.settings.endpoint,
        refusal: (status, body) => this.refusal(status, body, timer),
      });
      if (!sent.ok) return sent;
      let text = '';
      let firstTokenMs: number | null = null;
      for await (const item of readLines(sent.response, timer)) {
        if ('failure' in item) return { ok: false, failure: item.failure };
        const chunk = parseJson(item.line);
        const error = field(chunk, 'error');
        // A failure after the 200 arrives as one more NDJSON line: {"error": "..."}.
        if (error !== undefined) return { ok: false, failure: this.streamFailure(item.line) };
        const piece = field(field(chunk, 'message'), 'content');
        if (typeof piece === 'string' && piece !== '') {
          firstTokenMs ??= Date.now() - started;
          text += piece;
          yield { type: 'token', text: piece };
        }
        if (field(chunk, 'done') === true) {
          const reply = finalReply(chunk, text, Date.now() - started, firstTokenMs);
          return settleReply(reply, request.promptTokensEstimate);
        }
      }
      const failure = timer.failure ?? {
        kind: 'server_error',
        status: null,
        detail: 'the stream ended without its final "done" line',
      };
      return { ok: false, failure };
    } finally {
      timer.dispose();
    }
  }

  private body(messages: ModelRequest['messages'], stream: boolean, maxReplyTokens?: number): object {
    return {
      model: this.settings.model,
      messages,
      stream,
      keep_alive: keepAlive(this.settings.keepAlive),
      truncate: false,
      shift: false,
      options: {
        num_ctx: this.settings.contextTokens,
        temperature: this.settings.temperature,
        ...(maxReplyTokens === undefined ? {} : { num_predict: maxReplyTokens }),
      },
    };
  }

  private async refusal(status: number, body: string, timer: RequestTimer): Promise<Refusal> {
    const message = errorMessage(body);
    if (status === 404 && /not found/i.test(message)) {
      return {
        failure: { kind: 'unknown_model', model: this.settings.model, available: await this.models(timer) },
      };
    }
    if (status === 503 || /loading model/i.test(message)) return { retry: `HTTP ${status}: ${message}` };
    return { failure: overflowFailure('ollama', body) ?? { kind: 'server_error', status, detail: message } };
  }

  private streamFailure(line: string): ModelFailure {
    return (
      overflowFailure('ollama', line) ?? { kind: 'server_error', status: 200, detail: errorMessage(line) }
    );
  }

  /** The models the server has (`/api/tags`), for `unknown_model`; empty if it will not say. */
  private async models(timer: RequestTimer): Promise<string[]> {
    const tags = await getJson(`${this.root}/api/tags`, { timer, endpoint: this.settings.endpoint });
    if (!tags.ok) return [];
    const models = field(tags.body, 'models');
    if (!Array.isArray(models)) return [];
    return models.map((m) => field(m, 'name')).filter((n): n is string => typeof n === 'string');
  }
}

/** Go's time.ParseDuration needs a unit, so the bare "0" and "-1" go as numbers (seconds). */
function keepAlive(value: string): string | number {
  return /^-?\d+$/.test(value) ? Number(value) : value;
}

/** `/api/ps` `context_length` of the model, under its name or its name with the implied ":latest". */
export function loadedContext(ps: unknown, model: string): number | null {
  const models = field(ps, 'models');
  if (!Array.isArray(models)) return null;
  const names = model.includes(':') ? [model] : [model, `${model}:latest`];
  const entry: unknown = (models as unknown[]).find(
    (m) => names.includes(String(field(m, 'name'))) || names.includes(String(field(m, 'model'))),
  );
  return num(field(entry, 'context_length'));
}

/** The last NDJSON line: counts, and durations in nanoseconds. */
function finalReply(chunk: unknown, text: string, totalMs: number, firstTokenMs: number | null): ModelReply {
  const reason = field(chunk, 'done_reason');
  const promptNs = num(field(chunk, 'prompt_eval_duration'));
  const evalNs = num(field(chunk, 'eval_duration'));
  const evalTokens = num(field(chunk, 'eval_count'));
  const evalMs = evalNs === null ? null : evalNs / NS_PER_MS;
  return {
    text,
    finishReason:
      reason === 'length' ? 'length' : reason === 'stop' || reason === undefined ? 'stop' : 'other',
    promptTokens: num(field(chunk, 'prompt_eval_count')),
    cachedPromptTokens: num(field(chunk, 'prompt_eval_cached_count')),
    evalTokens,
    timings: { totalMs, firstTokenMs, promptMs: promptNs === null ? null : promptNs / NS_PER_MS, evalMs },
    tokensPerSecond: rate(evalTokens, evalMs ?? totalMs),
  };
}

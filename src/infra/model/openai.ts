/**
 * OpenAI-compatible servers (llama-server, LM Studio, vLLM and the rest) through
 * `/v1/chat/completions` with SSE streaming. What differs per server is where the real context
 * is read (context.ts), how an overflow is worded (classify.ts) and whether a grammar goes with
 * a request (grammarField).
 */
import type {
  ModelClient,
  ModelEvent,
  ModelInfo,
  ModelOutcome,
  ModelReply,
  ModelRequest,
  ModelServerKind,
  PrepareOptions,
} from '../../core/ports/model.js';
import { contextKnob, errorMessage, overflowFailure, rate, settleReply } from './classify.js';
import { readContext } from './context.js';
import { field, getJson, num, parseJson, RequestTimer, sendWithRetry, type Refusal } from './http.js';
import { headers, serverRoot, type ClientSettings } from './settings.js';
import { readEvents } from './stream.js';

export class OpenAiCompatibleClient implements ModelClient {
  private readonly root: string;

  constructor(
    private readonly settings: ClientSettings,
    private readonly server: Exclude<ModelServerKind, 'ollama' | 'replay'>,
  ) {
    this.root = serverRoot(settings.endpoint);
  }

  async prepare(options: PrepareOptions): Promise<ModelOutcome<ModelInfo>> {
    const timer = new RequestTimer(this.settings.timeouts, options.signal);
    try {
      const listed = await getJson(`${this.root}/v1/models`, {
        headers: headers(this.settings),
        timer,
        endpoint: this.settings.endpoint,
      });
      if (!listed.ok) return listed;
      const available = modelIds(listed.body);
      // llama-server serves the one model it was started with, whatever the request names.
      if (
        this.server !== 'llama-server' &&
        available.length > 0 &&
        !available.includes(this.settings.model)
      ) {
        return { ok: false, failure: { kind: 'unknown_model', model: this.settings.model, available } };
      }
      const context = await readContext(this.server, {
        root: this.root,
        settings: this.settings,
        timer,
        models: listed.body,
        warmUp: () => this.warmUp(timer),
      });
      if (!context.ok) return context;
      const { tokens, source } = context.value;
      const info: ModelInfo = {
        server: this.server,
        model: this.settings.model,
        contextTokens: tokens,
        contextSource: source,
        ...(this.grammarField() === null ? {} : { acceptsGrammar: true }),
      };
      if (tokens !== null && tokens < options.neededContextTokens) {
        const failure = {
          kind: 'context_too_small',
          server: this.server,
          available: tokens,
          needed: options.neededContextTokens,
          knob: contextKnob(this.server),
        } as const;
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
      const sent = yield* this.send(timer, request.messages, request.maxReplyTokens, true, request.grammar);
      if (!sent.ok) return sent;
      const reply = new ReplyBuilder(started);
      for await (const item of readEvents(sent.response, timer)) {
        if ('failure' in item) return { ok: false, failure: item.failure };
        if (item.data === '[DONE]') break;
        const chunk = parseJson(item.data);
        if (field(chunk, 'error') !== undefined) {
          const failure = overflowFailure(this.server, item.data) ?? {
            kind: 'server_error',
            status: 200,
            detail: errorMessage(item.data),
          };
          return { ok: false, failure };
        }
        const piece = reply.add(chunk);
        if (piece !== '') yield { type: 'token', text: piece };
      }
      if (timer.failure !== null) return { ok: false, failure: timer.failure };
      if (!reply.finished) {
        return {
          ok: false,
          failure: { kind: 'server_error', status: null, detail: 'the stream ended without a finish_reason' },
        };
      }
      return settleReply(reply.build(), request.promptTokensEstimate);
    } finally {
      timer.dispose();
    }
  }

  /** A one-token request: LM Studio loads a model just in time, on its first request. */
  private async warmUp(timer: RequestTimer): Promise<ModelOutcome<null>> {
    const sending = this.send(timer, [{ role: 'user', content: 'Hi' }], 1, false);
    let sent = await sending.next();
    while (sent.done !== true) sent = await sending.next();
    if (!sent.value.ok) return sent.value;
    await sent.value.response.text();
    return { ok: true, value: null };
  }

  private send(
    timer: RequestTimer,
    messages: ModelRequest['messages'],
    maxTokens: number | undefined,
    stream: boolean,
    grammar?: string,
  ) {
    const withGrammar = this.grammarField();
    const body = {
      model: this.settings.model,
      messages,
      stream,
      temperature: this.settings.temperature,
      ...(stream ? { stream_options: { include_usage: true } } : {}),
      ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }),
      ...(grammar === undefined || withGrammar === null ? {} : withGrammar(grammar)),
    };
    return sendWithRetry({
      url: `${this.root}/v1/chat/completions`,
      init: { method: 'POST', headers: headers(this.settings), body: JSON.stringify(body) },
      timer,
      retry: this.settings.retry,
      endpoint: this.settings.endpoint,
      refusal: (status, text) => this.refusal(status, text, timer),
    });
  }

  /**
   * How this server takes a GBNF grammar in the chat body, or null where it takes none or
   * `model.grammar` is off. llama-server reads a top-level `grammar`; vLLM reads
   * `structured_outputs.grammar` (its `guided_grammar` was removed in v0.12.0). LM Studio and
   * generic servers get none: an unknown field is ignored at best and refused at worst.
   *
   * A request's grammar is dropped, not refused, where there is none: it only narrows what the
   * model may write, and the reply is parsed and checked all the same. The loop asks again under
   * a grammar only where `prepare` said `acceptsGrammar`.
   */
  private grammarField(): ((grammar: string) => Record<string, unknown>) | null {
    if (this.settings.grammar === 'off') return null;
    switch (this.server) {
      case 'llama-server':
        return (grammar) => ({ grammar });
      case 'vllm':
        return (grammar) => ({ structured_outputs: { grammar } });
      default:
        return null;
    }
  }

  private async refusal(status: number, body: string, timer: RequestTimer): Promise<Refusal> {
    const message = errorMessage(body);
    // llama-server answers 503 {"error": {"message": "Loading model"}} until the model is up.
    if (status === 503 || /loading model/i.test(message)) return { retry: `HTTP ${status}: ${message}` };
    const overflow = overflowFailure(this.server, body);
    if (overflow !== null) return { failure: overflow };
    if (status === 404 && /model/i.test(message)) {
      const listed = await getJson(`${this.root}/v1/models`, {
        headers: headers(this.settings),
        timer,
        endpoint: this.settings.endpoint,
      });
      const available = listed.ok ? modelIds(listed.body) : [];
      return { failure: { kind: 'unknown_model', model: this.settings.model, available } };
    }
    return { failure: { kind: 'server_error', status, detail: message } };
  }
}

/** `data[].id` of a /v1/models answer. */
export function modelIds(body: unknown): string[] {
  const data = field(body, 'data');
  if (!Array.isArray(data)) return [];
  return data.map((m) => field(m, 'id')).filter((id): id is string => typeof id === 'string');
}

/** Gathers a streamed completion: text, finish reason, `usage` and llama-server's `timings`. */
class ReplyBuilder {
  private text = '';
  private firstTokenMs: number | null = null;
  private finishReason: string | null = null;
  private usage: unknown;
  private timings: unknown;

  constructor(private readonly started: number) {}

  get finished(): boolean {
    return this.finishReason !== null;
  }

  /** Takes one chunk; answers its text. */
  add(chunk: unknown): string {
    const usage = field(chunk, 'usage');
    if (usage !== undefined && usage !== null) this.usage = usage;
    const timings = field(chunk, 'timings');
    if (timings !== undefined) this.timings = timings;
    const choices = field(chunk, 'choices');
    const choice: unknown = Array.isArray(choices) ? choices[0] : undefined;
    const reason = field(choice, 'finish_reason');
    if (typeof reason === 'string') this.finishReason = reason;
    const piece = field(field(choice, 'delta'), 'content');
    if (typeof piece !== 'string' || piece === '') return '';
    this.firstTokenMs ??= Date.now() - this.started;
    this.text += piece;
    return piece;
  }

  build(): ModelReply {
    const totalMs = Date.now() - this.started;
    const evalTokens = num(field(this.usage, 'completion_tokens')) ?? num(field(this.timings, 'predicted_n'));
    const evalMs = num(field(this.timings, 'predicted_ms'));
    const reason = this.finishReason;
    return {
      text: this.text,
      finishReason: reason === 'length' ? 'length' : reason === 'stop' ? 'stop' : 'other',
      promptTokens: num(field(this.usage, 'prompt_tokens')),
      cachedPromptTokens:
        num(field(field(this.usage, 'prompt_tokens_details'), 'cached_tokens')) ??
        num(field(this.timings, 'cache_n')),
      evalTokens,
      timings: {
        totalMs,
        firstTokenMs: this.firstTokenMs,
        promptMs: num(field(this.timings, 'prompt_ms')),
        evalMs,
      },
      tokensPerSecond: rate(evalTokens, evalMs ?? totalMs),
    };
  }
}

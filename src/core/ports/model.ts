/**
 * The model: messages in, a streamed reply out. Local servers fail quietly (a prompt cut to fit,
 * a reply stopped at the token limit, a model still loading), so every way a request can go wrong
 * is a typed failure here, as data; the CLI words them. Nothing in this port throws for an
 * expected failure: `prepare` and `chat` end with an outcome.
 */

/** The kinds of server aide tells apart; each has its own context probe and overflow wording. */
export type ModelServerKind =
  'ollama' | 'llama-server' | 'lm-studio' | 'vllm' | 'openai-compatible' | 'replay';

/** One message of the conversation, in order. */
export interface ModelMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** What the client found out before the first prompt. */
export interface ModelInfo {
  server: ModelServerKind;
  /** The model name as sent to the server. */
  model: string;
  /**
   * The context the server actually gives one request, in tokens (Ollama's loaded
   * `context_length`, llama-server's per-slot `n_ctx`, LM Studio's `loaded_context_length`, vLLM's
   * `max_model_len`); null when the server does not say (a generic OpenAI-compatible server).
   */
  contextTokens: number | null;
  /** Where `contextTokens` came from, for doctor and messages, e.g. "/api/ps context_length". */
  contextSource: string | null;
  /** The server takes a GBNF grammar with a request (llama-server, vLLM); absent: it does not. */
  acceptsGrammar?: boolean;
}

/** What one chat request sends. */
export interface ModelRequest {
  messages: readonly ModelMessage[];
  /**
   * aide's own estimate of the prompt's size in tokens. The server's count is compared with it
   * after the reply: a large shortfall means the server cut the prompt (`truncated_prompt`).
   */
  promptTokensEstimate: number;
  /** Most tokens the reply may have; the server's default when absent. */
  maxReplyTokens?: number;
  /** Aborting cancels the request at once, mid-stream included: the outcome is `cancelled`. */
  signal?: AbortSignal;
  /** A GBNF grammar the reply must follow; only sent where `ModelInfo.acceptsGrammar`. */
  grammar?: string;
}

/** Streamed while a reply is produced, in order. */
export type ModelEvent =
  /** A piece of the reply's text, as the server sent it. */
  | { type: 'token'; text: string }
  /** A transient failure before any token (connection reset, 503, "loading model"); the request is sent again after `delayMs`. */
  | { type: 'retrying'; attempt: number; delayMs: number; reason: string };

/** Why the server stopped: `stop` (the model ended), `length` (the token limit), `other` (anything else it reported). */
export type ModelFinishReason = 'stop' | 'length' | 'other';

/** How long the reply took; null where the server does not report it. */
export interface ModelTimings {
  /** Wall clock from sending the request to the last byte, measured by aide. */
  totalMs: number;
  /** Wall clock from sending the request to the first token, measured by aide; null when there was none. */
  firstTokenMs: number | null;
  /** The server's time for reading the prompt (Ollama `prompt_eval_duration`, llama-server `timings.prompt_ms`). */
  promptMs: number | null;
  /** The server's time for generating the reply (Ollama `eval_duration`, llama-server `timings.predicted_ms`). */
  evalMs: number | null;
}

/** A whole reply. */
export interface ModelReply {
  text: string;
  finishReason: ModelFinishReason;
  /** The prompt's size as the server counted it (`prompt_eval_count`, `usage.prompt_tokens`); null if not reported. */
  promptTokens: number | null;
  /**
   * Prompt tokens the server says it took from its cache (`prompt_eval_cached_count`,
   * `usage.prompt_tokens_details.cached_tokens`, llama-server `timings.cache_n`); null if not reported.
   */
  cachedPromptTokens: number | null;
  /** Tokens generated (`eval_count`, `usage.completion_tokens`); null if not reported. */
  evalTokens: number | null;
  timings: ModelTimings;
  /** Generated tokens per second of generation (server timings when given, else aide's wall clock); null without a count. */
  tokensPerSecond: number | null;
}

/**
 * Every expected way a request fails. `detail` fields carry the server's own words, for the
 * user; the rest is data the caller decides on.
 */
export type ModelFailure =
  /** Nothing listens at the endpoint (connection refused, unknown host). */
  | { kind: 'no_server'; endpoint: string; detail: string }
  /** The server does not have the model; `available` lists what it has (empty when it would not say). */
  | { kind: 'unknown_model'; model: string; available: readonly string[] }
  /** The model was still loading after every retry. */
  | { kind: 'loading'; endpoint: string; detail: string }
  /** The server's context cannot hold what aide needs; `knob` names the setting that raises it on that server. */
  | { kind: 'context_too_small'; server: ModelServerKind; available: number; needed: number; knob: string }
  /** The server counted far fewer prompt tokens than aide sent: it cut the prompt silently. */
  | { kind: 'truncated_prompt'; reported: number; estimated: number }
  /** The server refused the prompt as larger than its context; numbers where it gave them. */
  | {
      kind: 'overflow';
      server: ModelServerKind;
      contextTokens: number | null;
      promptTokens: number | null;
      detail: string;
    }
  /** The reply stopped at the token limit (`length`): it is incomplete and none of it may be applied. */
  | { kind: 'incomplete'; reply: ModelReply }
  /** The endpoint is not on this machine and `allow_remote` is false. */
  | { kind: 'remote_refused'; endpoint: string; host: string }
  /** No byte for `ms` (`idle`), or the whole reply took longer than `ms` (`total`). */
  | { kind: 'timeout'; which: 'idle' | 'total'; ms: number }
  /** The request's AbortSignal fired. */
  | { kind: 'cancelled' }
  /** Any other refusal or malformed answer from the server; `status` is the HTTP status when there was one. */
  | { kind: 'server_error'; status: number | null; detail: string }
  /** The replay script has no reply left for this request (`used` replies were given). */
  | { kind: 'replay_exhausted'; file: string; used: number }
  /** A replay script line is not valid JSON of the expected shape, or its expected request did not match. */
  | { kind: 'replay_invalid'; file: string; line: number; detail: string };

/** The end of `prepare` or `chat`: a value, or why there is none. */
export type ModelOutcome<T> = { ok: true; value: T } | { ok: false; failure: ModelFailure };

/** What `prepare` needs to check the context before the first prompt. */
export interface PrepareOptions {
  /** Tokens the session needs at least (system prompt + repository map + reply reserve); `context_too_small` below it. */
  neededContextTokens: number;
  signal?: AbortSignal;
}

/** One session with one model on one server. */
export interface ModelClient {
  /**
   * Identifies the server, checks that it has the model, loads it with the session's settings and
   * reads the context it really has. Call once before the first `chat`.
   */
  prepare(options: PrepareOptions): Promise<ModelOutcome<ModelInfo>>;
  /** Sends the conversation; yields the reply as it streams and returns the whole of it, or the failure. */
  chat(request: ModelRequest): AsyncGenerator<ModelEvent, ModelOutcome<ModelReply>, void>;
}

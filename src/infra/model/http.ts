/**
 * HTTP plumbing shared by the model adapters: the loopback rule, one timer per request (idle and
 * total timeouts, the caller's AbortSignal), connection failures told apart, and bounded retries
 * for what a local server does while it starts (connection reset, 503, "loading model").
 */
import { isLoopbackHost } from '../../config/config-schema.js';
import type { ModelEvent, ModelFailure } from '../../core/ports/model.js';

/** How long a request may take; see RequestTimer. */
export interface Timeouts {
  /** The whole request, first byte to last. */
  totalMs: number;
  /** Silence: no byte (headers or body) for this long. */
  idleMs: number;
}

/** Bounded retries with exponential backoff: `attempts` in all, waits of baseDelayMs, 2×, 4×… */
export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 500 };

/** `remote_refused` unless the endpoint is on this machine or the user consented. */
export function refuseRemote(endpoint: string, allowRemote: boolean): ModelFailure | null {
  if (allowRemote) return null;
  const host = new URL(endpoint).hostname;
  return isLoopbackHost(host) ? null : { kind: 'remote_refused', endpoint, host };
}

/**
 * One AbortController for one request, aborted by the caller's signal, by silence longer than
 * `idleMs` (reset by `touch`) or by the total deadline; `failure` says which fired.
 */
export class RequestTimer {
  readonly controller = new AbortController();
  private fired: ModelFailure | null = null;
  private idle: NodeJS.Timeout | undefined;
  private readonly total: NodeJS.Timeout;
  private readonly onAbort = () => {
    this.stop({ kind: 'cancelled' });
  };

  constructor(
    private readonly timeouts: Timeouts,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.total = setTimeout(() => {
      this.stop({ kind: 'timeout', which: 'total', ms: timeouts.totalMs });
    }, timeouts.totalMs);
    if (signal?.aborted === true) this.stop({ kind: 'cancelled' });
    signal?.addEventListener('abort', this.onAbort, { once: true });
    this.touch();
  }

  /** Something arrived: the idle clock starts again. */
  touch(): void {
    clearTimeout(this.idle);
    if (this.fired !== null) return;
    const ms = Math.min(this.timeouts.idleMs, this.timeouts.totalMs);
    this.idle = setTimeout(() => {
      this.stop({ kind: 'timeout', which: 'idle', ms });
    }, ms);
  }

  /** The timeout or cancellation that aborted the request; null while none has. */
  get failure(): ModelFailure | null {
    return this.fired;
  }

  dispose(): void {
    clearTimeout(this.idle);
    clearTimeout(this.total);
    this.signal?.removeEventListener('abort', this.onAbort);
  }

  private stop(failure: ModelFailure): void {
    if (this.fired !== null) return;
    this.fired = failure;
    this.dispose();
    this.controller.abort();
  }
}

/** What went wrong with a fetch that never got a response, or whose body broke off. */
export type TransportProblem = 'refused' | 'reset' | 'other';

/** Node's fetch wraps the socket error in `cause`; with several addresses it is an AggregateError. */
export function transportProblem(error: unknown): { problem: TransportProblem; detail: string } {
  const cause = error instanceof Error ? error.cause : undefined;
  const nested: unknown[] = cause instanceof AggregateError ? (cause.errors as unknown[]) : [];
  const codes = [cause, ...nested]
    .map((c) => (typeof c === 'object' && c !== null ? (c as { code?: unknown }).code : undefined))
    .filter((c): c is string => typeof c === 'string');
  // Without a code, the cause's own words ("bad port" for a port fetch refuses to use) say more
  // than fetch's "fetch failed".
  const causeMessage = cause instanceof Error && cause.message !== '' ? cause.message : undefined;
  const detail = codes[0] ?? causeMessage ?? (error instanceof Error ? error.message : String(error));
  if (codes.some((c) => ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH'].includes(c)))
    return { problem: 'refused', detail };
  if (codes.some((c) => ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'].includes(c)))
    return { problem: 'reset', detail };
  return { problem: 'other', detail };
}

/** A response with its body still unread, or the failure that stopped the request. */
export type SendResult = { ok: true; response: Response } | { ok: false; failure: ModelFailure };

/** What the adapter makes of a response that is not a 2xx: a failure, or a reason to try again. */
export type Refusal = { retry: string } | { failure: ModelFailure };

/** Everything `sendWithRetry` needs for one request. */
export interface SendSpec {
  url: string;
  init: RequestInit;
  timer: RequestTimer;
  retry: RetryPolicy;
  /** Named in `no_server` and `loading`. */
  endpoint: string;
  /** Reads a non-2xx response's body and classifies it. */
  refusal: (status: number, body: string) => Refusal | Promise<Refusal>;
}

/**
 * Sends the request, trying again after a reset connection or a refusal the adapter calls
 * transient, at most `retry.attempts` times in all; yields a `retrying` event before each wait.
 */
export async function* sendWithRetry(spec: SendSpec): AsyncGenerator<ModelEvent, SendResult, void> {
  let lastReason = '';
  for (let attempt = 1; ; attempt += 1) {
    const sent = await sendOnce(spec);
    if ('response' in sent) return { ok: true, response: sent.response };
    if ('failure' in sent) return { ok: false, failure: sent.failure };
    lastReason = sent.retry;
    if (attempt >= spec.retry.attempts) break;
    const delayMs = spec.retry.baseDelayMs * 2 ** (attempt - 1);
    yield { type: 'retrying', attempt, delayMs, reason: sent.retry };
    if (!(await sleep(delayMs, spec.timer))) break;
  }
  const fired = spec.timer.failure;
  if (fired !== null) return { ok: false, failure: fired };
  const failure: ModelFailure = /loading/i.test(lastReason)
    ? { kind: 'loading', endpoint: spec.endpoint, detail: lastReason }
    : {
        kind: 'server_error',
        status: null,
        detail: `gave up after ${spec.retry.attempts} tries: ${lastReason}`,
      };
  return { ok: false, failure };
}

async function sendOnce(spec: SendSpec): Promise<{ response: Response } | Refusal> {
  let response: Response;
  try {
    response = await fetch(spec.url, { ...spec.init, signal: spec.timer.controller.signal });
  } catch (error) {
    const fired = spec.timer.failure;
    if (fired !== null) return { failure: fired };
    const { problem, detail } = transportProblem(error);
    if (problem === 'refused') return { failure: { kind: 'no_server', endpoint: spec.endpoint, detail } };
    if (problem === 'reset') return { retry: `connection reset (${detail})` };
    return { failure: { kind: 'server_error', status: null, detail } };
  }
  spec.timer.touch();
  if (response.ok) return { response };
  let body: string;
  try {
    body = await response.text();
  } catch (error) {
    const fired = spec.timer.failure;
    if (fired !== null) return { failure: fired };
    return { retry: `connection reset (${transportProblem(error).detail})` };
  }
  return spec.refusal(response.status, body);
}

/** Waits, unless the request is aborted first; false when it was. */
function sleep(ms: number, timer: RequestTimer): Promise<boolean> {
  const signal = timer.controller.signal;
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(handle);
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const onAbort = () => {
      done(false);
    };
    const handle = setTimeout(() => {
      done(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A small JSON GET for the probes (`/api/ps`, `/props`, `/v1/models`): the parsed body, or why not. */
export async function getJson(
  url: string,
  init: { headers?: Record<string, string>; timer: RequestTimer; endpoint: string },
): Promise<{ ok: true; status: number; body: unknown } | { ok: false; failure: ModelFailure }> {
  let response: Response;
  try {
    response = await fetch(url, { headers: init.headers, signal: init.timer.controller.signal });
    const text = await response.text();
    init.timer.touch();
    return { ok: true, status: response.status, body: parseJson(text) };
  } catch (error) {
    const fired = init.timer.failure;
    if (fired !== null) return { ok: false, failure: fired };
    const { problem, detail } = transportProblem(error);
    return {
      ok: false,
      failure:
        problem === 'refused'
          ? { kind: 'no_server', endpoint: init.endpoint, detail }
          : { kind: 'server_error', status: null, detail },
    };
  }
}

/** JSON.parse that answers undefined for anything that is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `value.key` when value is an object, else undefined: for reading servers' JSON defensively. */
export function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** A finite number, or null. */
export function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

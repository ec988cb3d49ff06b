/** What every HTTP adapter is built from: the config's model section, resolved. */
import type { RetryPolicy, Timeouts } from './http.js';

export interface ClientSettings {
  /** The configured endpoint, e.g. http://127.0.0.1:11434/v1; named in failures. */
  endpoint: string;
  model: string;
  /** The context aide asks for (Ollama's num_ctx, fixed for the whole session) and plans its prompts by. */
  contextTokens: number;
  temperature: number;
  /** Ollama's keep_alive ("30m", "0", "-1"). */
  keepAlive: string;
  /**
   * `model.grammar`: `auto` sends a request's grammar where the server takes one (llama-server,
   * vLLM), `off` never does, and `prepare` then reports no grammar support.
   */
  grammar: 'auto' | 'off';
  /** Sent as a bearer token when set. */
  apiKey?: string;
  timeouts: Timeouts;
  retry: RetryPolicy;
}

/** The server's root: the endpoint without a trailing `/` or `/v1` (the native APIs live beside /v1). */
export function serverRoot(endpoint: string): string {
  return endpoint.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** Headers for every request: JSON, and the key when there is one. */
export function headers(settings: Pick<ClientSettings, 'apiKey'>): Record<string, string> {
  const base: Record<string, string> = { 'content-type': 'application/json' };
  if (settings.apiKey !== undefined) base.authorization = `Bearer ${settings.apiKey}`;
  return base;
}

/**
 * `provider: auto`: asking the server what it is, by the endpoints only one kind answers.
 * In order: `/api/version` (Ollama), `/props` with `default_generation_settings` (llama-server),
 * `/api/v0/models` (LM Studio's REST API), `/v1/models` whose entries carry `max_model_len`
 * (vLLM); anything else is a generic OpenAI-compatible server.
 */
import type { ModelOutcome, ModelServerKind } from '../../core/ports/model.js';
import { field, getJson, type RequestTimer } from './http.js';
import { headers, serverRoot, type ClientSettings } from './settings.js';

export type HttpServerKind = Exclude<ModelServerKind, 'replay'>;

export async function detectServer(
  settings: ClientSettings,
  timer: RequestTimer,
): Promise<ModelOutcome<HttpServerKind>> {
  const root = serverRoot(settings.endpoint);
  const probes: [string, HttpServerKind, (body: unknown) => boolean][] = [
    ['/api/version', 'ollama', (body) => typeof field(body, 'version') === 'string'],
    ['/props', 'llama-server', (body) => field(body, 'default_generation_settings') !== undefined],
    ['/api/v0/models', 'lm-studio', (body) => Array.isArray(field(body, 'data'))],
    ['/v1/models', 'vllm', (body) => hasMaxModelLen(body)],
  ];
  for (const [path, kind, matches] of probes) {
    const answer = await getJson(`${root}${path}`, {
      headers: headers(settings),
      timer,
      endpoint: settings.endpoint,
    });
    if (!answer.ok) return answer;
    if (answer.status === 200 && matches(answer.body)) return { ok: true, value: kind };
  }
  return { ok: true, value: 'openai-compatible' };
}

function hasMaxModelLen(body: unknown): boolean {
  const data = field(body, 'data');
  return Array.isArray(data) && data.some((m) => typeof field(m, 'max_model_len') === 'number');
}

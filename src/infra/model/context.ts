/**
 * The context an OpenAI-compatible server really gives one request, read before the first
 * prompt. Each server says it somewhere else:
 * - llama-server `/props` `default_generation_settings.n_ctx`: already per slot (it is
 *   `slots[0].n_ctx`, the `-c` total divided among the `-np` slots; tools/server/server-context.cpp).
 * - LM Studio `/api/v0/models` `loaded_context_length` of the model's entry, known only once loaded; its
 *   just-in-time loading often picks 4096, so aide loads it (one token) and reads it after.
 * - vLLM `/v1/models` `data[].max_model_len`.
 * - anything else: unknown (null).
 */
import type { ModelOutcome, ModelServerKind } from '../../core/ports/model.js';
import { field, getJson, num, type RequestTimer } from './http.js';
import { headers, type ClientSettings } from './settings.js';

/** What readContext needs: where to ask, the /v1/models answer already read, and a way to load the model. */
export interface ContextProbe {
  root: string;
  settings: ClientSettings;
  timer: RequestTimer;
  models: unknown;
  warmUp: () => Promise<ModelOutcome<null>>;
}

/** The context in tokens (null when the server does not say) and where it was read. */
export interface ContextReading {
  tokens: number | null;
  source: string | null;
}

export async function readContext(
  server: Exclude<ModelServerKind, 'ollama' | 'replay'>,
  probe: ContextProbe,
): Promise<ModelOutcome<ContextReading>> {
  switch (server) {
    case 'llama-server': {
      const props = await get(probe, '/props');
      if (!props.ok) return props;
      const tokens = num(field(field(props.value, 'default_generation_settings'), 'n_ctx'));
      const slots = num(field(props.value, 'total_slots'));
      const source = `/props n_ctx per slot${slots === null ? '' : ` (${slots} slot${slots === 1 ? '' : 's'})`}`;
      return { ok: true, value: { tokens, source: tokens === null ? null : source } };
    }
    case 'lm-studio': {
      // The listing, not /api/v0/models/{id}: ids such as "qwen/qwen2.5-coder-14b" hold a slash.
      let entry = await lmStudioEntry(probe);
      if (!entry.ok) return entry;
      if (field(entry.value, 'state') !== 'loaded') {
        const loaded = await probe.warmUp();
        if (!loaded.ok) return loaded;
        entry = await lmStudioEntry(probe);
        if (!entry.ok) return entry;
      }
      const tokens = num(field(entry.value, 'loaded_context_length'));
      return {
        ok: true,
        value: { tokens, source: tokens === null ? null : 'LM Studio loaded_context_length' },
      };
    }
    case 'vllm': {
      const data = field(probe.models, 'data');
      const entry: unknown = Array.isArray(data)
        ? data.find((m) => field(m, 'id') === probe.settings.model)
        : undefined;
      const tokens = num(field(entry, 'max_model_len'));
      return { ok: true, value: { tokens, source: tokens === null ? null : '/v1/models max_model_len' } };
    }
    case 'openai-compatible':
      return { ok: true, value: { tokens: null, source: null } };
  }
}

async function lmStudioEntry(probe: ContextProbe): Promise<ModelOutcome<unknown>> {
  const listing = await get(probe, '/api/v0/models');
  if (!listing.ok) return listing;
  const data = field(listing.value, 'data');
  const entry: unknown = Array.isArray(data)
    ? data.find((m) => field(m, 'id') === probe.settings.model)
    : undefined;
  return { ok: true, value: entry };
}

async function get(probe: ContextProbe, path: string): Promise<ModelOutcome<unknown>> {
  const answer = await getJson(`${probe.root}${path}`, {
    headers: headers(probe.settings),
    timer: probe.timer,
    endpoint: probe.settings.endpoint,
  });
  if (!answer.ok) return answer;
  if (answer.status >= 400) {
    return {
      ok: false,
      failure: {
        kind: 'server_error',
        status: answer.status,
        detail: `GET ${path} answered ${answer.status}`,
      },
    };
  }
  return { ok: true, value: answer.body };
}

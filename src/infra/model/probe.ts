/**
 * Whether the configured model server answers at all, within a short deadline: one small GET
 * (`/v1/models`, which Ollama and every OpenAI-compatible server serve; any HTTP answer counts).
 * `aide review` asks this before its model check, so a server that is down, or up but hung, costs
 * a git hook at most the deadline instead of the minutes a model's reply may take.
 */
import type { AideConfig } from '../../config/config-schema.js';
import type { ModelOutcome } from '../../core/ports/model.js';
import { getJson, refuseRemote, RequestTimer } from './http.js';
import { REPLAY_PREFIX } from './replay.js';
import { headers, serverRoot } from './settings.js';

/** Answers when the server (or the replay script, which needs none) can be asked; else why not. */
export async function probeModelServer(
  model: AideConfig['model'],
  env: Readonly<Record<string, string | undefined>>,
  deadlineMs: number,
  signal?: AbortSignal,
): Promise<ModelOutcome<null>> {
  if (model.name.startsWith(REPLAY_PREFIX)) return { ok: true, value: null };
  const refused = refuseRemote(model.endpoint, model.allow_remote);
  if (refused !== null) return { ok: false, failure: refused };
  const apiKey = model.api_key_env === undefined ? undefined : env[model.api_key_env];
  const timer = new RequestTimer({ totalMs: deadlineMs, idleMs: deadlineMs }, signal);
  try {
    const answer = await getJson(`${serverRoot(model.endpoint)}/v1/models`, {
      headers: headers(apiKey === undefined ? {} : { apiKey }),
      timer,
      endpoint: model.endpoint,
    });
    return answer.ok ? { ok: true, value: null } : answer;
  } finally {
    timer.dispose();
  }
}

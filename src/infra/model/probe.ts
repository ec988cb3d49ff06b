/**
 * Whether the configured model server answers at all, within a short deadline: one small GET
 * (`/v1/models`, which Ollama and every OpenAI-compatible server serve; any HTTP answer counts).
 * `aide review` asks this before its model check, so a server that is down, or up but hung, costs
 * a git hook at most the deadline instead of the minutes a model's reply may take.
 *
 * A plain TCP connection is tried first: a server that is down (the common case on a commit)
 * refuses it at once, and answering that way spares the hook loading Node's fetch (undici, about
 * 30 ms of CPU). Anything but a refusal goes on to the GET, which decides.
 */
import { connect } from 'node:net';
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
  const root = serverRoot(model.endpoint);
  const connection = await tryConnection(root, deadlineMs, signal);
  if (connection.state === 'refused')
    return { ok: false, failure: { kind: 'no_server', endpoint: model.endpoint, detail: connection.code } };
  // No connection within the whole deadline (a host that drops packets): the GET would wait again.
  if (connection.state === 'timeout')
    return { ok: false, failure: { kind: 'timeout', which: 'total', ms: deadlineMs } };
  const timer = new RequestTimer({ totalMs: deadlineMs, idleMs: deadlineMs }, signal);
  try {
    const answer = await getJson(`${root}/v1/models`, {
      headers: headers(apiKey === undefined ? {} : { apiKey }),
      timer,
      endpoint: model.endpoint,
    });
    return answer.ok ? { ok: true, value: null } : answer;
  } finally {
    timer.dispose();
  }
}

/** The errors of a connection attempt that mean nothing listens there (fetch's `no_server` too). */
const REFUSALS = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);

/** What a TCP connection attempt found: nothing listening, no answer at all, or anything else. */
type Connection = { state: 'refused'; code: string } | { state: 'timeout' } | { state: 'other' };

/**
 * Tries a TCP connection to the server's host and port: refused (or the host does not resolve),
 * no connection within the deadline, or `other` (it connected, was cancelled or failed otherwise:
 * the GET decides).
 */
function tryConnection(root: string, deadlineMs: number, signal?: AbortSignal): Promise<Connection> {
  const other: Connection = { state: 'other' };
  let url: URL;
  try {
    url = new URL(root);
  } catch {
    return Promise.resolve(other);
  }
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (signal?.aborted === true) return Promise.resolve(other);
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: deadlineMs });
    const done = (answer: Connection) => {
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(answer);
    };
    const onAbort = () => {
      done(other);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => {
      done(other);
    });
    socket.once('timeout', () => {
      done({ state: 'timeout' });
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      done(
        error.code !== undefined && REFUSALS.has(error.code) ? { state: 'refused', code: error.code } : other,
      );
    });
  });
}

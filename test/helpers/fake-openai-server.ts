/**
 * A fake OpenAI-compatible server that plays one kind at a time: llama-server (`/props` with the
 * per-slot n_ctx, `/health`; 503 "Loading model" while loading), LM Studio (`/api/v0/models` with
 * `loaded_context_length` once loaded: a chat loads it just in time), vLLM (`max_model_len` in
 * `/v1/models`) or a generic server. `/v1/chat/completions` streams SSE chunks, then `usage`,
 * then `data: [DONE]`; a scripted reply can fail mid-stream, stop at `length`, under-report
 * `prompt_tokens`, refuse with a status or reset the connection.
 */
import type { ServerResponse } from 'node:http';
import {
  delay,
  refuseIfScripted,
  resetConnection,
  sendJson,
  startFakeHttpServer,
  type FakeHttpServer,
  type ScriptedReply,
} from './fake-http-server.js';

export type FakeKind = 'llama-server' | 'lm-studio' | 'vllm' | 'generic';

export interface OpenAiReply extends ScriptedReply {
  /** After the chunks, an SSE event `{"error": …}` under HTTP 200. */
  errorEvent?: unknown;
}

export interface FakeOpenAiOptions {
  kind: FakeKind;
  replies: OpenAiReply[];
  /** Default qwen2.5-coder-14b. */
  models?: string[];
  /** llama-server: the `-c` total and the `-np` slots it is divided among (default 8192, 1). */
  totalContext?: number;
  slots?: number;
  /** LM Studio: the context its just-in-time load picks (default 4096), and whether it starts loaded. */
  loadedContextLength?: number;
  startLoaded?: boolean;
  /** vLLM: max_model_len (default 32768). */
  maxModelLen?: number;
}

export interface FakeOpenAi extends FakeHttpServer {
  chats: unknown[];
}

export async function startFakeOpenAi(options: FakeOpenAiOptions): Promise<FakeOpenAi> {
  const models = options.models ?? ['qwen2.5-coder-14b'];
  const replies = [...options.replies];
  const chats: unknown[] = [];
  let lmLoaded = options.startLoaded ?? false;
  const server = await startFakeHttpServer(async (request, res) => {
    const { kind } = options;
    if (request.path === '/v1/models') {
      const data = models.map((id) => ({
        id,
        object: 'model',
        ...(kind === 'vllm' ? { max_model_len: options.maxModelLen ?? 32768 } : {}),
      }));
      sendJson(res, 200, { object: 'list', data });
      return;
    }
    if (kind === 'llama-server' && request.path === '/props') {
      const slots = options.slots ?? 1;
      const nCtx = Math.floor((options.totalContext ?? 8192) / slots);
      sendJson(res, 200, {
        default_generation_settings: { n_ctx: nCtx, params: {} },
        total_slots: slots,
      });
      return;
    }
    if (kind === 'lm-studio' && request.path.startsWith('/api/v0/models')) {
      const entry = (id: string) => ({
        id,
        type: 'llm',
        state: lmLoaded ? 'loaded' : 'not-loaded',
        max_context_length: 32768,
        ...(lmLoaded ? { loaded_context_length: options.loadedContextLength ?? 4096 } : {}),
      });
      const id = decodeURIComponent(request.path.slice('/api/v0/models/'.length));
      if (id === '') {
        sendJson(res, 200, { object: 'list', data: models.map(entry) });
        return;
      }
      if (models.includes(id)) sendJson(res, 200, entry(id));
      else sendJson(res, 404, { error: 'model not found' });
      return;
    }
    if (request.path !== '/v1/chat/completions' || request.method !== 'POST') {
      sendJson(res, 404, { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } });
      return;
    }
    const body = request.body as { model: string; stream?: boolean; max_tokens?: number };
    if (kind !== 'llama-server' && !models.includes(body.model)) {
      sendJson(res, 404, {
        error: { message: `The model \`${body.model}\` does not exist.`, code: 404 },
      });
      return;
    }
    if (kind === 'lm-studio') lmLoaded = true;
    if (body.stream !== true) {
      // A warm-up: one token, not from the script.
      sendJson(res, 200, {
        choices: [{ message: { role: 'assistant', content: 'Hi' }, finish_reason: 'length' }],
      });
      return;
    }
    const reply = replies.shift();
    if (reply === undefined) {
      sendJson(res, 500, { error: { message: 'the fake ran out of scripted replies' } });
      return;
    }
    chats.push(request.body);
    await delay(reply.delayMs ?? 0);
    if (refuseIfScripted(reply, res)) return;
    await stream(res, kind, reply);
  });
  return { ...server, chats };
}

async function stream(res: ServerResponse, kind: FakeKind, reply: OpenAiReply): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const event = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  const chunks = reply.chunks ?? [];
  res.write(': keep-alive comment\n\n');
  for (const content of chunks) {
    event({ choices: [{ index: 0, delta: { content }, finish_reason: null }] });
    await delay(reply.chunkDelayMs ?? 0);
  }
  if (reply.errorEvent !== undefined) {
    event({ error: reply.errorEvent });
    res.end();
    return;
  }
  if (reply.resetAfter === true) {
    resetConnection(res);
    return;
  }
  if (reply.hang === true) return;
  event({ choices: [{ index: 0, delta: {}, finish_reason: reply.finishReason ?? 'stop' }] });
  const completion = reply.evalTokens ?? chunks.length;
  event({
    choices: [],
    usage: {
      prompt_tokens: reply.promptTokens ?? 10,
      completion_tokens: completion,
      total_tokens: 0,
      ...(reply.cachedTokens === undefined
        ? {}
        : { prompt_tokens_details: { cached_tokens: reply.cachedTokens } }),
    },
    ...(kind === 'llama-server'
      ? { timings: { prompt_n: 3, prompt_ms: 120, predicted_n: completion, predicted_ms: 400 } }
      : {}),
  });
  res.end('data: [DONE]\n\n');
}

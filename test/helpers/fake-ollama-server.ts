/**
 * A fake Ollama (native API, docs/api.md): `/api/version`, `/api/tags`, `/api/ps` (the loaded
 * model's `context_length`), `/api/chat` streaming NDJSON. An empty message list is the load
 * request (answered `done_reason: "load"`, no script consumed); every other chat takes the next
 * scripted reply. Quirks it plays: a mid-stream `{"error": …}` line under HTTP 200, `length`
 * finishes, a short `prompt_eval_count`, a 400 overflow, a 503 or a reset connection.
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

export interface OllamaReply extends ScriptedReply {
  /** After the chunks, an error line with HTTP 200, as Ollama sends a failure once streaming. */
  errorLine?: string;
}

export interface FakeOllamaOptions {
  replies: OllamaReply[];
  /** Models the server has (`/api/tags`); default qwen2.5-coder:14b. */
  models?: string[];
  /** `/api/ps` context_length; default: the num_ctx of the load request. Null leaves the field out (older Ollama). */
  contextLength?: number | null;
}

export interface FakeOllama extends FakeHttpServer {
  /** The chat requests that took a scripted reply, in order. */
  chats: unknown[];
}

export async function startFakeOllama(options: FakeOllamaOptions): Promise<FakeOllama> {
  const models = options.models ?? ['qwen2.5-coder:14b'];
  const replies = [...options.replies];
  const chats: unknown[] = [];
  let loaded: { name: string; numCtx: number } | null = null;
  const server = await startFakeHttpServer(async (request, res) => {
    if (request.path === '/api/version') {
      sendJson(res, 200, { version: '0.13.0' });
      return;
    }
    if (request.path === '/api/tags') {
      sendJson(res, 200, { models: models.map((name) => ({ name, model: name })) });
      return;
    }
    if (request.path === '/api/ps') {
      const entry =
        loaded === null
          ? []
          : [
              {
                name: loaded.name,
                model: loaded.name,
                ...(options.contextLength === null
                  ? {}
                  : { context_length: options.contextLength ?? loaded.numCtx }),
              },
            ];
      sendJson(res, 200, { models: entry });
      return;
    }
    if (request.path !== '/api/chat' || request.method !== 'POST') {
      sendJson(res, 404, { error: 'not found' });
      return;
    }
    const body = request.body as { model: string; messages: unknown[]; options?: { num_ctx?: number } };
    if (!models.includes(body.model)) {
      sendJson(res, 404, { error: `model "${body.model}" not found, try pulling it first` });
      return;
    }
    if (body.messages.length === 0) {
      loaded = { name: body.model, numCtx: body.options?.num_ctx ?? 4096 };
      sendJson(res, 200, {
        model: body.model,
        message: { role: 'assistant', content: '' },
        done_reason: 'load',
        done: true,
      });
      return;
    }
    const reply = replies.shift();
    if (reply === undefined) {
      sendJson(res, 500, { error: 'the fake ran out of scripted replies' });
      return;
    }
    chats.push(request.body);
    await delay(reply.delayMs ?? 0);
    if (refuseIfScripted(reply, res)) return;
    await stream(res, body.model, reply);
  });
  return { ...server, chats };
}

async function stream(res: ServerResponse, model: string, reply: OllamaReply): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  const chunks = reply.chunks ?? [];
  for (const content of chunks) {
    res.write(`${JSON.stringify({ model, message: { role: 'assistant', content }, done: false })}\n`);
    await delay(reply.chunkDelayMs ?? 0);
  }
  if (reply.errorLine !== undefined) {
    res.end(`${JSON.stringify({ error: reply.errorLine })}\n`);
    return;
  }
  if (reply.resetAfter === true) {
    resetConnection(res);
    return;
  }
  if (reply.hang === true) return;
  const last = {
    model,
    message: { role: 'assistant', content: '' },
    done: true,
    done_reason: reply.finishReason ?? 'stop',
    total_duration: 2_000_000_000,
    prompt_eval_count: reply.promptTokens ?? 10,
    ...(reply.cachedTokens === undefined ? {} : { prompt_eval_cached_count: reply.cachedTokens }),
    prompt_eval_duration: 500_000_000,
    eval_count: reply.evalTokens ?? chunks.length,
    eval_duration: 1_000_000_000,
  };
  res.end(`${JSON.stringify(last)}\n`);
}

/**
 * The base of the fake model servers: real HTTP on 127.0.0.1 (port 0), every request recorded,
 * each one answered by a handler. Closing ends open connections too, so a test that left a
 * stream hanging does not hold the process.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the fake saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** The parsed JSON body; undefined for a GET or a body that is not JSON. */
  body: unknown;
  /** The request's headers, names in lower case. */
  headers: Record<string, string | string[] | undefined>;
}

export type Handler = (
  request: RecordedRequest,
  res: ServerResponse,
  raw: IncomingMessage,
) => void | Promise<void>;

export interface FakeHttpServer {
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeHttpServer(handler: Handler): Promise<FakeHttpServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        body = undefined;
      }
      const request: RecordedRequest = {
        method: raw.method ?? 'GET',
        path: raw.url ?? '/',
        body,
        headers: raw.headers,
      };
      requests.push(request);
      Promise.resolve(handler(request, res, raw)).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Drops the connection without an answer: the client sees a reset socket. */
export function resetConnection(res: ServerResponse): void {
  res.socket?.resetAndDestroy();
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * What a scripted reply may do, common to both fakes: stream `chunks`, then finish (or fail
 * mid-stream, or hang); or refuse with `status` and `body`; or reset the connection.
 */
export interface ScriptedReply {
  chunks?: string[];
  /** Wait before answering (ms). */
  delayMs?: number;
  /** Wait between chunks (ms). */
  chunkDelayMs?: number;
  /** Answer with this status and JSON (or string) body instead of a stream. */
  status?: number;
  body?: unknown;
  /** Reset the connection instead of answering. */
  reset?: boolean;
  /** After the chunks, reset the connection: the reply breaks off mid-stream. */
  resetAfter?: boolean;
  /** After the chunks, keep the stream open and silent until the client gives up. */
  hang?: boolean;
  /** The prompt's size the server reports. */
  promptTokens?: number;
  /** Prompt tokens the server reports as read from its cache; left out when absent. */
  cachedTokens?: number;
  /** Tokens generated the server reports; the number of chunks when absent. */
  evalTokens?: number;
  finishReason?: 'stop' | 'length';
}

/** The refusal or reset part of a reply; true when it answered the request. */
export function refuseIfScripted(reply: ScriptedReply, res: ServerResponse): boolean {
  if (reply.reset === true) {
    resetConnection(res);
    return true;
  }
  if (reply.status !== undefined) {
    if (typeof reply.body === 'string') {
      res.writeHead(reply.status, { 'content-type': 'text/plain' });
      res.end(reply.body);
    } else sendJson(res, reply.status, reply.body ?? {});
    return true;
  }
  return false;
}

/** Runs a chat to its end: the events it yielded and how it ended. */
export async function drain<E, R>(chat: AsyncGenerator<E, R, void>): Promise<{ events: E[]; outcome: R }> {
  const events: E[] = [];
  for (;;) {
    const next = await chat.next();
    if (next.done === true) return { events, outcome: next.value };
    events.push(next.value);
  }
}

/** A loopback port nothing listens on (bound, then released). */
export async function freePort(): Promise<number> {
  const server = await startFakeHttpServer((_request, res) => {
    res.end();
  });
  const port = Number(new URL(server.url).port);
  await server.close();
  return port;
}

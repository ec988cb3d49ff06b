/**
 * Reading a streamed body: NDJSON lines (Ollama) and server-sent events (the OpenAI-compatible
 * servers). Each chunk resets the request's idle clock; an abort or a broken connection ends
 * the stream with a failure instead of a thrown error.
 */
import type { ModelFailure } from '../../core/ports/model.js';
import { transportProblem, type RequestTimer } from './http.js';

/** A decoded piece of the body, or the failure that cut the body off. */
type TextItem = { text: string } | { failure: ModelFailure };

/**
 * The body as decoded text, chunk by chunk (the decoder's tail comes last); each chunk resets the
 * idle clock. Leaving early (a failure line, a cancel) stops the download.
 */
async function* readText(response: Response, timer: RequestTimer): AsyncGenerator<TextItem, void, void> {
  const body = response.body;
  if (body === null) return;
  const reader = (body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        yield { failure: timer.failure ?? broken(error) };
        return;
      }
      if (chunk.done) break;
      timer.touch();
      yield { text: decoder.decode(chunk.value, { stream: true }) };
    }
    yield { text: decoder.decode() };
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** A line of the body, or the failure that cut the body off. */
export type LineItem = { line: string } | { failure: ModelFailure };

/** The body's lines (without their line break, blank ones skipped); the last one may lack a break. */
export async function* readLines(
  response: Response,
  timer: RequestTimer,
): AsyncGenerator<LineItem, void, void> {
  let buffer = '';
  for await (const item of readText(response, timer)) {
    if ('failure' in item) {
      yield item;
      return;
    }
    buffer += item.text;
    let end = buffer.indexOf('\n');
    while (end !== -1) {
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      if (line.trim() !== '') yield { line };
      end = buffer.indexOf('\n');
    }
  }
  if (buffer.trim() !== '') yield { line: buffer };
}

function broken(error: unknown): ModelFailure {
  return {
    kind: 'server_error',
    status: null,
    detail: `the stream broke off: ${transportProblem(error).detail}`,
  };
}

/** One server-sent event's data (its `data:` lines joined by newlines), or the failure. */
export type EventItem = { data: string } | { failure: ModelFailure };

/**
 * The `data` of each event, per the WHATWG event-stream format: fields are `name: value` lines,
 * an event ends at a blank line, `:` starts a comment; only `data` matters here.
 */
export async function* readEvents(
  response: Response,
  timer: RequestTimer,
): AsyncGenerator<EventItem, void, void> {
  let data: string[] = [];
  let buffer = '';
  for await (const item of readText(response, timer)) {
    if ('failure' in item) {
      yield item;
      return;
    }
    buffer += item.text;
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') {
        if (data.length > 0) yield { data: data.join('\n') };
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const name = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (name === 'data') data.push(value);
    }
  }
  // A stream that ends without the final blank line still delivered its last event.
  if (buffer.startsWith('data:')) data.push(buffer.slice(5).replace(/^ /, ''));
  if (data.length > 0) yield { data: data.join('\n') };
}

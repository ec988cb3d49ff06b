import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RequestTimer } from './http.js';
import { readEvents, readLines } from './stream.js';

/** A Response whose body arrives in exactly these pieces. */
function pieces(parts: string[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part));
      controller.close();
    },
  });
  return new Response(body);
}

async function all<T>(items: AsyncGenerator<T, void, void>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

test('SSE: events split across chunks, multi-line data, comments, CRLF and a last event without its blank line', async () => {
  const timer = new RequestTimer({ totalMs: 5000, idleMs: 5000 }, undefined);
  const response = pieces([
    ': hi\r\n\r\ndata: {"a"',
    ':1}\r\n\r\ndata: one\ndata: two\n\nevent: x\nda',
    'ta: [DONE]',
  ]);
  const events = await all(readEvents(response, timer));
  timer.dispose();
  assert.deepEqual(events, [{ data: '{"a":1}' }, { data: 'one\ntwo' }, { data: '[DONE]' }]);
});

test('NDJSON: lines split across chunks, blank lines skipped, a last line without its break kept', async () => {
  const timer = new RequestTimer({ totalMs: 5000, idleMs: 5000 }, undefined);
  const lines = await all(readLines(pieces(['{"a":', '1}\n\n{"b":2}\r\n{"c"', ':3}']), timer));
  timer.dispose();
  assert.deepEqual(lines, [{ line: '{"a":1}' }, { line: '{"b":2}' }, { line: '{"c":3}' }]);
});

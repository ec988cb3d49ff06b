/**
 * The replay model, `replay:FILE`: scripted replies in order, for tests, demos and reproducible
 * CI. FILE is JSONL, one reply per line:
 *
 *   {"reply": "<read_file><path>a.ts</path></read_file>"}
 *   {"reply": "...", "expect": {"last_message_contains": "a.ts"}, "finish_reason": "length"}
 *
 * `expect` asserts on the request the reply answers (a mismatch is `replay_invalid`, naming the
 * line); `finish_reason` lets a script play an incomplete reply. A request past the last line is
 * `replay_exhausted`: a script that runs out is a broken script, never an empty reply.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type {
  ModelClient,
  ModelEvent,
  ModelInfo,
  ModelOutcome,
  ModelReply,
  ModelRequest,
  PrepareOptions,
} from '../../core/ports/model.js';
import { settleReply } from './classify.js';

export const REPLAY_PREFIX = 'replay:';

const lineSchema = z.strictObject({
  reply: z.string(),
  finish_reason: z.enum(['stop', 'length']).optional(),
  expect: z
    .strictObject({
      /** Each string must occur in the request's last message. */
      last_message_contains: z.union([z.string(), z.array(z.string())]).optional(),
      /** The request has exactly this many messages. */
      messages: z.number().int().positive().optional(),
    })
    .optional(),
});

type ReplayLine = z.output<typeof lineSchema> & { line: number };

export class ReplayModelClient implements ModelClient {
  private script: Promise<ModelOutcome<ReplayLine[]>> | null = null;
  private used = 0;

  constructor(private readonly file: string) {}

  async prepare(options: PrepareOptions): Promise<ModelOutcome<ModelInfo>> {
    if (aborted(options.signal)) return { ok: false, failure: { kind: 'cancelled' } };
    const script = await this.load();
    if (!script.ok) return script;
    return {
      ok: true,
      value: {
        server: 'replay',
        model: `${REPLAY_PREFIX}${this.file}`,
        contextTokens: null,
        contextSource: null,
      },
    };
  }

  /** How many replies the script holds, read without consuming any (for `aide doctor`). */
  async replies(): Promise<ModelOutcome<number>> {
    const script = await this.load();
    return script.ok ? { ok: true, value: script.value.length } : script;
  }

  async *chat(request: ModelRequest): AsyncGenerator<ModelEvent, ModelOutcome<ModelReply>, void> {
    if (request.signal?.aborted === true) return { ok: false, failure: { kind: 'cancelled' } };
    const script = await this.load();
    if (!script.ok) return script;
    const next = script.value[this.used];
    if (next === undefined)
      return { ok: false, failure: { kind: 'replay_exhausted', file: this.file, used: this.used } };
    this.used += 1;
    const mismatch = checkExpect(next, request);
    if (mismatch !== null)
      return {
        ok: false,
        failure: { kind: 'replay_invalid', file: this.file, line: next.line, detail: mismatch },
      };
    const started = Date.now();
    for (const piece of next.reply.match(/\s*\S+\s*/g) ?? []) {
      if (aborted(request.signal)) return { ok: false, failure: { kind: 'cancelled' } };
      yield { type: 'token', text: piece };
    }
    const reply: ModelReply = {
      text: next.reply,
      finishReason: next.finish_reason ?? 'stop',
      promptTokens: null,
      cachedPromptTokens: null,
      evalTokens: null,
      timings: { totalMs: Date.now() - started, firstTokenMs: 0, promptMs: null, evalMs: null },
      tokensPerSecond: null,
    };
    return settleReply(reply, request.promptTokensEstimate);
  }

  private load(): Promise<ModelOutcome<ReplayLine[]>> {
    this.script ??= readScript(this.file);
    return this.script;
  }
}

async function readScript(file: string): Promise<ModelOutcome<ReplayLine[]>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const detail = `cannot read the replay file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
    return { ok: false, failure: { kind: 'replay_invalid', file, line: 0, detail } };
  }
  const lines: ReplayLine[] = [];
  for (const [index, raw] of text.split('\n').entries()) {
    if (raw.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return {
        ok: false,
        failure: { kind: 'replay_invalid', file, line: index + 1, detail: 'not valid JSON' },
      };
    }
    const parsed = lineSchema.safeParse(json);
    if (!parsed.success) {
      const detail = parsed.error.issues.map((i) => `${i.path.join('.') || 'line'}: ${i.message}`).join('; ');
      return { ok: false, failure: { kind: 'replay_invalid', file, line: index + 1, detail } };
    }
    lines.push({ ...parsed.data, line: index + 1 });
  }
  return { ok: true, value: lines };
}

/** A function, so the compiler does not assume a signal checked once stays unaborted. */
function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/** Why the request is not the one the script expected; null when it is. */
function checkExpect(line: ReplayLine, request: ModelRequest): string | null {
  const expect = line.expect;
  if (expect === undefined) return null;
  if (expect.messages !== undefined && request.messages.length !== expect.messages) {
    return `expected a request with ${expect.messages} messages, got ${request.messages.length}`;
  }
  const wanted = expect.last_message_contains;
  const last = request.messages.at(-1)?.content ?? '';
  for (const text of typeof wanted === 'string' ? [wanted] : (wanted ?? [])) {
    if (!last.includes(text)) return `expected the last message to contain ${JSON.stringify(text)}`;
  }
  return null;
}

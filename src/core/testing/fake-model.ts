/**
 * A scripted ModelClient for core tests: replies in order, every request recorded. It keeps the
 * port's contract the way the real clients do (infra/model/): a `length` finish ends as the
 * `incomplete` failure, an aborted signal ends the stream as `cancelled`, a failure is returned,
 * never thrown. The HTTP fakes in test/ cover the servers themselves.
 */
import type {
  ModelClient,
  ModelEvent,
  ModelFailure,
  ModelFinishReason,
  ModelInfo,
  ModelOutcome,
  ModelReply,
  ModelRequest,
} from '../ports/model.js';

/** One scripted turn: a reply (a string is a whole reply that ends with `stop`), or a failure. */
export type FakeTurn =
  | string
  | {
      reply: string;
      /** How the text streams: its pieces in order (their concatenation must be `reply`); default: per word. */
      pieces?: string[];
      finishReason?: ModelFinishReason;
      /** The prompt count the server reports; default null. */
      promptTokens?: number;
      /** Retries announced before the first token. */
      retries?: number;
    }
  | { failure: ModelFailure };

/** A clock tests read and the fake moves: `msPerPiece` for each streamed piece. */
export class FakeClock {
  private time = 0;
  readonly now = (): number => this.time;
  advance(ms: number): void {
    this.time += ms;
  }
}

/** What the fake is built with. */
export interface FakeModelOptions {
  /** Moved by `msPerPiece` per piece, so streaming rates and throttling are deterministic. */
  clock?: FakeClock;
  msPerPiece?: number;
  /** Called after each piece is yielded (0-based), e.g. to abort the run mid-stream. */
  onPiece?: (index: number) => void;
  info?: Partial<ModelInfo>;
  /** Streams on after the request's signal fired, like a client that does not watch it. */
  ignoresSignal?: boolean;
}

/** Splits a text after each run of spaces: "a b" → ["a ", "b"]. */
function words(text: string): string[] {
  return text.match(/\S*\s*/g)?.filter((piece) => piece !== '') ?? [];
}

/** The scripted client; `requests` holds a copy of every request in order. */
export class FakeModel implements ModelClient {
  readonly requests: ModelRequest[] = [];
  /** Pieces yielded so far, over all requests. */
  piecesSent = 0;
  /** Streams that ended, whether they ran to the end or the caller closed them early. */
  streamsClosed = 0;
  private next = 0;

  constructor(
    private readonly script: readonly FakeTurn[],
    private readonly options: FakeModelOptions = {},
  ) {}

  /** Turns of the script not asked for yet. */
  get left(): number {
    return this.script.length - this.next;
  }

  prepare(): Promise<ModelOutcome<ModelInfo>> {
    const info: ModelInfo = {
      server: 'replay',
      model: 'fake',
      contextTokens: null,
      contextSource: null,
      ...this.options.info,
    };
    return Promise.resolve({ ok: true, value: info });
  }

  async *chat(request: ModelRequest): AsyncGenerator<ModelEvent, ModelOutcome<ModelReply>, void> {
    try {
      return yield* this.stream(request);
    } finally {
      this.streamsClosed++;
    }
  }

  private async *stream(request: ModelRequest): AsyncGenerator<ModelEvent, ModelOutcome<ModelReply>, void> {
    const aborted = () => this.options.ignoresSignal !== true && request.signal?.aborted === true;
    this.requests.push({ ...request, messages: request.messages.map((message) => ({ ...message })) });
    const turn = this.script[this.next];
    this.next++;
    if (turn === undefined)
      return {
        ok: false,
        failure: { kind: 'replay_exhausted', file: 'fake-model', used: this.script.length },
      };
    if (typeof turn !== 'string' && 'failure' in turn) return { ok: false, failure: turn.failure };
    const scripted = typeof turn === 'string' ? { reply: turn } : turn;
    for (let attempt = 1; attempt <= (scripted.retries ?? 0); attempt++)
      yield { type: 'retrying', attempt, delayMs: 10, reason: 'HTTP 503 (loading model)' };
    const pieces = scripted.pieces ?? words(scripted.reply);
    if (pieces.join('') !== scripted.reply) throw new Error('FakeModel: the pieces do not make the reply');
    for (const [index, text] of pieces.entries()) {
      if (aborted()) return { ok: false, failure: { kind: 'cancelled' } };
      // A real stream waits on the network between pieces: let the caller's other work run.
      await Promise.resolve();
      this.options.clock?.advance(this.options.msPerPiece ?? 0);
      this.piecesSent++;
      yield { type: 'token', text };
      this.options.onPiece?.(index);
    }
    if (aborted()) return { ok: false, failure: { kind: 'cancelled' } };
    const reply: ModelReply = {
      text: scripted.reply,
      finishReason: scripted.finishReason ?? 'stop',
      promptTokens: scripted.promptTokens ?? null,
      cachedPromptTokens: null,
      evalTokens: pieces.length,
      timings: { totalMs: 0, firstTokenMs: null, promptMs: null, evalMs: null },
      tokensPerSecond: null,
    };
    if (reply.finishReason === 'length') return { ok: false, failure: { kind: 'incomplete', reply } };
    return { ok: true, value: reply };
  }
}

/**
 * The loop's message list. It only grows, so each request starts with the previous one byte for
 * byte and the server's prompt cache keeps hitting (llama-server and Ollama reuse the longest
 * common prefix, vLLM's prefix cache likewise). The one exception is the budget: when the next
 * request would not fit, the oldest tool results are replaced by short stubs, oldest first, and
 * the model is told in the newest message.
 */
import type { ModelMessage } from '../ports/model.js';
import { droppedStub } from './results.js';
import { estimateMessages, estimateTokens } from './tokens.js';

/** A part of a message aide writes: its own words, or one tool result that may be dropped later. */
export type MessagePart =
  | { kind: 'text'; text: string }
  /** A wrapped tool result; `summary` names the call in its stub ("read_file src/a.ts"). */
  | { kind: 'result'; tool: string; summary: string; text: string };

interface Entry {
  role: ModelMessage['role'];
  /** Parts of a user message aide wrote; an assistant reply is kept whole, verbatim. */
  parts: MessagePart[];
  content: string;
}

/** What fitting the conversation into the budget did. */
export interface Fitted {
  /** The calls whose results were replaced by stubs, oldest first. */
  dropped: string[];
  /** The prompt's estimate afterwards, in tokens. */
  promptTokens: number;
}

const PART_SEPARATOR = '\n\n';

function render(parts: readonly MessagePart[]): string {
  return parts.map((part) => part.text).join(PART_SEPARATOR);
}

/** The message list of one loop run. */
export class Conversation {
  private readonly entries: Entry[] = [];

  /**
   * `history`: the messages of an earlier run to carry on (an act step's next attempt), sent
   * again byte for byte so the server's prompt cache still hits; `task` follows them. Its own
   * first message is the system prompt, which then stands instead of `system`.
   */
  constructor(system: string, task: string, history: readonly ModelMessage[] = []) {
    if (history.length === 0) this.entries.push({ role: 'system', parts: [], content: system });
    // Earlier results stay whole text: fitting the context drops only this run's results.
    for (const { role, content } of history) this.entries.push({ role, parts: [], content });
    this.add('user', [{ kind: 'text', text: task }]);
  }

  /** The messages as the next request sends them (a copy: later changes do not reach it). */
  messages(): ModelMessage[] {
    return this.entries.map(({ role, content }) => ({ role, content }));
  }

  /** The prompt's estimate in tokens (tokens.ts). */
  estimate(): number {
    return estimateMessages(this.entries);
  }

  /** The model's reply, verbatim: a reply changed afterwards would break the cache prefix. */
  addReply(text: string): void {
    this.add('assistant', [{ kind: 'text', text }]);
  }

  /** A user message: the results of a reply and what aide says about them. */
  addUser(parts: MessagePart[]): void {
    this.add('user', parts);
  }

  /**
   * Adds text at the end of the newest message. Only for a message not yet sent: the newest one
   * is where volatile context (turns left, a note about dropped results) belongs.
   */
  appendToNewest(text: string): void {
    const newest = this.entries[this.entries.length - 1];
    if (newest === undefined || newest.role !== 'user') throw new Error('appendToNewest: no user message');
    newest.parts.push({ kind: 'text', text });
    newest.content = render(newest.parts);
  }

  /**
   * Replaces the oldest tool results by stubs until the prompt is at most `targetTokens`, or no
   * older result is left. The newest message's results are kept: they answer the calls the model
   * just made, and without them it would only make them again.
   */
  fit(targetTokens: number): Fitted {
    let promptTokens = this.estimate();
    const dropped: string[] = [];
    for (const entry of this.entries.slice(0, -1)) {
      for (const [index, part] of entry.parts.entries()) {
        if (promptTokens <= targetTokens) return { dropped, promptTokens };
        if (part.kind !== 'result') continue;
        const stub = droppedStub(part.tool, part.summary);
        const before = estimateTokens(entry.content);
        entry.parts[index] = { kind: 'text', text: stub };
        entry.content = render(entry.parts);
        promptTokens += estimateTokens(entry.content) - before;
        dropped.push(part.summary);
      }
    }
    return { dropped, promptTokens };
  }

  private add(role: ModelMessage['role'], parts: MessagePart[]): void {
    this.entries.push({ role, parts, content: render(parts) });
  }
}

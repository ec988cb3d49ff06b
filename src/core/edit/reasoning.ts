/**
 * Reasoning models (Qwen3, DeepSeek-R1 and their kin) think in `<think>…</think>` before they
 * answer, and often draft an edit block there that the answer then corrects. Only the answer
 * is an edit: the reasoning is blanked out before parsing, keeping its line breaks so the
 * lines the parser reports are still lines of the reply.
 *
 * Reasoning is recognised only where these models put it:
 * - sections opening with `<think>` or `<thinking>` before the answer begins, up to their
 *   closing tag, one after the other: at the very start of the reply, or on a line of its own
 *   after prose ("Here is the fix." then `<think>`, as a wrapper or a pasted transcript has
 *   it) as long as no fence, edit marker or diff header came before it;
 * - a reply that has no opening tag but a `</think>` (or `</thinking>`) at the start of a line:
 *   some chat templates put the opening tag in the prompt, so the reply starts mid-thought and
 *   everything up to that closing tag is reasoning.
 * A `<think>` anywhere else is content (a block may edit a prompt template that holds one).
 */

const OPEN = /^\s*<(think|thinking)>/i;
/** A reasoning tag alone at the start of a line. */
const OPEN_LINE = /^[ \t]*<(think|thinking)>/im;
/** A line that starts an answer: a fence, an edit marker or a diff header. */
const ANSWER_LINE = /^[ \t]*(?:`{3,}|~{3,}|<{5,}|={5,}|>{5,}|--- |\+\+\+ |@@ |diff --git )/m;

/**
 * Where the first reasoning section opens: at the start, or on its own line after prose that
 * holds no fence, marker or diff header (a `<think>` after those may be a file's content).
 */
function firstOpening(text: string): number {
  if (OPEN.test(text)) return 0;
  const open = OPEN_LINE.exec(text);
  if (open === null) return -1;
  return ANSWER_LINE.test(text.slice(0, open.index)) ? -1 : open.index;
}
const ORPHAN_CLOSE = /^[ \t]*<\/(think|thinking)>/im;

export interface StrippedReply {
  /** The reply with its reasoning blanked (line breaks kept). */
  text: string;
  /** 1-based line where a reasoning section opens that never closes; the reply has no answer. */
  unclosedAt?: number;
}

/** The text with [from, to) reduced to its line breaks, and where that stretch now ends. */
function blank(text: string, from: number, to: number): { text: string; end: number } {
  const breaks = text.slice(from, to).replace(/[^\n]/g, '');
  return { text: text.slice(0, from) + breaks + text.slice(to), end: from + breaks.length };
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The reply without its reasoning sections. */
export function stripReasoning(reply: string): StrippedReply {
  let text = reply;
  const first = firstOpening(reply);
  let position = Math.max(first, 0);
  let opened = false;
  for (;;) {
    const open = first < 0 ? null : OPEN.exec(text.slice(position));
    if (open === null) break;
    opened = true;
    const name = open[1] ?? 'think';
    const bodyStart = position + open[0].length;
    const close = new RegExp(`</${name}>`, 'i').exec(text.slice(bodyStart));
    if (close === null) {
      const tagAt = position + open[0].length - name.length - 2;
      return { text: blank(text, tagAt, text.length).text, unclosedAt: lineAt(text, tagAt) };
    }
    const blanked = blank(text, position, bodyStart + close.index + close[0].length);
    text = blanked.text;
    position = blanked.end;
  }
  if (!opened) {
    const close = ORPHAN_CLOSE.exec(text);
    if (close !== null && !new RegExp(`<${close[1] ?? 'think'}>`, 'i').test(text.slice(0, close.index))) {
      text = blank(text, 0, close.index + close[0].length).text;
    }
  }
  return { text };
}

/**
 * Turns a model's free-text response into edit blocks: SEARCH/REPLACE blocks in the
 * git-conflict style and unified diffs, fenced or not. Other code blocks are ignored.
 *
 * Two failure modes of other agents shape this parser (LESSONS.md): a second `=======` line
 * (a Markdown heading underline) must not cut a REPLACE short, and a fence inside the content
 * (editing a README) must not end a block. So a block runs from its SEARCH marker to its
 * REPLACE marker whatever lies between, and fences are only tracked outside blocks.
 * A reasoning model's `<think>` section is not part of the answer (reasoning.ts).
 */
import { HEAD, TAIL, isDivider, isNearMarker } from './markers.js';
import { createVariant } from './created-text.js';
import { LineTable } from './line-table.js';
import { isFileHeader, looksLikeDiff, parseDiff } from './parse-diff.js';
import { bareNameFromLine, pathFromFenceInfo, pathFromLine } from './path-text.js';
import { stripReasoning } from './reasoning.js';
import type { EditBlock, EditVariant, ParseProblem, ParsedResponse } from './types.js';

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

interface Fence {
  char: string;
  length: number;
  info: string;
  /** Index of the fence's opening line. */
  open: number;
}

type BlockDraft = Omit<EditBlock, 'index'>;

function isFenceClose(line: string, fence: Fence): boolean {
  const match = FENCE.exec(line);
  return (
    match?.[1] !== undefined &&
    match[1][0] === fence.char &&
    match[1].length >= fence.length &&
    (match[2] ?? '').trim() === ''
  );
}

class ResponseParser {
  private readonly lines: LineTable;
  private readonly drafts: BlockDraft[] = [];
  private readonly problems: ParseProblem[] = [];
  private fence: Fence | undefined;
  /** First line after the last block or fence boundary: path lookback never crosses it. */
  private boundary = 0;
  private lastPath: string | undefined;
  private lastBlockClosed = true;

  constructor(text: string) {
    this.lines = new LineTable(text.replace(/\r\n?/g, '\n'));
  }

  parse(): ParsedResponse {
    this.scan();
    const blocks = this.drafts.map((draft, i) => ({ ...draft, index: i + 1 }));
    return { blocks, problems: this.problems };
  }

  private scan(): void {
    for (let i = 0; i < this.lines.length; i++) {
      const line = this.lines.at(i) ?? '';
      if (HEAD.test(line)) {
        const head = i;
        i = this.readBlock(i);
        // After an unterminated block, the lines before the next marker may name its path.
        this.boundary = this.lastBlockClosed ? i + 1 : head + 1;
        continue;
      }
      if (isNearMarker(line)) this.nearMarker(i);
      if (this.fence !== undefined) {
        if (isFenceClose(line, this.fence)) {
          this.fence = undefined;
          this.boundary = i + 1;
        }
        continue;
      }
      const fence = FENCE.exec(line);
      if (fence?.[1] !== undefined) {
        this.fence = {
          char: fence[1][0] ?? '`',
          length: fence[1].length,
          info: (fence[2] ?? '').trim(),
          open: i,
        };
        if (this.isDiffFence(this.fence, i + 1)) {
          const close = this.readFencedDiff(i + 1);
          if (close !== undefined) i = close - 1;
        }
        continue;
      }
      // `diff --git` too: a raw rename (git diff -M) may have no `---`/`+++` headers at all.
      if (isFileHeader(this.lines, i) || line.startsWith('diff --git ')) {
        const result = parseDiff(this.lines, i, this.lines.length, 0, undefined, false);
        this.collectDiff(result);
        i = result.next - 1;
        this.boundary = result.next;
      }
    }
  }

  /** A fence tagged diff/patch, or an untagged fence whose content starts like a diff. */
  private isDiffFence(fence: Fence, firstContentLine: number): boolean {
    const language = fence.info.split(/\s+/)[0]?.toLowerCase() ?? '';
    if (language === 'diff' || language === 'patch' || language === 'udiff') return true;
    return language === '' && looksLikeDiff(this.lines, firstContentLine);
  }

  /**
   * Reads a fenced diff from `start` to the closing fence; returns the index of that fence
   * line, or undefined when the fence holds SEARCH/REPLACE blocks instead (then the normal
   * scan reads them).
   */
  private readFencedDiff(start: number): number | undefined {
    const fence = this.fence;
    if (fence === undefined) return undefined;
    let end = start;
    // A diff's context lines start with a space, so only an unindented fence closes it.
    while (
      end < this.lines.length &&
      !(isFenceClose(this.lines.at(end) ?? '', fence) && /^[`~]/.test(this.lines.at(end) ?? ''))
    ) {
      if (HEAD.test(this.lines.at(end) ?? '')) return undefined;
      end++;
    }
    if (end >= this.lines.length) {
      this.problems.push({
        line: fence.open + 1,
        message: 'the diff block is not closed (the response may have been cut off)',
        hint: 'Resend the complete diff, ending its fence with ```.',
      });
      return end;
    }
    const fallback =
      pathFromFenceInfo(fence.info.split(/\s+/).slice(1).join(' ')) ?? this.pathBefore(fence.open);
    this.addDiff(start, end, fallback, true);
    return end;
  }

  private addDiff(start: number, end: number, fallbackPath: string | undefined, fenced: boolean): void {
    this.collectDiff(parseDiff(this.lines, start, end, 0, fallbackPath, fenced));
  }

  private collectDiff(result: ReturnType<typeof parseDiff>): void {
    this.drafts.push(...result.blocks);
    this.problems.push(...result.problems);
    const last = result.blocks.at(-1);
    if (last) this.lastPath = last.path;
  }

  /**
   * The path named on the nearest meaningful line above `index`: blank lines and bare XML tags
   * (Cline's `<diff>`) are skipped, and a fence opening is looked through (its info string,
   * then the line above it), also for a fence nested in a fence.
   */
  private pathBefore(index: number): string | undefined {
    const i = this.previousMeaningful(index, this.boundary);
    // Right after a fence: a small fence holding only the file name (some models write one).
    if (i === undefined) return this.pathInSmallFence(this.boundary - 1);
    const line = this.lines.at(i) ?? '';
    const fence = FENCE.exec(line);
    if (fence === null) return pathFromLine(line) ?? bareNameFromLine(line);
    const fromInfo = pathFromFenceInfo(fence[2] ?? '');
    if (fromInfo !== undefined) return fromInfo;
    const above = this.previousMeaningful(i, 0);
    if (above === undefined) return undefined;
    const aboveLine = this.lines.at(above) ?? '';
    return pathFromLine(aboveLine) ?? this.pathInSmallFence(above) ?? bareNameFromLine(aboveLine);
  }

  /**
   * The path in a fence that closes at `close` and holds nothing but that path: "```", "app.py",
   * "```" just before the edit. A fence with anything else in it is code, not a file name.
   */
  private pathInSmallFence(close: number): string | undefined {
    const closing = FENCE.exec(this.lines.at(close) ?? '');
    if (closing?.[1] === undefined || (closing[2] ?? '').trim() !== '') return undefined;
    const name = this.previousMeaningful(close, 0);
    const open = name === undefined ? undefined : this.previousMeaningful(name, 0);
    if (name === undefined || open === undefined) return undefined;
    const opening = FENCE.exec(this.lines.at(open) ?? '');
    const fence = { char: opening?.[1]?.[0] ?? '', length: opening?.[1]?.length ?? 0, info: '', open };
    if (opening === null || !isFenceClose(this.lines.at(close) ?? '', fence)) return undefined;
    return pathFromLine(this.lines.at(name) ?? '');
  }

  /**
   * The line above `index` that says something, or undefined below `floor`. Skipped: blank lines
   * and bare XML tags (Cline's `<diff>`, aider's `<source>` fence, also as `<source>python`).
   */
  private previousMeaningful(index: number, floor: number): number | undefined {
    let i = index - 1;
    while (i >= floor && /^\s*(?:<\/?[A-Za-z_][\w-]*>[\w+#-]*\s*)?$/.test(this.lines.at(i) ?? '')) i--;
    return i < floor ? undefined : i;
  }

  /** A line meant as a marker that is not one (markers.ts): the block it opens would be lost. */
  private nearMarker(i: number): void {
    const line = (this.lines.at(i) ?? '').trim();
    this.problems.push({
      line: i + 1,
      message: `line ${i + 1} ("${line}") looks like an edit marker but is not one, so its block cannot be read`,
      hint: 'Write the markers as `<<<<<<< SEARCH`, `=======` and `>>>>>>> REPLACE`: seven characters, a space, the word.',
    });
  }

  /**
   * A path mentioned in the prose between the previous block and this one, other than the
   * path a pathless block would reuse: then reusing it would be a guess.
   */
  private otherPathMentioned(head: number, reused: string): string | undefined {
    for (let i = this.boundary; i < head; i++) {
      const line = this.lines.at(i) ?? '';
      if (FENCE.test(line)) continue;
      for (const token of line.split(/\s+/)) {
        const path = pathFromLine(token.replace(/[.,;:!?)]+$/, '').replace(/^\(/, ''));
        if (path !== undefined && path !== reused && /[/.]/.test(path)) return path;
      }
    }
    return undefined;
  }

  /** Reads one SEARCH/REPLACE block starting at `head`; returns the index of its last line. */
  private readBlock(head: number): number {
    const headMatch = HEAD.exec(this.lines.at(head) ?? '');
    const headLength = headMatch?.[1]?.length ?? 0;
    const inline = headMatch?.[2]?.trim() ?? '';
    const explicit = (inline !== '' ? pathFromLine(inline) : undefined) ?? this.pathBefore(head);
    const dividers: number[] = [];
    let tail = -1;
    this.lastBlockClosed = true;
    for (let i = head + 1; i < this.lines.length; i++) {
      const line = this.lines.at(i) ?? '';
      if (TAIL.test(line)) {
        tail = i;
        break;
      }
      if (HEAD.test(line)) {
        this.problems.push({
          line: head + 1,
          message: `the SEARCH/REPLACE block at line ${head + 1} has no closing REPLACE marker before the next block`,
          hint: 'End every block with a `>>>>>>> REPLACE` line.',
        });
        this.lastBlockClosed = false;
        return i - 1;
      }
      if (isDivider(line, headLength)) dividers.push(i);
    }
    if (tail === -1) {
      this.problems.push({
        line: head + 1,
        message: `the SEARCH/REPLACE block at line ${head + 1} never ends (the response may have been cut off)`,
        hint: 'Resend the block complete, ending with a `>>>>>>> REPLACE` line.',
      });
      return this.lines.length - 1;
    }
    if (dividers.length === 0) {
      this.problems.push({
        line: head + 1,
        message: `the SEARCH/REPLACE block at line ${head + 1} has no ======= line between SEARCH and REPLACE`,
        hint: 'Write the lines to find, then a `=======` line, then the lines to put in their place.',
      });
      return tail;
    }
    const path = explicit ?? this.lastPath;
    const mentioned =
      explicit === undefined && path !== undefined ? this.otherPathMentioned(head, path) : undefined;
    if (mentioned !== undefined) {
      this.problems.push({
        line: head + 1,
        message: `the SEARCH/REPLACE block at line ${head + 1} does not say which file it edits, and the text before it mentions ${mentioned}`,
        hint: `Put the file path alone on the line before the block; aide will not assume it is ${path ?? ''} again.`,
      });
      return tail;
    }
    if (path === undefined) {
      this.problems.push({
        line: head + 1,
        message: `the SEARCH/REPLACE block at line ${head + 1} does not say which file it edits`,
        hint: 'Put the file path alone on the line before the opening fence, e.g. `src/app.ts`.',
      });
      return tail;
    }
    this.lastPath = path;
    const variants: EditVariant[] = dividers.map((d) => {
      // A doubled separator (`=======` twice in a row, seen in recorded replies of local models)
      // is one separator: a REPLACE never starts with a `=======` line, which would write the
      // marker into the file. A `=======` that ends SEARCH (a heading underline) is still
      // content in the reading split at the next one.
      let end = d;
      while (dividers.includes(end + 1)) end++;
      // A file created whole (an empty SEARCH) keeps its text as a range of the reply: a reply
      // that creates 2,000 files would otherwise hold each of their lines as a string.
      if (d === head + 1) return createVariant(this.lines.range(end + 1, tail));
      return { search: this.lines.slice(head + 1, d), replace: this.lines.slice(end + 1, tail) };
    });
    this.drafts.push({
      line: head + 1,
      format: 'search-replace',
      path,
      pathFrom: explicit === undefined ? 'previous' : 'explicit',
      op: 'edit',
      variants,
    });
    return tail;
  }
}

/** Parses a model response. Never throws: anything unusable becomes a problem. */
export function parseResponse(text: string): ParsedResponse {
  // Only the answer is parsed: a block drafted while reasoning is not an edit (reasoning.ts).
  const answer = stripReasoning(text);
  const parsed = new ResponseParser(answer.text).parse();
  if (answer.unclosedAt === undefined) return parsed;
  const problem: ParseProblem = {
    line: answer.unclosedAt,
    message: `the reasoning that opens at line ${answer.unclosedAt} (<think>) never ends, so the reply has no answer; edit blocks inside the reasoning are drafts and are not applied`,
    hint: 'Close the reasoning with </think> and write the edits after it (the reply may have been cut off).',
  };
  return { blocks: parsed.blocks, problems: [problem, ...parsed.problems] };
}

/**
 * Reads one section of a plan's body (the summary, or the lines under a step heading) into its
 * free text, its key lines and its edits. The parser uses it on the document; the schema uses
 * it on a single field, so a field is valid exactly when the document it renders to reads back
 * the same.
 */
import { parseResponse } from '../edit/parse-response.js';
import { classifyLine, isBlank, scanLines, type LineKind, type StepKey } from './markdown-lines.js';

/** A problem at a 0-based line index of the lines given to the reader. */
export interface LineProblem {
  index: number;
  /** 1-based column, when known. */
  column?: number;
  message: string;
  hint: string;
}

/** A `Files:`, `Run:` or `Verify:` line, its value not yet checked. */
export interface KeyEntry {
  index: number;
  key: StepKey;
  value: string;
  /** 1-based column where the value starts. */
  column: number;
}

export interface SectionRead {
  /** The summary or the step's intent: everything but key lines and edits, trimmed. */
  text: string;
  keys: KeyEntry[];
  /** Index of the `### Edits` heading, the index of the first line of its text, and the text; null without a heading. */
  edits: { heading: number; index: number; text: string } | null;
  problems: LineProblem[];
}

export type SectionKind = 'summary' | 'step';

const MOVE_BLOCK: Record<SectionKind, string> = {
  summary:
    'Move it under the ### Edits heading of the step it belongs to; edit blocks anywhere else are never applied.',
  step: "Move it under this step's ### Edits heading (after the Files:, Run: and Verify: lines); edit blocks anywhere else are never applied.",
};

function headingProblem(
  kind: LineKind,
  line: string,
  where: SectionKind,
): Omit<LineProblem, 'index'> | undefined {
  switch (kind.kind) {
    case 'step':
      return {
        message: `"${line}" starts a new step inside the ${where === 'summary' ? 'summary' : "step's text"}`,
        hint: 'Remove the heading, or reword it.',
      };
    case 'step-like':
      return {
        message: `"${line}" is not a step heading`,
        hint: `To start a step, write "${kind.suggestion}": two #, the word Step, its number, a colon and a title.`,
      };
    case 'heading-2':
      return {
        message: `"${line}" is a level-2 heading, and in a plan only steps are`,
        hint: `Start a step with "## Step N: <title>", or make it a sub-heading of the ${where === 'summary' ? 'summary' : 'step'}: "### ${kind.text === '' ? '<title>' : kind.text}".`,
      };
    case 'edits-like':
      return {
        message: `"${line}" is not the Edits heading`,
        hint: 'Write "### Edits" (three #, capital E) above the edit blocks of a step.',
      };
    default:
      return undefined;
  }
}

class SectionReader {
  private readonly problems: LineProblem[] = [];
  private readonly keys: KeyEntry[] = [];
  private readonly keyLines = new Set<number>();
  private editsHeading: number | undefined;

  constructor(
    private readonly lines: readonly string[],
    private readonly start: number,
    private readonly end: number,
    private readonly where: SectionKind,
  ) {}

  read(): SectionRead {
    const scan = scanLines(this.lines, this.start, this.end);
    for (const open of scan.unclosedFences) {
      this.problems.push({
        index: open,
        message: 'this code fence is never closed, so the rest of the document reads as code',
        hint: 'Close it with a line of the same fence (e.g. ```).',
      });
    }
    scan.structural.forEach((structural, offset) => {
      if (structural) this.visit(this.start + offset);
    });
    const textEnd = this.editsHeading ?? this.end;
    this.checkEditBlocksIn(textEnd);
    return { text: this.text(textEnd), keys: this.keys, edits: this.readEdits(), problems: this.problems };
  }

  private visit(index: number): void {
    const line = this.lines[index] ?? '';
    const kind = classifyLine(line);
    const problem = headingProblem(kind, line, this.where);
    if (problem !== undefined) {
      this.problems.push({ index, ...problem });
      return;
    }
    if (kind.kind === 'edits') this.visitEditsHeading(index);
    else if (kind.kind === 'key') this.visitKey(index, kind);
    else if (kind.kind === 'key-like' && this.where === 'step' && this.editsHeading === undefined) {
      this.problems.push({
        index,
        message: `unknown key "${kind.word}:"`,
        hint: `Did you mean "${kind.key}:"? A step's keys are Files:, Run: and Verify:, each at the start of a line. If the line is prose, reword it so it does not start with "${kind.word}:".`,
      });
    }
  }

  private visitEditsHeading(index: number): void {
    if (this.where === 'summary') {
      this.problems.push({
        index,
        message: 'the summary has an ### Edits heading, but edits belong to a step',
        hint: 'Move the heading and its edit blocks under the "## Step N: <title>" heading of their step.',
      });
    } else if (this.editsHeading === undefined) this.editsHeading = index;
    // A second heading lies inside the edit text: the edit parser reads it as prose.
  }

  private visitKey(index: number, kind: Extract<LineKind, { kind: 'key' }>): void {
    if (this.where === 'summary') {
      this.problems.push({
        index,
        message: `a ${kind.key}: line in the summary, where it does nothing`,
        hint: `Move it under the "## Step N: <title>" heading of the step it belongs to.`,
      });
    } else if (this.editsHeading !== undefined) {
      this.problems.push({
        index,
        message: `a ${kind.key}: line after ### Edits, where it is read as edit text`,
        hint: `Move it above the step's ### Edits heading.`,
      });
    } else {
      this.keys.push({ index, key: kind.key, value: kind.value, column: kind.column });
      this.keyLines.add(index);
    }
  }

  /** Free text between key lines comes in paragraphs; they are joined with one blank line, so moving a key line changes nothing. */
  private text(textEnd: number): string {
    const paragraphs: string[] = [];
    let current: string[] = [];
    for (let i = this.start; i <= textEnd; i++) {
      if (i === textEnd || this.keyLines.has(i)) {
        const paragraph = current.join('\n').trim();
        if (paragraph !== '') paragraphs.push(paragraph);
        current = [];
      } else current.push(this.lines[i] ?? '');
    }
    return paragraphs.join('\n\n');
  }

  /** Whatever the edit parser would take for an edit is an error outside ### Edits: it would never be applied. */
  private checkEditBlocksIn(textEnd: number): void {
    const text = this.lines
      .slice(this.start, textEnd)
      .map((line, offset) => (this.keyLines.has(this.start + offset) ? '' : line))
      .join('\n');
    const parsed = parseResponse(text);
    const lines = new Set([...parsed.blocks.map((b) => b.line), ...parsed.problems.map((p) => p.line)]);
    // An unclosed ```diff fence is already reported as an unclosed fence.
    const reported = new Set(this.problems.map((p) => p.index));
    for (const line of [...lines].sort((a, b) => a - b)) {
      if (reported.has(this.start + line - 1)) continue;
      this.problems.push({
        index: this.start + line - 1,
        message: `an edit block outside ### Edits`,
        hint: MOVE_BLOCK[this.where],
      });
    }
  }

  private readEdits(): SectionRead['edits'] {
    const heading = this.editsHeading;
    if (heading === undefined) return null;
    let first = heading + 1;
    let last = this.end - 1;
    while (first <= last && isBlank(this.lines[first] ?? '')) first++;
    while (last >= first && isBlank(this.lines[last] ?? '')) last--;
    const text = this.lines.slice(first, last + 1).join('\n');
    this.checkEdits(heading, first, text);
    return { heading, index: first, text };
  }

  private checkEdits(heading: number, first: number, text: string): void {
    if (text === '') return;
    const parsed = parseResponse(text);
    for (const problem of parsed.problems) {
      // The edit parser's messages name their line ("the block at line 3"): name the plan's line instead.
      const index = first + problem.line - 1;
      const message = problem.message.replaceAll(`at line ${problem.line}`, `at line ${index + 1}`);
      this.problems.push({ index, message, hint: problem.hint });
    }
    if (parsed.blocks.length === 0 && parsed.problems.length === 0) {
      this.problems.push({
        index: heading,
        message: 'the ### Edits section holds no edit block',
        hint: 'Write SEARCH/REPLACE blocks (the file path alone on the line before each) or a unified diff under it, or remove the heading.',
      });
    }
  }
}

/** Reads `lines[start, end)` as a summary or as the body of a step. */
export function readSection(
  lines: readonly string[],
  start: number,
  end: number,
  where: SectionKind,
): SectionRead {
  return new SectionReader(lines, start, end, where).read();
}

/**
 * How the plan parser reads Markdown lines.
 *
 * The structure of a plan is what a Markdown renderer shows its reviewer: a heading or a key
 * line inside a code fence is code, not structure. One exception comes from the edit parser
 * (parse-response.ts): a SEARCH/REPLACE block runs from its SEARCH marker to its REPLACE marker
 * whatever lies between, because the text it edits may hold fences and headings of its own
 * (editing a README), and those must neither end a step nor close the fence around the block.
 */
import { editDistance } from '../../shared/text.js';

/** The key lines of a step, in the order a rendered plan writes them. */
export const STEP_KEYS = ['Files', 'Run', 'Verify'] as const;
export type StepKey = (typeof STEP_KEYS)[number];

// The same markers parse-response.ts accepts, so both agree on where a block starts and ends.
const SEARCH_MARKER = /^ {0,3}(?:<{5,9}|-{5,9}) ?SEARCH\b/i;
const REPLACE_MARKER = /^ {0,3}(?:>{5,9}|\+{5,9}) ?REPLACE\s*$/i;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

// The s flag: `.` must also match U+2028/U+2029, which JavaScript counts as line ends but Markdown does not.
const STEP_HEADING = /^##[ \t]+Step[ \t]+(\d+)[ \t]*:(.*)$/s;
/** `# Step 1`, `### Step 2: x`, `## step 3 - x`, `## Step one: x`: meant as a step heading. */
const STEP_LIKE = /^(?:#{1,6}[ \t]*step[ \t]*\d|##[ \t]+step\b)/i;
const STEP_LIKE_PARTS = /^#{1,6}[ \t]*step[ \t]*(\d*)[ \t]*[:.)–—-]?[ \t]*(.*)$/is;
const HEADING_2 = /^##(?:[ \t]|$)(.*)$/s;
const EDITS_HEADING = /^###[ \t]+Edits[ \t]*$/;
const ANY_HEADING_WORD = /^#{2,6}[ \t]*([A-Za-z]+)[ \t]*:?[ \t]*$/;
const KEY_LINE = /^(Files|Run|Verify)[ \t]*:(.*)$/s;
const KEY_LIKE = /^([A-Za-z][A-Za-z_-]*)[ \t]*:/;

/** What a line outside fences and edit blocks means to the plan parser. */
export type LineKind =
  /** `## Step N: title`; the number is as written (the parser checks it), the title trimmed. */
  | { kind: 'step'; digits: string; title: string }
  /** A heading that looks meant as a step heading but is not one; `suggestion` is the fix. */
  | { kind: 'step-like'; suggestion: string }
  /** Any other level-2 heading. */
  | { kind: 'heading-2'; text: string }
  | { kind: 'edits' }
  /** `### Edit`, `## Edits`, `### edits`: meant as the Edits heading. */
  | { kind: 'edits-like' }
  /** A key line; `column` is the 1-based column where the value starts. */
  | { kind: 'key'; key: StepKey; value: string; column: number }
  /** `File:`, `run:`, `Verfiy:`: a misspelt key. */
  | { kind: 'key-like'; word: string; key: StepKey }
  | { kind: 'text' };

/**
 * A word is taken for a misspelt key only within one edit (a transposition counts as one):
 * that catches `File:`, `Verfiy:`, `run:` and `Runs:`, while two edits would also catch prose
 * such as `Fields:`, `Filter:`, `Rule:` and `Bug:`.
 */
function misspeltKey(word: string): StepKey | undefined {
  return STEP_KEYS.find((key) => key !== word && editDistance(word.toLowerCase(), key.toLowerCase(), 1) <= 1);
}

function stepSuggestion(line: string): string {
  const parts = STEP_LIKE_PARTS.exec(line);
  const digits = parts?.[1] ?? '';
  const title = (parts?.[2] ?? '').trim();
  return `## Step ${digits === '' ? 'N' : String(Number(digits))}: ${title === '' ? '<what this step does>' : title}`;
}

function classifyHeading(line: string): LineKind | undefined {
  const step = STEP_HEADING.exec(line);
  if (step !== null) return { kind: 'step', digits: step[1] ?? '', title: (step[2] ?? '').trim() };
  if (STEP_LIKE.test(line)) return { kind: 'step-like', suggestion: stepSuggestion(line) };
  if (EDITS_HEADING.test(line)) return { kind: 'edits' };
  const word = ANY_HEADING_WORD.exec(line)?.[1];
  if (word !== undefined && editDistance(word.toLowerCase(), 'edits', 1) <= 1) return { kind: 'edits-like' };
  const heading = HEADING_2.exec(line);
  if (heading !== null) return { kind: 'heading-2', text: (heading[1] ?? '').trim() };
  return undefined;
}

/** Classifies a line already known to be outside fences and edit blocks. Keys and headings count only at column 0. */
export function classifyLine(line: string): LineKind {
  if (line.startsWith('#')) {
    const heading = classifyHeading(line);
    if (heading !== undefined) return heading;
  }
  const key = KEY_LINE.exec(line);
  if (key !== null) {
    const raw = key[2] ?? '';
    const value = raw.trim();
    const column = line.length - raw.length + (raw.length - raw.trimStart().length) + 1;
    return { kind: 'key', key: key[1] as StepKey, value, column };
  }
  const word = KEY_LIKE.exec(line)?.[1];
  const near = word === undefined ? undefined : misspeltKey(word);
  if (word !== undefined && near !== undefined) return { kind: 'key-like', word, key: near };
  return { kind: 'text' };
}

interface Fence {
  char: string;
  length: number;
  /** A diff's context lines start with a space, so only an unindented fence closes it (as in parse-response.ts). */
  diff: boolean;
  open: number;
}

function fenceOpening(line: string, index: number): Fence | undefined {
  const match = FENCE.exec(line);
  const marker = match?.[1];
  if (marker === undefined) return undefined;
  const info = (match?.[2] ?? '').trim();
  // CommonMark: a backtick fence's info string holds no backtick (```x``` is inline code).
  if (marker.startsWith('`') && info.includes('`')) return undefined;
  return {
    char: marker[0] ?? '`',
    length: marker.length,
    diff: /^(?:diff|patch|udiff)\b/i.test(info),
    open: index,
  };
}

function closesFence(line: string, fence: Fence): boolean {
  const match = FENCE.exec(line);
  const marker = match?.[1];
  if (marker === undefined || !marker.startsWith(fence.char) || marker.length < fence.length) return false;
  if ((match?.[2] ?? '').trim() !== '') return false;
  return !fence.diff || /^[`~]/.test(line);
}

/**
 * The index of the REPLACE marker that closes the block opened at `head`, or undefined when the
 * block never closes. An unclosed block protects nothing: otherwise one missing marker would
 * swallow every later step (the edit parser reports the unclosed block itself).
 */
function blockEnd(lines: readonly string[], head: number, end: number): number | undefined {
  for (let i = head + 1; i < end; i++) {
    const line = lines[i] ?? '';
    if (REPLACE_MARKER.test(line)) return i;
    if (SEARCH_MARKER.test(line)) return undefined;
  }
  return undefined;
}

export interface LineScan {
  /** Per line of the range: true when outside code fences and edit blocks, where headings and keys count. */
  structural: boolean[];
  /** Indexes of fence openings never closed (Markdown would show the rest of the document as code). */
  unclosedFences: number[];
}

/**
 * Marks the lines of `lines[start, end)` outside fences and closed edit blocks. A fence that
 * never closes is reported and then read as a plain line, so one missing ``` costs one error
 * instead of hiding every later step.
 */
export function scanLines(lines: readonly string[], start = 0, end = lines.length): LineScan {
  const structural = new Array<boolean>(Math.max(0, end - start)).fill(false);
  const unclosedFences: number[] = [];
  let fence: Fence | undefined;
  let i = start;
  while (i < end || fence !== undefined) {
    if (i >= end && fence !== undefined) {
      unclosedFences.push(fence.open);
      structural[fence.open - start] = true;
      i = fence.open + 1;
      fence = undefined;
      continue;
    }
    const line = lines[i] ?? '';
    const close = SEARCH_MARKER.test(line) ? blockEnd(lines, i, end) : undefined;
    if (close !== undefined) i = close;
    else if (fence !== undefined) {
      if (closesFence(line, fence)) fence = undefined;
    } else {
      fence = fenceOpening(line, i);
      if (fence === undefined) structural[i - start] = true;
    }
    i++;
  }
  return { structural, unclosedFences };
}

/** Splits a document into lines; CRLF and lone CR count as line breaks, like LF. */
export function splitLines(text: string): string[] {
  return text.replace(/\r\n?/g, '\n').split('\n');
}

/** Whether a line holds nothing but spaces and tabs. */
export function isBlank(line: string): boolean {
  return /^[ \t]*$/.test(line);
}

/**
 * The change as the model check shows it to the model: each file's section of the patch with
 * the line number of the new version in front of every line it has (models count hunk offsets
 * badly, and a finding's line is checked against these numbers), cut to a budget at a file or
 * hunk boundary so a large change never overflows the context, and the record of which lines
 * of which files the model was shown: a finding anywhere else is not about this change.
 */
import type { FilePatch } from '../ports/review.js';

/** The change as rendered for the model. */
export interface ModelDiff {
  /** The numbered sections, one `### path` heading each. */
  text: string;
  /** Per file shown: the new version's lines the model saw (context and added). */
  shown: ReadonlyMap<string, ReadonlySet<number>>;
  /** Files of the change, and how many were shown (whole or in part). */
  filesTotal: number;
  filesShown: number;
  /** Whether anything was left out to stay within the budget. */
  cut: boolean;
}

/** One file's rendering: its heading and metadata, then each hunk with the new lines it shows. */
interface RenderedFile {
  path: string;
  head: string;
  hunks: Array<{ text: string; lines: number[] }>;
}

/** Header lines the model does not need: the paths are in the heading, blob ids say nothing. */
const DROPPED_HEADER = /^(?:diff --git |index |--- |\+\+\+ )/;
const HUNK = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const NUMBER_WIDTH = 6;

function renderFile(patch: FilePatch): RenderedFile {
  const head: string[] = [`### ${patch.path}`];
  const hunks: RenderedFile['hunks'] = [];
  let current: { out: string[]; lines: number[] } | null = null;
  let next = 0;
  let oldLeft = 0;
  let newLeft = 0;
  const flush = () => {
    if (current !== null) hunks.push({ text: current.out.join('\n'), lines: current.lines });
    current = null;
  };
  for (const raw of patch.text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    // Inside a hunk, its header's counts say which lines are its own (a removed "-- x" reads "--- x").
    if (current !== null && (oldLeft > 0 || newLeft > 0 || line.startsWith('\\'))) {
      const body = line.slice(1);
      if (line.startsWith('+')) {
        current.out.push(`${String(next).padStart(NUMBER_WIDTH)} +${body}`);
        current.lines.push(next++);
        newLeft -= 1;
      } else if (line.startsWith('-')) {
        current.out.push(`${' '.repeat(NUMBER_WIDTH)} -${body}`);
        oldLeft -= 1;
      } else if (line.startsWith(' ')) {
        current.out.push(`${String(next).padStart(NUMBER_WIDTH)}  ${body}`);
        current.lines.push(next++);
        oldLeft -= 1;
        newLeft -= 1;
      } else if (line.startsWith('\\')) current.out.push(`${' '.repeat(NUMBER_WIDTH)} ${line}`);
      continue;
    }
    const hunk = HUNK.exec(line);
    if (hunk !== null) {
      flush();
      current = { out: [line], lines: [] };
      oldLeft = Number(hunk[1] ?? 1);
      next = Number(hunk[2] ?? 0);
      newLeft = Number(hunk[3] ?? 1);
    } else if (current === null && line !== '' && !DROPPED_HEADER.test(line)) head.push(line);
  }
  flush();
  return { path: patch.path, head: head.join('\n'), hunks };
}

/**
 * The patches numbered and cut to `budgetChars`: whole files while they fit, then as many whole
 * hunks of the next file as fit (none: the file is left out), and nothing after it (a reader who
 * is told "cut" expects the rest to be missing, not holes).
 */
export function renderModelDiff(patches: readonly FilePatch[], budgetChars: number): ModelDiff {
  const parts: string[] = [];
  const shown = new Map<string, Set<number>>();
  let used = 0;
  let cut = false;
  const cost = (text: string) => text.length + 1;
  for (const file of patches.map(renderFile)) {
    let fileCost = cost(file.head);
    const hunks: RenderedFile['hunks'] = [];
    for (const hunk of file.hunks) {
      if (used + fileCost + cost(hunk.text) > budgetChars) break;
      hunks.push(hunk);
      fileCost += cost(hunk.text);
    }
    // A heading with none of its hunks would tell the model of a change it cannot see.
    const fits = used + fileCost <= budgetChars && (hunks.length > 0 || file.hunks.length === 0);
    if (fits) {
      parts.push(file.head, ...hunks.map((h) => h.text));
      used += fileCost;
      shown.set(file.path, new Set(hunks.flatMap((h) => h.lines)));
    }
    if (!fits || hunks.length < file.hunks.length) {
      cut = true;
      break;
    }
  }
  return {
    text: parts.length === 0 ? '' : `${parts.join('\n')}\n`,
    shown,
    filesTotal: patches.length,
    filesShown: shown.size,
    cut,
  };
}

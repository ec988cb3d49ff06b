/**
 * Unified diffs as models write them: with or without line numbers, with wrong numbers and
 * wrong counts. Hunks are located by content later, so numbers and counts are ignored; each
 * hunk becomes a search/replace pair.
 */
import type { Lines } from './line-table.js';
import { lostPlusReadings, type HunkRow } from './lost-plus.js';
import { normalizeWrittenPath } from './path-text.js';
import type { EditBlock, ParseProblem } from './types.js';

export interface DiffParseResult {
  blocks: Omit<EditBlock, 'index'>[];
  problems: ParseProblem[];
}

interface Hunk {
  line: number;
  search: string[];
  replace: string[];
  changed: boolean;
  /** It has `-` lines: a diff "from /dev/null" that has them edits a file, it does not create one. */
  removes: boolean;
  /** Every line taken, in order: the other readings of a hunk whose `+` were lost (lost-plus.ts). */
  rows: HunkRow[];
  /** Trailing lines that were completely empty (not a space): usually the fence's padding. */
  bareEmptyTail: number;
  /** The new-file start line from the header, when it has numbers. */
  newStart: number | undefined;
}

interface FileSection {
  line: number;
  oldPath: string | undefined;
  newPath: string | undefined;
  /** `--- /dev/null`: the diff creates the file. */
  creates: boolean;
  /** `+++ /dev/null`: the diff deletes the file. */
  deletes: boolean;
  hunks: Hunk[];
  /** `rename from` and `rename to` (git diff -M): the file moves, then its hunks apply. */
  rename?: { from: string; to: string };
}

/** A rename's lines before the headers it belongs to (or none: a rename without changes). */
interface PendingRename {
  line: number;
  from?: string | null;
  to?: string | null;
}

/** `@@ -1,3 +1,4 @@`, `@@ @@`, aider's `@@ ... @@`, or a bare `@@`. */
const HUNK_HEADER = /^@@(?:\s.*)?@@|^@@\s*$/;
const HUNK_NEW_START = /^@@\s+-?\d+(?:,\d+)?\s+\+?(\d+)/;
const GIT_PREAMBLE =
  /^(?:diff --git |index [0-9a-f]|new file mode|deleted file mode|old mode|new mode|similarity index|dissimilarity index|Index: |={5,}$)/;

/** Strips a header's timestamp and quotes; null for /dev/null. */
function headerPath(raw: string): string | null {
  let path = raw.split('\t')[0]?.trim() ?? '';
  if (path.startsWith('"') && path.endsWith('"') && path.length > 1) {
    path = path.slice(1, -1).replace(/\\(["\\])/g, '$1');
  }
  if (path === '/dev/null') return null;
  return normalizeWrittenPath(path);
}

/** Drops git's a/ and b/ prefixes when both sides carry them (or one side is /dev/null). */
function stripGitPrefixes(oldPath: string | null, newPath: string | null): [string | null, string | null] {
  const oldPrefixed = oldPath === null || oldPath.startsWith('a/');
  const newPrefixed = newPath === null || newPath.startsWith('b/');
  if (oldPrefixed && newPrefixed && (oldPath !== null || newPath !== null)) {
    return [oldPath?.slice(2) ?? null, newPath?.slice(2) ?? null];
  }
  return [oldPath, newPath];
}

/** True when lines[i] and lines[i+1] are a `---` / `+++` file header pair. */
export function isFileHeader(lines: Lines, i: number): boolean {
  return (lines.at(i)?.startsWith('--- ') ?? false) && (lines.at(i + 1)?.startsWith('+++ ') ?? false);
}

/** Whether a text (a whole response or a fenced block) starts like a diff. */
export function looksLikeDiff(lines: Lines, from = 0): boolean {
  for (let i = from; i < lines.length; i++) {
    const line = lines.at(i) ?? '';
    // jsdiff and svn put an "Index:" line and a "=====" rule before the headers.
    if (line.trim() === '' || /^={5,}$/.test(line)) continue;
    return (
      line.startsWith('diff --git ') ||
      line.startsWith('Index: ') ||
      isFileHeader(lines, i) ||
      HUNK_HEADER.test(line)
    );
  }
  return false;
}

/**
 * Parses diff lines. `fallbackPath` names the file when the diff has hunks but no headers
 * (a fenced diff under a path line). `fenced` tolerates context lines whose leading space a
 * model dropped; in an unfenced diff such a line ends the diff. Returns the index after the
 * last line consumed.
 */
export function parseDiff(
  lines: Lines,
  start: number,
  end: number,
  lineOffset: number,
  fallbackPath: string | undefined,
  fenced: boolean,
): DiffParseResult & { next: number } {
  const sections: FileSection[] = [];
  const problems: ParseProblem[] = [];
  let section: FileSection | undefined;
  let hunk: Hunk | undefined;
  let i = start;
  /** The line after the last `+++` header: a hunk may start there without an `@@` line. */
  let afterHeader = -1;
  let rename: PendingRename | undefined;
  /** A rename whose `---`/`+++` headers never came: a pure move (100% similarity). */
  const flushRename = () => {
    if (rename === undefined) return;
    const { from, to } = rename;
    if (typeof from === 'string' && typeof to === 'string') {
      const moved = {
        line: rename.line,
        oldPath: from,
        newPath: to,
        creates: false,
        deletes: false,
        hunks: [],
      };
      sections.push({ ...moved, rename: { from, to } });
    } else
      problems.push({
        line: rename.line,
        message: 'the diff has a `rename from` line without its `rename to` line, or the reverse',
        hint: 'Give both lines, `rename from old/path` and `rename to new/path`, as git diff -M writes them.',
      });
    rename = undefined;
  };
  const closeHunk = () => {
    if (hunk && section) {
      for (; hunk.bareEmptyTail > 0; hunk.bareEmptyTail--) {
        hunk.search.pop();
        hunk.replace.pop();
        hunk.rows.pop();
      }
      section.hunks.push(hunk);
    }
    hunk = undefined;
  };
  for (; i < end; i++) {
    const line = lines.at(i) ?? '';
    const lineNo = lineOffset + i + 1;
    // Inside a hunk, removing "-- x" and adding "++ y" also looks like a header pair; a real
    // header is followed by a hunk header.
    if (isFileHeader(lines, i) && (hunk === undefined || HUNK_HEADER.test(lines.at(i + 2) ?? ''))) {
      closeHunk();
      const [oldPath, newPath] = stripGitPrefixes(
        headerPath(line.slice(4)),
        headerPath((lines.at(i + 1) ?? '').slice(4)),
      );
      section = {
        line: lineNo,
        oldPath: oldPath ?? undefined,
        newPath: newPath ?? undefined,
        creates: oldPath === null,
        deletes: newPath === null,
        hunks: [],
      };
      if (rename !== undefined) {
        section.rename = { from: rename.from ?? '', to: rename.to ?? '' };
        rename = undefined;
      }
      sections.push(section);
      i++;
      afterHeader = i + 1;
      continue;
    }
    if (line.startsWith('diff --git ')) {
      closeHunk();
      flushRename();
      continue;
    }
    if (GIT_PREAMBLE.test(line) && hunk === undefined) continue;
    const renameLine = /^rename (from|to) (.+)$/.exec(line);
    if (renameLine !== null && hunk === undefined) {
      rename ??= { line: lineNo };
      rename[renameLine[1] === 'from' ? 'from' : 'to'] = headerPath(renameLine[2] ?? '');
      continue;
    }
    if (/^(?:copy) (?:from|to) /.test(line)) {
      problems.push({
        line: lineNo,
        message: 'the diff copies a file, which aide apply does not support',
        hint: 'Create the new file with a diff from /dev/null, or use SEARCH/REPLACE blocks.',
      });
      continue;
    }
    if (HUNK_HEADER.test(line)) {
      closeHunk();
      if (section === undefined) {
        section = {
          line: lineNo,
          oldPath: fallbackPath,
          newPath: fallbackPath,
          creates: false,
          deletes: false,
          hunks: [],
        };
        sections.push(section);
      }
      const newStart = HUNK_NEW_START.exec(line)?.[1];
      hunk = newHunk(lineNo, newStart === undefined ? undefined : Number(newStart));
      continue;
    }
    // No `@@` line (models drop it): the hunk starts right after the file headers, or, in a
    // fenced diff under a path line that has no headers either, at its first diff line.
    if (hunk === undefined && /^[-+ ]/.test(line)) {
      const headerless = fenced && sections.length === 0 && fallbackPath !== undefined;
      if (headerless) {
        section = {
          line: lineNo,
          oldPath: fallbackPath,
          newPath: fallbackPath,
          creates: false,
          deletes: false,
          hunks: [],
        };
        sections.push(section);
      }
      if (headerless || (i === afterHeader && section !== undefined)) hunk = newHunk(lineNo, undefined);
    }
    if (hunk === undefined) {
      if (line.trim() === '') continue;
      if (!fenced) break;
      problems.push({
        line: lineNo,
        message: 'this line in a diff is outside any hunk',
        hint: 'Start each hunk with an `@@ ... @@` line; lines in a hunk start with a space, `-` or `+`.',
      });
      continue;
    }
    const marker = line[0];
    if (marker === '\\') continue; // "\ No newline at end of file": aide keeps the file's own ending
    if (!fenced && marker !== '+' && marker !== '-' && marker !== ' ' && line !== '') break;
    // Counted only for lines the hunk takes: the line that ends an unfenced diff must not reset it.
    hunk.bareEmptyTail = line === '' ? hunk.bareEmptyTail + 1 : 0;
    if (marker === '+') {
      hunk.replace.push(line.slice(1));
      hunk.changed = true;
      hunk.rows.push({ kind: 'add', line });
    } else if (marker === '-') {
      hunk.search.push(line.slice(1));
      hunk.changed = true;
      hunk.removes = true;
      hunk.rows.push({ kind: 'remove', line });
    } else if (marker === ' ' || line === '') {
      hunk.search.push(line.slice(1));
      hunk.replace.push(line.slice(1));
      hunk.rows.push({ kind: 'context', line, text: line.slice(1) });
    } else {
      // In a fenced diff: a context line whose leading space the model dropped.
      hunk.search.push(line);
      hunk.replace.push(line);
      hunk.rows.push({ kind: 'context', line, text: line });
    }
  }
  closeHunk();
  flushRename();
  return { ...sectionsToBlocks(sections, problems), next: i };
}

/**
 * The block that moves a renamed file, before the blocks of its hunks; false (and a problem)
 * when the rename lines and the file headers name different files, which would be a guess.
 */
function addRename(
  section: FileSection,
  rename: { from: string; to: string },
  blocks: Omit<EditBlock, 'index'>[],
  problems: ParseProblem[],
): boolean {
  const agrees = section.oldPath === rename.from && section.newPath === rename.to;
  if (rename.from === '' || rename.to === '' || !agrees || section.creates || section.deletes) {
    problems.push({
      line: section.line,
      message: `the diff renames ${rename.from || '?'} to ${rename.to || '?'}, but its file headers name ${section.oldPath ?? '/dev/null'} and ${section.newPath ?? '/dev/null'}`,
      hint: 'Give the rename as git diff -M writes it: `rename from`, `rename to`, then `--- a/old` and `+++ b/new`.',
    });
    return false;
  }
  blocks.push({
    line: section.line,
    format: 'diff',
    path: rename.to,
    pathFrom: 'explicit',
    op: 'edit',
    variants: [{ search: [], replace: [] }],
    renameFrom: rename.from,
  });
  return true;
}

function newHunk(line: number, newStart: number | undefined): Hunk {
  return {
    line,
    search: [],
    replace: [],
    changed: false,
    removes: false,
    rows: [],
    bareEmptyTail: 0,
    newStart,
  };
}

function sectionsToBlocks(sections: FileSection[], problems: ParseProblem[]): DiffParseResult {
  const blocks: Omit<EditBlock, 'index'>[] = [];
  for (const section of sections) {
    if (section.rename !== undefined && !addRename(section, section.rename, blocks, problems)) continue;
    const path = section.newPath ?? section.oldPath;
    if (path === undefined) {
      problems.push({
        line: section.line,
        message: 'the diff does not name the file it changes',
        hint: 'Start the diff with `--- a/path` and `+++ b/path` lines, or put the path on the line before the fence.',
      });
      continue;
    }
    if (section.deletes) {
      const removed = section.hunks.flatMap((h) => h.search);
      blocks.push({
        line: section.line,
        format: 'diff',
        path,
        pathFrom: 'explicit',
        op: 'delete',
        variants: [{ search: removed, replace: [] }],
      });
      continue;
    }
    if (section.hunks.length === 0 && section.rename === undefined) {
      problems.push({
        line: section.line,
        message: `the diff for ${path} has no hunks`,
        hint: 'Each changed file needs at least one `@@ ... @@` hunk with the lines to change.',
      });
      continue;
    }
    // `--- /dev/null` over hunks that remove lines is an edit mislabelled: its `-` lines must
    // match the file, so it fails on a file that is not there instead of creating a wrong one.
    if (section.creates && !section.hunks.some((h) => h.removes)) {
      const content = section.hunks.flatMap((h) => h.replace);
      blocks.push({
        line: section.line,
        format: 'diff',
        path,
        pathFrom: 'explicit',
        op: 'edit',
        variants: [{ search: [], replace: content }],
      });
      continue;
    }
    for (const hunk of section.hunks) {
      if (!hunk.changed) continue;
      if (hunk.search.length === 0) {
        problems.push({
          line: hunk.line,
          message: `a hunk for ${path} only adds lines and has no context to locate it`,
          hint: 'aide places hunks by their content, not their line numbers: include two or three unchanged lines around the added lines.',
        });
        continue;
      }
      blocks.push({
        line: hunk.line,
        format: 'diff',
        path,
        pathFrom: 'explicit',
        op: 'edit',
        variants: [{ search: hunk.search, replace: hunk.replace }, ...lostPlusReadings(hunk.rows)],
        ...(hunk.newStart === undefined ? {} : { lineHint: hunk.newStart }),
      });
    }
  }
  return { blocks, problems };
}

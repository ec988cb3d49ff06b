/**
 * Finding a run of lines in a file by a normalized key per line, in time linear in the file:
 * candidates come only from the positions of the SEARCH's rarest line.
 *
 * The looser rungs (trailing white space, indentation, blank lines, elision, fuzzy) all read the
 * file's lines by trimmed text (trimmed-lines.ts). A view per key, each with its own map of the
 * whole file, made a shifted SEARCH on 50k lines build four maps of 50k strings (and trim every
 * line twice): the time grew faster than the file.
 */
import { builtLiveLines, indexedLines } from './live-lines.js';
import type { TextFile } from './text-file.js';
import { builtTable, nonBlankLines, trimmedPositions, trimsTo } from './trimmed-lines.js';

/** The keys of the looser rungs: a line compared without its trailing, or all its, white space. */
export type LooseKey = 'trim-end' | 'trim';

/** Whether every line's trimmed text occurs in the file: when not, no rung up to blank-lines can match. */
export function mayOccurTrimmed(file: TextFile, lines: readonly string[]): boolean {
  const texts = lines.map((line) => line.trim()).filter((text) => text !== '');
  // The table answers while it is built. Once the planner has edited the file it is dropped,
  // and the trimmed counts the content index keeps up to date answer: a scan or a table per
  // block would make a reply of many blocks that fail (applied a second time) read the whole
  // file per block. A file not edited yet is scanned, as the rung about to run reads it.
  const table = builtTable(file);
  if (table !== undefined) return texts.every((text) => table.has(text));
  const index = builtLiveLines(file);
  if (index !== undefined && (index.edited || index.countsTrimmed)) {
    const counts = index.trimmedCounts(file.lines);
    return texts.every((text) => (counts.get(text) ?? 0) > 0);
  }
  return trimmedPositions(file, texts).every((at) => at.length > 0);
}

/**
 * Every run of `needle` (already keyed) in the file seen through `key`, ascending: file lines,
 * or with `skipBlank` positions among the non-blank lines (nonBlankLines). Candidates
 * come from the file lines whose trimmed text is the rarest needle line's: a line equal to
 * another but for trailing white space is also equal to it trimmed.
 */
export function findLooseRuns(
  file: TextFile,
  key: LooseKey,
  skipBlank: boolean,
  needle: readonly string[],
): number[] {
  if (needle.length === 0) return [];
  const positions = trimmedPositions(
    file,
    needle.map((line) => line.trim()),
  );
  let anchor = 0;
  for (let k = 0; k < needle.length; k++) {
    const count = positions[k]?.length ?? 0;
    if (count === 0) return [];
    if (count < (positions[anchor]?.length ?? 0)) anchor = k;
  }
  const lines = file.lines;
  const { index, position } = skipBlank ? nonBlankLines(file) : { index: undefined, position: undefined };
  const size = index?.length ?? lines.length;
  const starts: number[] = [];
  for (const fileLine of positions[anchor] ?? []) {
    const p = position === undefined ? fileLine : (position[fileLine] ?? -1);
    if (p === -1) continue;
    const start = p - anchor;
    if (start < 0) continue;
    if (start + needle.length > size) break;
    let ok = true;
    for (let k = 0; k < needle.length && ok; k++) {
      const line = lines[index === undefined ? start + k : (index[start + k] ?? 0)] ?? '';
      const wanted = needle[k] ?? '';
      ok = key === 'trim' ? trimsTo(line, wanted) : line.trimEnd() === wanted;
    }
    if (ok) starts.push(start);
  }
  return starts;
}

/**
 * Every run of `needle` in the file's raw lines, ascending: by a scan while the file has been
 * asked about only a few times, then from its content index (live-lines.ts), where the time goes
 * to the places where the SEARCH's rarest line occurs, not to the whole file.
 */
export function findLineRuns(file: TextFile, needle: readonly string[]): number[] {
  if (needle.length === 0) return [];
  const index = indexedLines(file);
  if (index === undefined) return scanLineRuns(file.lines, needle);
  let anchor = 0;
  let anchorCount = Number.POSITIVE_INFINITY;
  for (let k = 0; k < needle.length; k++) {
    const count = index.counts.get(needle[k] ?? '') ?? 0;
    if (count === 0) return [];
    if (count < anchorCount) {
      anchor = k;
      anchorCount = count;
    }
  }
  const lines = file.lines;
  const starts: number[] = [];
  for (const p of index.positions(needle[anchor] ?? '', lines)) {
    const start = p - anchor;
    if (start < 0) continue;
    if (start + needle.length > lines.length) break;
    let ok = true;
    for (let k = 0; k < needle.length && ok; k++) ok = lines[start + k] === needle[k];
    if (ok) starts.push(start);
  }
  return starts;
}

/** findLineRuns by one pass over the lines, from the longest needle line (likely the rarest). */
function scanLineRuns(lines: readonly string[], needle: readonly string[]): number[] {
  let anchor = 0;
  for (let k = 1; k < needle.length; k++)
    if ((needle[k] ?? '').length > (needle[anchor] ?? '').length) anchor = k;
  const wanted = needle[anchor];
  const starts: number[] = [];
  for (let p = anchor; p < lines.length; p++) {
    if (lines[p] !== wanted) continue;
    const start = p - anchor;
    if (start + needle.length > lines.length) break;
    let ok = true;
    for (let k = 0; k < needle.length && ok; k++) ok = lines[start + k] === needle[k];
    if (ok) starts.push(start);
  }
  return starts;
}

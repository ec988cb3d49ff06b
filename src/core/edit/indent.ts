/**
 * Indentation: detecting a text's unit and re-indenting replacement lines into the file's
 * own style when a model's SEARCH is shifted (it dropped a class's indentation) or written
 * with spaces where the file uses tabs.
 */

/** Columns a tab counts for when comparing tab and space indentation. */
const TAB_WIDTH = 4;

/** The length of a line's leading run of spaces and tabs. */
export function indentLength(line: string): number {
  let n = 0;
  while (n < line.length) {
    const code = line.charCodeAt(n);
    if (code !== 32 && code !== 9) break;
    n++;
  }
  return n;
}

export function leadingWhitespace(line: string): string {
  return line.slice(0, indentLength(line));
}

/**
 * `line.trim() === ''` for a line whose indentation is `indent` long, without building the
 * trimmed string: after its indentation almost every line has a printable ASCII character.
 * The scans of a whole file (detectIndentUnit, indentStyle) trimmed every line of it.
 */
export function isBlankAfter(line: string, indent: number): boolean {
  if (indent === line.length) return true;
  const code = line.charCodeAt(indent);
  if (code > 32 && code < 127) return false;
  return line.trim() === '';
}

function hasTab(line: string, indent: number): boolean {
  for (let i = 0; i < indent; i++) if (line.charCodeAt(i) === 9) return true;
  return false;
}

function columns(indent: string): number {
  let width = 0;
  for (const ch of indent) width += ch === '\t' ? TAB_WIDTH : 1;
  return width;
}

/** The indentation unit of some lines: '\t', or a run of spaces; undefined without evidence. */
export function detectIndentUnit(lines: readonly string[]): string | undefined {
  let tabs = 0;
  let spaces = 0;
  const deltas = new Map<number, number>();
  let previous = 0;
  for (const line of lines) {
    const indent = indentLength(line);
    if (isBlankAfter(line, indent)) continue;
    const first = indent > 0 ? line.charCodeAt(0) : -1;
    if (first === 9) tabs++;
    else if (first === 32) spaces++;
    if (!hasTab(line, indent)) {
      const delta = Math.abs(indent - previous);
      if (delta > 0 && delta <= 8) deltas.set(delta, (deltas.get(delta) ?? 0) + 1);
      previous = indent;
    }
  }
  if (tabs > 0 && tabs >= spaces) return '\t';
  if (spaces === 0) return undefined;
  let best = 0;
  let bestCount = 0;
  for (const [delta, count] of deltas) {
    if (count > bestCount || (count === bestCount && delta < best)) {
      best = delta;
      bestCount = count;
    }
  }
  return best > 0 ? ' '.repeat(best) : undefined;
}

/** Rewrites the indentation of a replacement line; null when the line cannot be placed (negative indent). */
export type IndentTransform = (line: string) => string | null;

export const identityIndent: IndentTransform = (line) => line;

/** A pair of lines with the same content: the model's version and the file's. */
export interface IndentPair {
  model: string;
  file: string;
}

function reindent(line: string, indent: (old: string) => string | null): string | null {
  if (line.trim() === '') return line.trim() === line ? line : '';
  const old = leadingWhitespace(line);
  const fresh = indent(old);
  return fresh === null ? null : fresh + line.slice(old.length);
}

/**
 * The transform that maps every model line's indentation onto its file line's, if one
 * uniform transform does: the identity, adding or removing one common prefix, or a
 * constant shift in levels (which also converts spaces to tabs and 2 to 4 spaces).
 * `modelUnit` and `fileUnit` come from detectIndentUnit on each side.
 */
export function findIndentTransform(
  pairs: readonly IndentPair[],
  modelUnit: string | undefined,
  fileUnit: string | undefined,
): IndentTransform | null {
  const real = pairs.filter((p) => p.model.trim() !== '');
  if (real.length === 0) return identityIndent;
  const indents = real.map((p) => ({ model: leadingWhitespace(p.model), file: leadingWhitespace(p.file) }));
  if (indents.every((p) => p.model === p.file)) return identityIndent;
  const first = indents[0];
  if (first === undefined) return identityIndent;
  if (first.file.endsWith(first.model)) {
    const prefix = first.file.slice(0, first.file.length - first.model.length);
    if (indents.every((p) => p.file === prefix + p.model)) {
      return (line) => reindent(line, (old) => prefix + old);
    }
  }
  if (first.model.endsWith(first.file)) {
    const prefix = first.model.slice(0, first.model.length - first.file.length);
    if (indents.every((p) => p.model === prefix + p.file)) {
      return (line) => reindent(line, (old) => (old.startsWith(prefix) ? old.slice(prefix.length) : null));
    }
  }
  return levelShift(indents, modelUnit ?? fileUnit, fileUnit ?? modelUnit);
}

function levelShift(
  indents: ReadonlyArray<{ model: string; file: string }>,
  modelUnit: string | undefined,
  fileUnit: string | undefined,
): IndentTransform | null {
  if (modelUnit === undefined || fileUnit === undefined) return null;
  const modelWidth = columns(modelUnit);
  const fileWidth = columns(fileUnit);
  const level = (indent: string, width: number) => columns(indent) / width;
  const shifts = indents.map((p) => level(p.file, fileWidth) - level(p.model, modelWidth));
  const shift = shifts[0] ?? 0;
  if (!shifts.every((s) => Math.abs(s - shift) < 1e-9)) return null;
  return (line) =>
    reindent(line, (old) => {
      const target = level(old, modelWidth) + shift;
      if (target < -1e-9) return null;
      const whole = Math.floor(target + 1e-9);
      const rest = Math.round((target - whole) * fileWidth);
      return fileUnit.repeat(whole) + ' '.repeat(rest);
    });
}

/**
 * Whether lines are indented with tabs or with spaces, if only one: a tab-led indent, or one of
 * two or more spaces. One space is left out (a doc comment's ` * ` under a tab-indented `/**`).
 */
export function indentStyle(lines: readonly string[]): '\t' | ' ' | undefined {
  let tabs = 0;
  let spaces = 0;
  for (const line of lines) {
    const indent = indentLength(line);
    if (isBlankAfter(line, indent)) continue;
    if (line.charCodeAt(0) === 9) tabs++;
    else if (indent >= 2) spaces++;
  }
  if (tabs > 0 && spaces === 0) return '\t';
  if (spaces > 0 && tabs === 0) return ' ';
  return undefined;
}

/** A SEARCH line and the file line it matched; undefined where it matched none or several. */
export type FileLineOf = (searchIndex: number) => string | undefined;

/** The file's indentation, asked only when needed: reading it scans every line. */
export interface FileIndent {
  /** detectIndentUnit of the file's lines. */
  unit: () => string | undefined;
  /** indentStyle of the file's lines. */
  style: () => '\t' | ' ' | undefined;
}

/**
 * The indentation of a REPLACE written in another style than its SEARCH and the file (tabs for
 * a file indented with spaces, or the reverse: the SEARCH was copied, the REPLACE typed): its
 * own level shift onto the file, measured on the lines it shares with SEARCH, else on its first
 * line standing where SEARCH's first line does. undefined: REPLACE needs no transform of its
 * own; null: no uniform one exists (the block is refused rather than written in mixed style).
 */
export function restyleReplace(
  search: readonly string[],
  replace: readonly string[],
  fileLineOf: FileLineOf,
  fileIndent: FileIndent,
): IndentTransform | null | undefined {
  const style = indentStyle(replace);
  if (style === ' ' && indentStyle(search) === ' ')
    return rescaleSpaces(search, replace, fileLineOf, fileIndent);
  if (style === undefined || indentStyle(search) === style) return undefined;
  // Only a file indented one way throughout: a file that mixes them on purpose (a Makefile's
  // tab recipes among space-indented lines) keeps what the model wrote. Read only now: it scans every line.
  const fileStyle = fileIndent.style();
  const fileUnit = fileStyle === undefined || fileStyle === style ? undefined : fileIndent.unit();
  if (fileUnit === undefined || fileUnit[0] !== fileStyle) return undefined;
  const shared = sharedLines(search, replace, fileLineOf);
  const firstReplace = replace.find((line) => line.trim() !== '');
  const firstSearch = search.findIndex((line) => line.trim() !== '');
  const firstFile = firstSearch === -1 ? undefined : fileLineOf(firstSearch);
  const anchor =
    firstReplace === undefined || firstFile === undefined
      ? []
      : [{ model: leadingWhitespace(firstReplace), file: leadingWhitespace(firstFile) }];
  // Every shared line if they agree; else a moved line (wrapped in a new `if`) disagrees, and the
  // first shared line, or the first lines of both, where a model starts its REPLACE, decide.
  for (const pairs of [shared, shared.slice(0, 1), anchor]) {
    if (pairs.length === 0) continue;
    const replaceUnit =
      style === '\t'
        ? '\t'
        : (spaceUnitFromPairs(pairs) ??
          detectIndentUnit(replace.filter((line) => leadingWhitespace(line).length !== 1)));
    const transform = levelShift(pairs, replaceUnit, fileUnit);
    if (transform !== null) return transform;
  }
  return null;
}

/**
 * A REPLACE typed at another width than the file's (2 spaces a level for a file of 4, or the
 * reverse) while SEARCH was copied: its levels are mapped onto the file's width, as tabs are.
 * Only on evidence: the file is indented with spaces throughout, REPLACE's own unit differs
 * from the file's, and the lines REPLACE shares with SEARCH (same text, other indentation)
 * all sit at the same level in both widths, at least one at a different number of columns.
 * A shared line that moved to another level (the model wrapped it in a new block) is no such
 * evidence, and REPLACE is then left as written (undefined), as before.
 */
function rescaleSpaces(
  search: readonly string[],
  replace: readonly string[],
  fileLineOf: FileLineOf,
  fileIndent: FileIndent,
): IndentTransform | undefined {
  const shared = sharedLines(search, replace, fileLineOf);
  if (!shared.some((p) => p.model !== p.file)) return undefined;
  const replaceUnit = detectIndentUnit(replace.filter((line) => leadingWhitespace(line).length !== 1));
  if (replaceUnit === undefined || replaceUnit.includes('\t')) return undefined;
  if (fileIndent.style() !== ' ') return undefined;
  const fileUnit = fileIndent.unit();
  if (fileUnit === undefined || fileUnit.includes('\t') || fileUnit.length === replaceUnit.length)
    return undefined;
  const sameLevel = shared.every(
    (p) =>
      p.model.length * fileUnit.length === p.file.length * replaceUnit.length && !/\t/.test(p.model + p.file),
  );
  return sameLevel ? (levelShift(shared, replaceUnit, fileUnit) ?? undefined) : undefined;
}

/** REPLACE lines whose text is a SEARCH line's: the model's indentation and the file's for it. */
function sharedLines(
  search: readonly string[],
  replace: readonly string[],
  fileLineOf: FileLineOf,
): Array<{ model: string; file: string }> {
  const pairs: Array<{ model: string; file: string }> = [];
  for (const line of replace) {
    if (line.trim() === '') continue;
    const at = search.findIndex((s) => s.trim() === line.trim());
    const file = at === -1 ? undefined : fileLineOf(at);
    if (file !== undefined) pairs.push({ model: leadingWhitespace(line), file: leadingWhitespace(file) });
  }
  return pairs;
}

/**
 * The model's space unit, read off lines it shares with a tab-indented file: 8 spaces where the
 * file has 2 tabs is 4. A REPLACE alone cannot tell 8 spaces at one level from 4 at two.
 */
function spaceUnitFromPairs(pairs: ReadonlyArray<{ model: string; file: string }>): string | undefined {
  const widths = new Set<number>();
  for (const { model, file } of pairs) {
    if (!/^\t+$/.test(file) || !/^ +$/.test(model)) continue;
    widths.add(model.length / file.length);
  }
  const [width] = widths;
  return widths.size === 1 && width !== undefined && Number.isInteger(width) ? ' '.repeat(width) : undefined;
}

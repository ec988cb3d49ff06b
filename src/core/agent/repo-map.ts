/**
 * Plan mode's repository map: the snapshot's file tree with sizes, and the top-level definitions
 * under each source file, cut to a token budget. What the task names is kept first
 * (repo-map-rank.ts); what is cut is counted, and the model is told how to reach it. The text is
 * part of the prompt's cached prefix, so it is deterministic: the same input gives the same bytes.
 */
import type { RepoFile } from '../ports/repo-reader.js';
import { folderOf, rankFiles } from './repo-map-rank.js';

/** What the map is built from. */
export interface RepoMapInput {
  /** The snapshot's files, as RepoReader.listFiles gives them. */
  files: readonly RepoFile[];
  /** Definition lines by path (DefinitionIndex.definitions); a file missing here is shown in the tree only. */
  definitions: ReadonlyMap<string, readonly string[]>;
  /** The task's text: the files and identifiers it names are kept first. */
  task: string;
  /** Files the task names to focus on. */
  focus?: readonly string[];
  /** The most tokens the map may take (about a tenth of the context). */
  budgetTokens: number;
  /** The prompt's token estimate for a text (the loop's own, so the map is measured as the prompt is). */
  estimateTokens: (text: string) => number;
}

const INDENT = '  ';

/**
 * The repository map's text, within `budgetTokens` as `estimateTokens` counts them. The budget is
 * spent in three passes: the files the task points at, with their definitions; then every other
 * file's line, most relevant first (the tree is the model's overview); then the definitions of
 * those, in the same order, while they fit.
 */
export function buildRepoMap(input: RepoMapInput): string {
  const total = input.files.length;
  if (total === 0) return 'Repository map: the snapshot has no files.\n';
  const cost = (line: string) => input.estimateTokens(`${line}\n`);
  const text: MapText = {
    header: `Repository map: ${total} files (sizes in bytes; top-level definitions under source files).`,
    counts: folderCounts(input.files),
    total,
  };
  const ranked = rankFiles(input);
  const room = { left: input.budgetTokens - cost(text.header) - cost(filesLeftOut(total, total)) };
  room.left -= cost(definitionsLeftOut(ranked.filter((r) => input.definitions.has(r.file.path)).length));
  const shown: Shown[] = [];
  const folders = new Set<string>();
  const definitionsCost = (entry: Shown) =>
    entry.all.reduce((sum, line) => sum + cost(defLine(line, depthOf(entry.file.path))), 0);
  const addFile = (file: RepoFile): Shown | null => {
    const newFolders = ancestors(file.path).filter((folder) => !folders.has(folder));
    const lineCost = newFolders.reduce(
      (sum, folder) => sum + cost(folderLine(folder, text.counts.get(folder) ?? 0, 0)),
      cost(fileLine(file)),
    );
    if (lineCost > room.left) return null;
    room.left -= lineCost;
    for (const folder of newFolders) folders.add(folder);
    const entry: Shown = { file, all: input.definitions.get(file.path) ?? [], lines: [] };
    shown.push(entry);
    return entry;
  };
  const addDefinitions = (entry: Shown) => {
    const needed = definitionsCost(entry);
    if (entry.all.length === 0 || needed > room.left) return;
    room.left -= needed;
    entry.lines = entry.all;
  };
  for (const { file, named } of ranked) {
    if (!named) continue;
    const entry = addFile(file);
    if (entry !== null) addDefinitions(entry);
  }
  const named = shown.length;
  for (const { file, named } of ranked) if (!named) addFile(file);
  for (const entry of shown.slice(named)) addDefinitions(entry);
  // The sums above count each line's tokens apart, which is never less than the whole for an
  // estimate that rounds up per piece; this check holds the budget for any other estimate.
  for (;;) {
    const rendered = render(text, shown);
    if (input.estimateTokens(rendered) <= input.budgetTokens || shown.length === 0) return rendered;
    shown.pop();
  }
}

interface MapText {
  header: string;
  /** Files under each folder in the snapshot. */
  counts: ReadonlyMap<string, number>;
  total: number;
}

interface Shown {
  file: RepoFile;
  /** Its definitions. */
  all: readonly string[];
  /** Those shown: all of them, or none when they did not fit. */
  lines: readonly string[];
}

function filesLeftOut(left: number, total: number): string {
  return `${left} of ${total} files are not shown: list_files and search_files reach them.`;
}

function definitionsLeftOut(files: number): string {
  return `The definitions of ${files === 1 ? '1 file are' : `${files} files are`} left out: read_file shows them.`;
}

function render(text: MapText, shown: readonly Shown[]): string {
  const byPath = [...shown].sort((a, b) => compareTreeOrder(a.file.path, b.file.path));
  const shownCounts = folderCounts(byPath.map((entry) => entry.file));
  const out = [text.header];
  const opened = new Set<string>();
  for (const { file, lines } of byPath) {
    for (const folder of ancestors(file.path)) {
      if (opened.has(folder)) continue;
      opened.add(folder);
      out.push(folderLine(folder, text.counts.get(folder) ?? 0, shownCounts.get(folder) ?? 0));
    }
    out.push(fileLine(file));
    for (const line of lines) out.push(defLine(line, depthOf(file.path)));
  }
  if (shown.length < text.total) out.push(filesLeftOut(text.total - shown.length, text.total));
  const cut = shown.filter((entry) => entry.all.length > 0 && entry.lines.length === 0).length;
  if (cut > 0) out.push(definitionsLeftOut(cut));
  return `${out.join('\n')}\n`;
}

/** `src/core/ (12 files)`, or `(12 files, 5 shown)` when some are cut. */
function folderLine(folder: string, count: number, shownCount: number): string {
  const depth = folder.split('/').length - 1;
  const name = folder.slice(folder.lastIndexOf('/') + 1);
  const files = count === 1 ? '1 file' : `${count} files`;
  return `${INDENT.repeat(depth)}${name}/ (${files}${shownCount < count ? `, ${shownCount} shown` : ''})`;
}

function fileLine(file: RepoFile): string {
  const name = file.path.slice(file.path.lastIndexOf('/') + 1);
  const kind = file.kind === 'symlink' ? ', symlink' : '';
  return `${INDENT.repeat(depthOf(file.path))}${name} (${formatSize(file.bytes)}${kind})`;
}

/** How many folders `path` lies in. */
function depthOf(path: string): number {
  return path.split('/').length - 1;
}

function defLine(line: string, depth: number): string {
  return `${INDENT.repeat(depth + 1)}${line}`;
}

/** `312 B`, `2.1 KB`, `14 MB`: short, and the same on every machine (no locale). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value).toString()} ${units[unit] ?? 'GB'}`;
}

/** Every folder above `path`, outermost first: `a/b/c.ts` → `a`, `a/b`. */
function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let folder = folderOf(path); folder !== ''; folder = folderOf(folder)) out.unshift(folder);
  return out;
}

/** How many files lie under each folder, at any depth. */
function folderCounts(files: readonly RepoFile[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const file of files)
    for (const folder of ancestors(file.path)) counts.set(folder, (counts.get(folder) ?? 0) + 1);
  return counts;
}

/**
 * Tree order: in each folder its subfolders first, then its files, each by name (code units, not
 * the locale's collation, so every machine sorts the same).
 */
function compareTreeOrder(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  for (let i = 0; ; i++) {
    const x = left[i];
    const y = right[i];
    if (x === undefined || y === undefined) return left.length - right.length;
    if (x === y) continue;
    const xFolder = i < left.length - 1;
    const yFolder = i < right.length - 1;
    if (xFolder !== yFolder) return xFolder ? -1 : 1;
    return x < y ? -1 : 1;
  }
}

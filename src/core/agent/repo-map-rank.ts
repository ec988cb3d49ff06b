/**
 * The order in which the repository map keeps files when it must cut: the files the task names
 * (their path, a path's tail or their basename, and the `focus` files), the files defining the
 * identifiers the task names, then the files beside those, then the rest, shallow first.
 * Pure and deterministic: the same input gives the same order.
 */
import type { RepoFile } from '../ports/repo-reader.js';

/** What the ranking reads of the task. */
export interface RankInput {
  files: readonly RepoFile[];
  definitions: ReadonlyMap<string, readonly string[]>;
  /** The task's text: paths and identifiers in it pull their files up. */
  task: string;
  /** Files the task names to focus on (workspace-relative paths). */
  focus?: readonly string[];
}

const NAMED_PATH = 100;
const NAMED_TAIL = 80;
const NAMED_BASENAME = 60;
const DEFINES_NAME = 30;
const HAS_METHOD = 10;
const NAMED_STEM = 20;
const MAX_IDENTIFIER_SCORE = 90;
const SAME_FOLDER = 8;
const NEAR_FOLDER = 3;

/** Words of a line of definitions that are syntax, not names the task could mean. */
const KEYWORDS = new Set(
  (
    'function class interface type enum const var let def async func fn struct trait impl for mod static ' +
    'macro namespace record module export default typedef union int void char long short unsigned bool'
  ).split(' '),
);
/** Task words too common to tie a task to a file by its stem (`the main index` names no file). */
const COMMON = new Set(
  'main index test tests spec utils util lib src types with from that this have make'.split(' '),
);

/** A file and how strongly the task points at it (0: not at all). */
export interface RankedFile {
  file: RepoFile;
  score: number;
  /** The task names it: its path, its name, the identifiers it defines (not only its folder). */
  named: boolean;
}

/** `files` most relevant to the task first; ties shallow first, then by path. */
export function rankFiles(input: RankInput): RankedFile[] {
  const tokens = pathTokens(input.task);
  const identifiers = new Set(input.task.match(/[A-Za-z_$][\w$]*/g) ?? []);
  const words = new Set([...identifiers].map((word) => word.toLowerCase()).filter((w) => w.length >= 4));
  const focus = new Set((input.focus ?? []).map((path) => path.replace(/^\.\//, '')));
  const direct = new Map<string, number>();
  for (const file of input.files) {
    const score =
      namedScore(file.path, tokens, focus) +
      stemScore(file.path, words) +
      identifierScore(input.definitions.get(file.path) ?? [], identifiers);
    if (score > 0) direct.set(file.path, score);
  }
  const seeds = new Set([...direct.keys()].map(folderOf));
  const score = (path: string) => (direct.get(path) ?? 0) + nearScore(folderOf(path), seeds);
  return input.files
    .map((file) => ({ file, score: score(file.path), named: direct.has(file.path) }))
    .sort((a, b) => {
      if (a.score !== b.score) return b.score - a.score;
      const depth = depthOf(a.file.path) - depthOf(b.file.path);
      if (depth !== 0) return depth;
      return a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0;
    });
}

/** The task split on white space, quotes and brackets, trailing punctuation off: `src/a.ts,` → `src/a.ts`. */
function pathTokens(task: string): Set<string> {
  return new Set(
    task
      .split(/[\s`'"()[\]{}<>]+/)
      .map((token) => token.replace(/^\.\//, '').replace(/[.,:;!?]+$/, ''))
      .filter((token) => token.length > 0),
  );
}

function namedScore(path: string, tokens: ReadonlySet<string>, focus: ReadonlySet<string>): number {
  if (focus.has(path) || tokens.has(path)) return NAMED_PATH;
  for (const token of tokens) if (token.includes('/') && path.endsWith(`/${token}`)) return NAMED_TAIL;
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base.includes('.') && tokens.has(base) ? NAMED_BASENAME : 0;
}

/** `inventory.ts` for a task that says "the inventory report". */
function stemScore(path: string, words: ReadonlySet<string>): number {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const stem = (base.includes('.') ? base.slice(0, base.indexOf('.')) : base).toLowerCase();
  return stem.length >= 4 && !COMMON.has(stem) && words.has(stem) ? NAMED_STEM : 0;
}

function identifierScore(lines: readonly string[], identifiers: ReadonlySet<string>): number {
  let score = 0;
  for (const line of lines) {
    const { names, members } = definitionNames(line);
    for (const name of names) if (identifiers.has(name)) score += DEFINES_NAME;
    for (const member of members) if (identifiers.has(member)) score += HAS_METHOD;
  }
  return Math.min(score, MAX_IDENTIFIER_SCORE);
}

/**
 * The names a definition line defines (`class Inventory: add, remove` → Inventory; add and remove
 * as members), read from the line's text: parameter lists and type arguments are not names.
 */
export function definitionNames(line: string): { names: string[]; members: string[] } {
  const split = topLevelColon(line);
  let heading = split === -1 ? line : line.slice(0, split);
  // Innermost brackets first, until none is left: `f(a: () => T)` → `f `.
  for (let before = ''; before !== heading;) {
    before = heading;
    heading = heading.replace(/\([^()]*\)|<[^<>]*>|\[[^[\]]*\]/g, ' ');
  }
  const names = (heading.match(/[A-Za-z_$][\w$]*/g) ?? []).filter(
    (word) => word.length >= 3 && !KEYWORDS.has(word),
  );
  const members = split === -1 ? [] : (line.slice(split + 2).match(/[A-Za-z_$][\w$]*/g) ?? []);
  return { names, members: members.filter((word) => word.length >= 3) };
}

/** Where `: ` starts the member list: outside any brackets (a parameter's `a: T` is not it), or -1. */
function topLevelColon(line: string): number {
  let depth = 0;
  for (let i = 0; i < line.length - 1; i++) {
    const char = line[i] ?? '';
    if ('([<{'.includes(char)) depth++;
    else if (')]>}'.includes(char) && line[i - 1] !== '=') depth = Math.max(0, depth - 1);
    else if (char === ':' && line[i + 1] === ' ' && depth === 0) return i;
  }
  return -1;
}

function nearScore(folder: string, seeds: ReadonlySet<string>): number {
  if (seeds.has(folder)) return SAME_FOLDER;
  const parent = folderOf(folder);
  for (const seed of seeds)
    if (seed !== '' && (seed === parent || folderOf(seed) === folder)) return NEAR_FOLDER;
  return 0;
}

/** `src/a/b.ts` → `src/a`; a top-level file's folder is ''. */
export function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

function depthOf(path: string): number {
  return path.split('/').length;
}

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

/** `files` most relevant to the task first; ties shallow first, then by path. */
export function rankFiles(input: RankInput): RepoFile[] {
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
  const scores = new Map(input.files.map((file) => [file.path, score(file.path)]));
  return [...input.files].sort((a, b) => {
    const diff = (scores.get(b.path) ?? 0) - (scores.get(a.path) ?? 0);
    if (diff !== 0) return diff;
    const depth = depthOf(a.path) - depthOf(b.path);
    if (depth !== 0) return depth;
    return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
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
  const split = line.indexOf(': ');
  const heading = split === -1 ? line : line.slice(0, split);
  const bare = heading.replace(/\([^)]*\)|<[^>]*>|\[[^\]]*\]/g, ' ');
  const names = (bare.match(/[A-Za-z_$][\w$]*/g) ?? []).filter(
    (word) => word.length >= 3 && !KEYWORDS.has(word),
  );
  const members = split === -1 ? [] : (line.slice(split + 2).match(/[A-Za-z_$][\w$]*/g) ?? []);
  return { names, members: members.filter((word) => word.length >= 3) };
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

/**
 * Protected paths (threats T6 and T7): files a change may not write without the user's second,
 * explicit yes — tests and snapshots (editing them can make verification pass without fixing
 * anything), lockfiles, CI workflows, hooks, package scripts (code that runs later on someone's
 * machine), `.aide/` itself. Rules are globs relative to the workspace root; `glob#/pointer`
 * protects one value inside a JSON file, so a dependency bump in package.json stays an
 * ordinary edit while a change to its `scripts` does not.
 */
import picomatch from 'picomatch';
import type { ProtectedChange } from '../ports/approval.js';

/** A changed file, with lazy access to its bytes before and after (null: absent on that side). */
export interface ProtectedCandidate {
  path: string;
  before: () => Promise<Uint8Array | null>;
  after: () => Promise<Uint8Array | null>;
}

interface Rule {
  text: string;
  matches: (path: string) => boolean;
  /** RFC 6901 pointer into a JSON file, without the leading '#'; null: the whole file. */
  pointer: string | null;
}

/**
 * Protected whatever config.json says: the files that define proof (the verify commands, their
 * network policy, the protected list itself). A change that empties `protected_paths` must
 * still be caught, so this rule cannot live in the list it guards.
 */
export const ALWAYS_PROTECTED: readonly string[] = ['.aide/**'];

export interface MatchOptions {
  /**
   * Match without regard to case: the workspace's file system ignores it (macOS and Windows by
   * default), so `TEST/a.js` or `.AIDE/sandbox.json` is the same file as the lower-case name.
   */
  caseInsensitive?: boolean;
}

/**
 * Text every path a glob matches holds, which a path can be checked for before the glob's regular
 * expression is made and run: a review of a typical commit asks about ten paths, most of which no
 * rule covers, and making and first running the regular expressions of the ~60 default rules cost
 * 4–5 ms of a hook's start. It is the glob's longest run of plain characters: between `*`, `?`
 * and `/` (`**\/` also matches nothing, so a `/` is never required), printable ASCII only (with
 * `nocase`, picomatch's `i` flag folds only ASCII letters to ASCII ones, which the path and the
 * text are both lowered for). Null when the glob has other syntax (braces, classes, extglobs,
 * escapes, negation, quotes and a leading `./`, which picomatch drops): then the regular expression
 * alone decides. A test holds this to picomatch's own decisions on generated globs and paths.
 */
function requiredText(glob: string, caseInsensitive: boolean): string | null {
  if (/[\\[\]{}()!+@|"]/.test(glob) || glob.startsWith('./')) return null;
  let longest = '';
  for (const run of glob.split(/[*?/]|[^ -~]/)) if (run.length > longest.length) longest = run;
  if (longest === '') return null;
  return caseInsensitive ? asciiLower(longest) : longest;
}

function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

function compile(text: string, options: MatchOptions): Rule {
  const hash = text.indexOf('#');
  const glob = hash === -1 ? text : text.slice(0, hash);
  const caseInsensitive = options.caseInsensitive === true;
  const required = requiredText(glob, caseInsensitive);
  let regex: RegExp | undefined;
  // What picomatch(glob)(path) decides, without the result object it makes per call: an apply of
  // 2,000 files asks every rule about every file (110,000 calls with the default rules).
  const matches = (path: string) => {
    if (path === '') return false;
    if (path === glob) return true;
    if (required !== null && !(caseInsensitive ? asciiLower(path) : path).includes(required)) return false;
    // dot: `.github/workflows/**` and `**/test/**` must match dotted names too.
    regex ??= picomatch.makeRe(glob, { dot: true, nocase: caseInsensitive });
    return regex.test(path);
  };
  return { text, matches, pointer: hash === -1 ? null : text.slice(hash + 1) };
}

/** The value a JSON pointer names, or undefined when the document has none there. */
export function jsonPointerValue(document: unknown, pointer: string): unknown {
  if (pointer === '') return document;
  let value: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

const UNREADABLE = Symbol('unreadable');

/** The value at `pointer` in a JSON file's bytes; UNREADABLE when they are not JSON. */
function valueIn(bytes: Uint8Array | null, pointer: string): unknown {
  if (bytes === null) return undefined;
  try {
    return jsonPointerValue(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)), pointer);
  } catch {
    return UNREADABLE;
  }
}

/** Whether a change alters the value a pointer names; a side that is not JSON counts as a change. */
async function pointerChanged(candidate: ProtectedCandidate, pointer: string): Promise<boolean> {
  const before = valueIn(await candidate.before(), pointer);
  const after = valueIn(await candidate.after(), pointer);
  if (before === UNREADABLE || after === UNREADABLE) return true;
  return JSON.stringify(before) !== JSON.stringify(after);
}

/**
 * The changed files a rule covers, each with the first rule that matched (the configured ones
 * first, then ALWAYS_PROTECTED). A `#/pointer` rule covers a file only when the value it names
 * changed (added, removed or edited). `rules` must be the list as it was before the change: a
 * change to config.json cannot decide whether it is itself protected.
 */
export async function findProtected(
  rules: readonly string[],
  candidates: readonly ProtectedCandidate[],
  options: MatchOptions = {},
): Promise<ProtectedChange[]> {
  const compiled = [...rules, ...ALWAYS_PROTECTED.filter((rule) => !rules.includes(rule))].map((rule) =>
    compile(rule, options),
  );
  const found: ProtectedChange[] = [];
  for (const candidate of candidates) {
    for (const rule of compiled) {
      if (!rule.matches(candidate.path)) continue;
      if (rule.pointer !== null && !(await pointerChanged(candidate, rule.pointer))) continue;
      found.push({ path: candidate.path, rule: rule.text });
      break;
    }
  }
  return found;
}

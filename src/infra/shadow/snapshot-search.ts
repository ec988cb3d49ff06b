/**
 * search_files over one tree of the shadow repository: `git grep` against the tree's objects,
 * never the working tree. Two calls: `--count` for every matching file (the counts are whole),
 * then `-n --max-count` for the lines of the files shown only, so a pattern that matches most of
 * a large repository costs one count per file, not every matching line.
 *
 * Patterns are POSIX extended (`-E`) as glibc reads them, which knows `\w`, `\s`, `\b` and `\<`
 * but reads `\d` as a plain `d`: models write `\d` all the time, so it is turned into `[0-9]`
 * first. `-I` skips binary files (a NUL in the first 8000 bytes, git's own test).
 */
import { GitCommandError, type ShadowGit } from './git.js';
import { objectsOnly } from './scratch/object-reader.js';
import type { SearchHit, SearchOutcome, SearchRequest } from '../../core/ports/repo-reader.js';

/** A search of a large repository still answers within a model turn. */
const SEARCH_TIMEOUT_MS = 60_000;

/** `\d` and `\D` as ERE bracket expressions (inside a bracket, `\d` becomes `0-9`). */
export function toExtendedRegex(pattern: string): string {
  let out = '';
  let inBracket = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] ?? '';
    const next = pattern[i + 1];
    if (char === '\\' && next !== undefined) {
      if (next === 'd') out += inBracket ? '0-9' : '[0-9]';
      else if (next === 'D' && !inBracket) out += '[^0-9]';
      else out += char + next;
      i++;
      continue;
    }
    if (char === '[' && !inBracket) {
      inBracket = true;
      out += char;
      // A `]` right after `[` or `[^` is a member, not the end.
      if (pattern[i + 1] === '^') out += pattern[++i] ?? '';
      if (pattern[i + 1] === ']') out += pattern[++i] ?? '';
      continue;
    }
    if (char === ']' && inBracket) inBracket = false;
    out += char;
  }
  return out;
}

/** `*.{ts,tsx}` → `*.ts`, `*.tsx` (one level; git's glob magic has no braces). */
export function expandBraces(glob: string): string[] {
  const match = /\{([^{}]*)\}/.exec(glob);
  if (match === null) return [glob];
  const before = glob.slice(0, match.index);
  const after = glob.slice(match.index + match[0].length);
  return (match[1] ?? '').split(',').flatMap((choice) => expandBraces(`${before}${choice}${after}`));
}

/** A literal path as a part of a glob pathspec. */
function escapeGlob(path: string): string {
  return path.replace(/[*?[\]\\]/g, '\\$&');
}

/**
 * The pathspecs for a search: the folder or file `path` (literal), and the glob within it. A
 * glob without a '/' matches names at any depth, like ripgrep's `--glob` (`*.ts` is every
 * TypeScript file, not only those at the top); one with a '/' is read from `path` (or the root).
 * When `path` names one file the glob is not applied: the file is what was asked for.
 */
export function pathspecs(request: Pick<SearchRequest, 'path' | 'glob'>, pathIsFile: boolean): string[] {
  const path = request.path;
  const glob = request.glob?.replace(/^(?:\.\/|\/)+/, '');
  if (glob === undefined || glob === '' || (path !== undefined && pathIsFile))
    return path === undefined ? [] : [`:(literal)${path}`];
  const base = path === undefined ? '' : `${escapeGlob(path)}/`;
  return expandBraces(glob).map((choice) => {
    if (path !== undefined && choice.startsWith(`${path}/`)) return `:(glob)${choice}`;
    return `:(glob)${base}${choice.includes('/') ? '' : '**/'}${choice}`;
  });
}

/** What git says about a pattern it cannot read: "fatal: -e option, 'a(': Unmatched ( or \(". */
const BAD_PATTERN = /^fatal: (?:-e option|command line), '[\s\S]*?': (.+)$/m;

/** The files of a `--count -z` answer: "<tree>:<path>\0<count>\n" each. */
function parseCounts(stdout: Buffer, prefix: string): Array<{ path: string; count: number }> {
  const out: Array<{ path: string; count: number }> = [];
  let at = 0;
  while (at < stdout.length) {
    const nul = stdout.indexOf(0, at);
    const eol = stdout.indexOf(0x0a, nul);
    if (nul === -1 || eol === -1) break;
    const path = decodePath(stdout.subarray(at, nul), prefix);
    if (path !== null) out.push({ path, count: Number(stdout.toString('latin1', nul + 1, eol)) });
    at = eol + 1;
  }
  return out;
}

/** The lines of a `-n -z` answer: "<tree>:<path>\0<line>\0<text>\n" each. */
function parseLines(stdout: Buffer, prefix: string): Map<string, Array<{ line: number; text: string }>> {
  const out = new Map<string, Array<{ line: number; text: string }>>();
  let at = 0;
  while (at < stdout.length) {
    const nul = stdout.indexOf(0, at);
    const second = stdout.indexOf(0, nul + 1);
    const eol = stdout.indexOf(0x0a, second);
    if (nul === -1 || second === -1 || eol === -1) break;
    const path = decodePath(stdout.subarray(at, nul), prefix);
    if (path !== null) {
      const lines = out.get(path) ?? [];
      const text = stdout.toString('utf8', second + 1, eol).replace(/\r$/, '');
      lines.push({ line: Number(stdout.toString('latin1', nul + 1, second)), text });
      out.set(path, lines);
    }
    at = eol + 1;
  }
  return out;
}

/** The path after "<tree>:", or null when its bytes are not UTF-8 (the listing leaves those out too). */
function decodePath(bytes: Buffer, prefix: string): string | null {
  const path = bytes.subarray(prefix.length);
  const text = path.toString('utf8');
  return Buffer.from(text, 'utf8').equals(path) ? text : null;
}

/**
 * Runs a search against `tree`. `readable` says which paths may appear (the listing's regular
 * files: symlinks, submodules and non-UTF-8 names never do); `isFile` whether `path` is a file.
 */
export async function searchTree(
  git: ShadowGit,
  tree: string,
  request: SearchRequest,
  readable: (path: string) => boolean,
  isFile: boolean,
): Promise<SearchOutcome> {
  if (/[\r\n]/.test(request.pattern))
    return {
      ok: false,
      reason: 'bad_pattern',
      detail: 'a pattern is one line: it may not hold a line break',
    };
  const pattern = toExtendedRegex(request.pattern);
  const specs = pathspecs(request, isFile);
  const common = ['grep', '-E', '-I', '-z', '--no-color', '-e', pattern];
  const options = { ...objectsOnly(git), okCodes: [1], timeoutMs: SEARCH_TIMEOUT_MS };
  let counted: Buffer;
  try {
    counted = (await git.run([...common, '--count', tree, '--', ...specs], options)).stdout;
  } catch (error) {
    const bad = error instanceof GitCommandError ? BAD_PATTERN.exec(error.stderr) : null;
    if (bad === null) throw error;
    return { ok: false, reason: 'bad_pattern', detail: (bad[1] ?? '').trim() };
  }
  const prefix = `${tree}:`;
  const files = parseCounts(counted, prefix).filter((file) => readable(file.path));
  const shown = files.slice(0, request.maxFiles);
  const lines =
    shown.length === 0 || request.maxLinesPerFile < 1
      ? new Map<string, Array<{ line: number; text: string }>>()
      : parseLines(
          (
            await git.run(
              [
                ...common,
                '-n',
                `--max-count=${request.maxLinesPerFile}`,
                tree,
                '--',
                ...shown.map((f) => `:(literal)${f.path}`),
              ],
              options,
            )
          ).stdout,
          prefix,
        );
  const hits: SearchHit[] = shown.map((file) => ({ ...file, lines: lines.get(file.path) ?? [] }));
  return { ok: true, hits, truncated: files.length > shown.length };
}

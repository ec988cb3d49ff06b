/**
 * search_files' answer for the hits of one search: pure formatting, like read-file-view.ts for
 * read_file. The files come first with their counts, so a model sees where to look before it
 * reads any line; then a few numbered lines per file, in the same `  12 | text` form read_file
 * uses, so a line found here is the line read_file shows at that number.
 */
import type { SearchHit } from '../ports/repo-reader.js';
import { plural } from '../../shared/text.js';
import type { ToolResult } from './loop-types.js';
import { invisibleFlags, invisibleWarning, numberLines } from './read-file-view.js';

/** How much of the hits is shown. */
export interface HitLimits {
  /** Files shown at most (50). */
  maxSearchFiles: number;
  /** Characters of a matching line shown. */
  maxLineChars: number;
}

/** " under src", " in files matching *.ts": the scope of a search, for its messages. */
export function scopeOf(path: string, glob: string | undefined): string {
  return `${path === '' ? '' : ` under ${path}`}${glob === undefined ? '' : ` in files matching ${glob}`}`;
}

/** A hint for a pattern that matched nothing but uses characters a regular expression reads specially. */
export function literalHint(pattern: string): string {
  return /[()[\]{}.*+?|^$\\]/.test(pattern)
    ? ' The pattern is a regular expression (POSIX extended): to match ( ) [ ] { } . * + ? | ^ $ literally, put a backslash before them.'
    : '';
}

/**
 * search_files' answer: the files first with their match counts (at most `maxSearchFiles`), a
 * line when more match and one when secret files were left out, then each file's first
 * matching lines, numbered, and a warning when they hold invisible characters.
 */
export function viewHits(
  all: readonly SearchHit[],
  found: { more: boolean; secrets: number; pattern: string; scope: string },
  limits: HitLimits,
): ToolResult {
  const { more, secrets, pattern, scope } = found;
  const hits = all.slice(0, limits.maxSearchFiles);
  const lines = hits.reduce((sum, hit) => sum + hit.count, 0);
  const out = [
    `${pattern} matches ${plural(lines, 'line')} in ${plural(hits.length, 'file')}${more ? ' (and more files)' : ''}${scope}:`,
  ];
  for (const hit of hits) out.push(`${hit.path}: ${hit.count}`);
  if (more) out.push(`… more files match: narrow the search with path or glob.`);
  if (secrets > 0)
    out.push(`(${plural(secrets, 'secret file')} matched and ${secrets === 1 ? 'is' : 'are'} not shown.)`);
  const flags: string[] = [];
  for (const hit of hits) {
    out.push('', hit.path);
    for (const line of hit.lines) {
      out.push(...numberLines([line.text], line.line, limits.maxLineChars));
      flags.push(...invisibleIn(hit.path, line.line, line.text));
    }
    if (hit.count > hit.lines.length) out.push(`  (${hit.count - hit.lines.length} more in this file)`);
  }
  const warning = invisibleWarning(flags);
  if (warning !== undefined) out.push('', warning);
  return {
    ok: true,
    forModel: out.join('\n'),
    forUser: `searched ${pattern}${scope}: ${plural(hits.length, 'file')}${more ? '+' : ''}`,
  };
}

function invisibleIn(path: string, line: number, text: string): string[] {
  return invisibleFlags([text], line).map((flag) => `${path} ${flag}`);
}

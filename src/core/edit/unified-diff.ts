/** Unified diffs of planned changes, for --dry-run and for review. */
import { createTwoFilesPatch } from 'diff';
import { renderText, type TextFile } from './text-file.js';

export interface DiffStat {
  added: number;
  removed: number;
}

/** A git-style unified diff of one file (a/ and b/ prefixes, /dev/null for creates and deletes). */
export function unifiedDiff(path: string, before: TextFile | null, after: TextFile | null): string {
  const patch = createTwoFilesPatch(
    before === null ? '/dev/null' : `a/${path}`,
    after === null ? '/dev/null' : `b/${path}`,
    before === null ? '' : renderText(before),
    after === null ? '' : renderText(after),
    undefined,
    undefined,
    { context: 3 },
  );
  // jsdiff starts with an "Index:" line and a "====" rule; git's format starts at "---".
  const lines = patch.split('\n');
  const start = lines.findIndex((line) => line.startsWith('--- '));
  return lines.slice(start === -1 ? 0 : start).join('\n');
}

export function diffStat(diff: string): DiffStat {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++ ')) added++;
    else if (line.startsWith('-') && !line.startsWith('--- ')) removed++;
  }
  return { added, removed };
}

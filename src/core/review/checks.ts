/**
 * The static checks of `aide review`, on the files a change touches (ports/review.ts): what a
 * reviewer cannot see or should not let through, found in the lines the change adds only, so a
 * problem already in the repository does not block an unrelated commit.
 */
import type { ReviewedFile } from '../ports/review.js';
import { findInvisible } from '../security/invisible.js';
import { findProtected, type MatchOptions } from '../security/protected-paths.js';
import { entropyApplies } from '../security/secret-entropy.js';
import { ALLOW_SECRET, findSecrets } from '../security/secret-patterns.js';
import { isIgnored, REVIEW_IGNORE_FILE, type IgnoreEntry } from './review-ignore.js';

/** The checks, in the order they are shown. `verify` and `model` run outside this module. */
export const CHECK_NAMES = [
  'invisible-unicode',
  'conflict-markers',
  'protected-paths',
  'secrets',
  'large-files',
  'verify',
  'model',
] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

/** One thing a check found. */
export interface Finding {
  check: CheckName;
  file: string;
  /** 1-based line, or null for the file as a whole. */
  line: number | null;
  /** What is wrong; never a secret's value. */
  message: string;
  /** What to do about it. */
  fix: string;
  /** The rule behind it, where a check has several (a secret's format): what `.aide/review-ignore` names. */
  rule?: string;
  /**
   * A warning is shown but does not fail the check; `info` comes from the model check only
   * (whose findings fail it as review.model_blocks_on says, whatever their severity).
   */
  severity: 'error' | 'warning' | 'info';
}

/** How one check ended. */
export interface CheckResult {
  name: CheckName;
  status: 'passed' | 'failed' | 'skipped';
  /** Why it was skipped, or a one-line note. */
  reason?: string;
  findings: Finding[];
  /** Extra lines shown under a failure (a verify command's output tail). */
  details?: string[];
}

/** Settings of the static checks. */
export interface StaticCheckOptions {
  /** config.json's protected_paths. */
  protectedPaths: readonly string[];
  protectedMatch?: MatchOptions;
  /** review.protected: "block" makes a change to a protected path fail the check, not only warn. */
  protectedBlocks: boolean;
  /** Larger added or changed files fail large-files. */
  maxFileBytes: number;
  /** `.aide/review-ignore`'s entries: secrets findings known to be false positives. */
  ignore?: readonly IgnoreEntry[];
}

export const DEFAULT_MAX_FILE_BYTES = 500 * 1024;

/** A git conflict marker as git writes it: at line start, the 7-character run, a label or nothing. */
const CONFLICT_MARKER = /^(?:<{7} |<{7}$|={7}$|>{7} |>{7}$|\|{7} |\|{7}$)/;

function invisibleUnicode(files: readonly ReviewedFile[]): Finding[] {
  const found: Finding[] = [];
  for (const file of files) {
    for (const { line, text } of file.added) {
      for (const hit of findInvisible(text)) {
        // A byte-order mark opening a file is how some editors save UTF-8; elsewhere it hides.
        if (hit.codePoint === 0xfeff && line === 1 && hit.column === 1) continue;
        found.push({
          check: 'invisible-unicode',
          file: file.path,
          line,
          message: `${hit.label} at column ${hit.column}`,
          fix: 'Remove the character (it is invisible in most editors and diffs).',
          severity: 'error',
        });
      }
    }
  }
  return found;
}

function conflictMarkers(files: readonly ReviewedFile[]): Finding[] {
  const found: Finding[] = [];
  for (const file of files) {
    for (const { line, text } of file.added) {
      if (!CONFLICT_MARKER.test(text)) continue;
      found.push({
        check: 'conflict-markers',
        file: file.path,
        line,
        message: `merge conflict marker ${JSON.stringify(text.slice(0, 7))}`,
        fix: 'Resolve the conflict and remove the marker lines, then stage the file again.',
        severity: 'error',
      });
    }
  }
  return found;
}

async function protectedPaths(
  files: readonly ReviewedFile[],
  options: StaticCheckOptions,
): Promise<Finding[]> {
  const hits = await findProtected(options.protectedPaths, files, options.protectedMatch);
  return hits.map((hit) => ({
    check: 'protected-paths',
    file: hit.path,
    line: null,
    message: `changes a protected path (rule ${hit.rule})`,
    fix: options.protectedBlocks
      ? 'review.protected is "block" in .aide/config.json: commit it past the hook on purpose (AIDE_SKIP=protected-paths), or unstage it.'
      : 'Make sure this change is intended: tests, lockfiles, CI and hooks decide what passes.',
    severity: options.protectedBlocks ? 'error' : 'warning',
  }));
}

function secrets(files: readonly ReviewedFile[], ignore: readonly IgnoreEntry[]): Finding[] {
  const found: Finding[] = [];
  for (const file of files) {
    const entropy = entropyApplies(file.path);
    for (const { line, text } of file.added) {
      for (const hit of findSecrets(text, { entropy })) {
        if (isIgnored(ignore, { file: file.path, rule: hit.rule.id, line })) continue;
        found.push({
          check: 'secrets',
          file: file.path,
          line,
          message: `${hit.rule.description} (${hit.rule.id}) ${hit.masked} at column ${hit.column}`,
          fix: `Remove it and revoke it (it may already be copied); a known false positive: add the comment ${ALLOW_SECRET} on the line, or the line ${file.path}:${hit.rule.id}:${line} to ${REVIEW_IGNORE_FILE}.`,
          rule: hit.rule.id,
          severity: 'error',
        });
      }
    }
  }
  return found;
}

function largeFiles(files: readonly ReviewedFile[], options: StaticCheckOptions): Finding[] {
  return files
    .filter(
      (f) => f.action !== 'deleted' && !f.lfsPointer && f.bytes !== null && f.bytes > options.maxFileBytes,
    )
    .map((f) => ({
      check: 'large-files',
      file: f.path,
      line: null,
      message: `${Math.ceil((f.bytes ?? 0) / 1024)} KiB, over the ${Math.floor(options.maxFileBytes / 1024)} KiB limit`,
      fix: 'Keep large files out of git (or track them with Git LFS).',
      severity: 'error',
    }));
}

function result(name: CheckName, findings: Finding[]): CheckResult {
  return { name, status: findings.some((f) => f.severity === 'error') ? 'failed' : 'passed', findings };
}

/** The static checks on a change; `skip` names checks reported as skipped without running. */
export async function runStaticChecks(
  files: readonly ReviewedFile[],
  options: StaticCheckOptions,
  skip: ReadonlySet<string>,
): Promise<CheckResult[]> {
  const run: Array<[CheckName, () => Promise<Finding[]> | Finding[]]> = [
    ['invisible-unicode', () => invisibleUnicode(files)],
    ['conflict-markers', () => conflictMarkers(files)],
    ['protected-paths', () => protectedPaths(files, options)],
    ['secrets', () => secrets(files, options.ignore ?? [])],
    ['large-files', () => largeFiles(files, options)],
  ];
  const results: CheckResult[] = [];
  for (const [name, check] of run) {
    if (skip.has(name))
      results.push({ name, status: 'skipped', reason: '--skip or AIDE_SKIP', findings: [] });
    else results.push(result(name, await check()));
  }
  return results;
}

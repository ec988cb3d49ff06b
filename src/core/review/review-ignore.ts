/**
 * `.aide/review-ignore`: findings of the secrets check that are known false positives, one
 * fingerprint a line, in the manner of gitleaks' `.gitleaksignore`:
 *
 *     # a test fixture's fake key
 *     test/fixtures/config.json:generic-secret-assignment:12
 *     docs/tokens.md:github-pat
 *
 * `path:rule:line` silences one finding (the line in the reviewed version of the file),
 * `path:rule` every finding of that rule in that file. Read from the reviewed tree, so the ignore
 * is part of the change (and, under `.aide/`, a protected path a reviewer sees). A line that is
 * none of these, or names no rule, is an error: a typo must not silently let a secret through.
 */
import { AideError } from '../../shared/errors.js';
import { ENTROPY_RULE_ID } from '../security/secret-entropy.js';
import { SECRET_RULES } from '../security/secret-patterns.js';

/** Where the file is, relative to the workspace root. */
export const REVIEW_IGNORE_FILE = '.aide/review-ignore';

/** One line of the file. */
export interface IgnoreEntry {
  path: string;
  /** A secret rule's id (`github-pat`, `generic-secret-assignment`). */
  rule: string;
  /** 1-based line, or null for every line of the file. */
  line: number | null;
}

const RULE_IDS: ReadonlySet<string> = new Set([...SECRET_RULES.map((r) => r.id), ENTROPY_RULE_ID]);

/** The entries of the file's text; throws a configuration error naming the first bad line. */
export function parseReviewIgnore(text: string): IgnoreEntry[] {
  const entries: IgnoreEntry[] = [];
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    // From the right: a path may hold ':' itself, a rule id and a line number never do.
    const match = /^(.+):([a-z0-9-]+):([1-9]\d*)$/.exec(line) ?? /^(.+):([a-z0-9-]+)()$/.exec(line);
    const rule = match?.[2];
    if (match === null || rule === undefined || !RULE_IDS.has(rule)) {
      throw new AideError(
        'config_invalid',
        `${REVIEW_IGNORE_FILE}:${index + 1}: cannot read ${JSON.stringify(line)}`,
        {
          hint: `Each line is path:rule:line or path:rule, the rule one of the ids aide review prints (e.g. src/app.js:github-pat:12); # starts a comment.`,
        },
      );
    }
    entries.push({
      path: match[1] ?? '',
      rule,
      line: match[3] === undefined || match[3] === '' ? null : Number(match[3]),
    });
  }
  return entries;
}

/** Whether an entry silences the finding of `rule` at `path`:`line`. */
export function isIgnored(
  entries: readonly IgnoreEntry[],
  finding: { file: string; rule: string; line: number | null },
): boolean {
  return entries.some(
    (e) => e.path === finding.file && e.rule === finding.rule && (e.line === null || e.line === finding.line),
  );
}

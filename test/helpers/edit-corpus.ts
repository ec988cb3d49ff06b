/**
 * The edit corpus (test/fixtures/edits/<NN-name>/): realistic model replies and what
 * `aide apply` must make of them. A case holds `response.md`, an optional `before/` tree
 * (missing means an empty repository), an optional `case.json`, and either the complete
 * expected `after/` tree or an `expect.json` for replies that must not be applied.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const strategy = z.enum([
  'exact',
  'line-endings',
  'trailing-whitespace',
  'indentation',
  'blank-lines',
  'elision',
  'fuzzy',
]);

const caseSchema = z.strictObject({
  description: z.string(),
  /** Extra arguments for `aide apply`, e.g. ["--dry-run"]. */
  args: z.array(z.string()).default([]),
  /** The matching strategy of each block in order (null for creates and deletes). */
  strategies: z.array(strategy.nullable()).optional(),
});

const expectSchema = z.strictObject({
  exit: z.number().int(),
  /** Failure kinds of the blocks that failed, in block order. */
  failures: z.array(z.string()).optional(),
  /** Number of parse problems in the report. */
  problems: z.number().int().optional(),
  /** Number of edit blocks found in the reply. */
  blocks: z.number().int().optional(),
  stdoutIncludes: z.array(z.string()).default([]),
});

export type CaseSettings = z.infer<typeof caseSchema>;
export type CaseExpectation = z.infer<typeof expectSchema>;

export interface CorpusCase {
  name: string;
  response: string;
  /** The repository before the apply; undefined for an empty one. */
  before: string | undefined;
  settings: CaseSettings;
  outcome: { kind: 'after'; tree: string } | { kind: 'refused'; expect: CaseExpectation };
}

function readJson<T>(path: string, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) throw new Error(`${path}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Case directory names, sorted. */
export function listCases(root: string): string[] {
  return readdirSync(root)
    .filter((name) => statSync(join(root, name)).isDirectory())
    .sort();
}

/** Reads and validates one case; a malformed case throws (and fails its test). */
export function loadCase(root: string, name: string): CorpusCase {
  const dir = join(root, name);
  const response = join(dir, 'response.md');
  if (!existsSync(response)) throw new Error(`${name}: no response.md`);
  const settingsPath = join(dir, 'case.json');
  const settings = existsSync(settingsPath)
    ? readJson(settingsPath, caseSchema)
    : caseSchema.parse({ description: name });
  const after = join(dir, 'after');
  const expectPath = join(dir, 'expect.json');
  if (existsSync(after) === existsSync(expectPath))
    throw new Error(`${name}: needs exactly one of after/ and expect.json`);
  return {
    name,
    response,
    before: existsSync(join(dir, 'before')) ? join(dir, 'before') : undefined,
    settings,
    outcome: existsSync(after)
      ? { kind: 'after', tree: after }
      : { kind: 'refused', expect: readJson(expectPath, expectSchema) },
  };
}

/**
 * Validates the text of a .aide/*.json file. Pure: the text (null when the file does not
 * exist) and the environment come in; the effective value with the source of each setting, or
 * every problem found, comes out. A missing file means defaults; an invalid one is never
 * replaced by defaults.
 */
import type { z } from 'zod';
import { lineColumnAt } from '../shared/text.js';
import { configSchema, type AideConfig } from './config-schema.js';
import { applyEnvOverrides, CONFIG_ENV_OVERRIDES, type Env, type EnvOverride } from './env-overrides.js';
import { CONFIG_FILE, SANDBOX_FILE } from './files.js';
import { applyFlagOverrides, type ConfigFlags } from './flag-overrides.js';
import { findDuplicateKeys, parseJson, type JsonDocument } from './json-document.js';
import { formatPath, problemsFromIssue, type ConfigProblem, type ProblemContext } from './problems.js';
import { effectiveEntries, type EffectiveEntry } from './provenance.js';
import { sandboxSchema, type SandboxConfig } from './sandbox-schema.js';

/** A configuration file after validation. */
export interface LoadedFile<T> {
  /** Relative to the workspace root, e.g. `.aide/config.json`. */
  file: string;
  /** False when the file does not exist and every value is a default, from the environment or a flag. */
  exists: boolean;
  value: T;
  /** Every setting with the source of its value. */
  entries: EffectiveEntry[];
}

export type LoadResult<T> = { ok: true; loaded: LoadedFile<T> } | { ok: false; problems: ConfigProblem[] };

interface FileFormat<S extends z.ZodType> {
  file: string;
  schema: S;
  overrides: readonly EnvOverride[];
}

function problemAt(
  file: string,
  text: string,
  offset: number,
  message: string,
  hint: string | null,
  path = '',
): ConfigProblem {
  const { line, column } = lineColumnAt(text, offset);
  return { file, line, column, variable: null, flag: null, path, message, hint };
}

type ReadInput =
  | { ok: true; document: JsonDocument | null; input: Record<string, unknown>; problems: ConfigProblem[] }
  | { ok: false; problems: ConfigProblem[] };

/** The file's JSON as a plain object, with duplicate keys reported (JSON.parse would hide them). */
function readInput(file: string, text: string | null): ReadInput {
  if (text === null) return { ok: true, document: null, input: {}, problems: [] };
  const parsed = parseJson(text);
  if (!parsed.ok) {
    return {
      ok: false,
      problems: [
        problemAt(
          file,
          text,
          parsed.offset,
          parsed.message,
          'Fix the JSON syntax; `aide config` checks the file again.',
        ),
      ],
    };
  }
  const { document } = parsed;
  const { value } = document;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const hint = 'Put the settings in one object; {} means all defaults.';
    return {
      ok: false,
      problems: [
        problemAt(
          file,
          document.text,
          document.tree.offset,
          'expected a JSON object ({ … }) at the top level',
          hint,
        ),
      ],
    };
  }
  const problems = findDuplicateKeys(document.tree).map((duplicate) => {
    const first = lineColumnAt(document.text, duplicate.firstOffset);
    const message = `the key appears twice in this object (first at line ${first.line}); JSON would silently keep only the last one`;
    return problemAt(
      file,
      document.text,
      duplicate.offset,
      message,
      'Remove one of them.',
      formatPath([...duplicate.path, duplicate.key]),
    );
  });
  return { ok: true, document, input: value as Record<string, unknown>, problems };
}

/** One of each: a value can fail two checks with one message (1e300 is neither whole nor at most the ceiling). */
function distinct(problems: readonly ConfigProblem[]): ConfigProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = JSON.stringify([p.file, p.variable, p.flag, p.line, p.column, p.path, p.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function byPosition(a: ConfigProblem, b: ConfigProblem): number {
  return (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0);
}

function parseFile<S extends z.ZodType>(
  format: FileFormat<S>,
  text: string | null,
  env: Env,
  flags: ConfigFlags,
): LoadResult<z.output<S>> {
  const read = readInput(format.file, text);
  if (!read.ok) return read;
  // Flags after the environment: a flag wins over the variable for the same field.
  const applied = applyFlagOverrides(read.input, flags, applyEnvOverrides(read.input, format.overrides, env));
  const result = format.schema.safeParse(read.input);
  const context: ProblemContext = {
    file: format.file,
    schema: format.schema,
    document: read.document,
    input: read.input,
    overrides: applied,
  };
  const issues = result.success ? [] : result.error.issues;
  const problems = distinct([
    ...read.problems,
    ...issues.flatMap((issue) => problemsFromIssue(context, issue)),
  ]).sort(byPosition);
  if (!result.success || problems.length > 0) return { ok: false, problems };
  const value = result.data;
  return {
    ok: true,
    loaded: {
      file: format.file,
      exists: text !== null,
      value,
      entries: effectiveEntries(format.schema, value, format.file, read.document, applied),
    },
  };
}

/**
 * Validates `.aide/config.json` (text null: the file does not exist), with environment and
 * command-line overrides.
 */
export function parseConfigFile(
  text: string | null,
  env: Env,
  flags: ConfigFlags = {},
): LoadResult<AideConfig> {
  return parseFile(
    { file: CONFIG_FILE, schema: configSchema, overrides: CONFIG_ENV_OVERRIDES },
    text,
    env,
    flags,
  );
}

/** Validates `.aide/sandbox.json` (text null: the file does not exist). */
export function parseSandboxFile(text: string | null): LoadResult<SandboxConfig> {
  return parseFile({ file: SANDBOX_FILE, schema: sandboxSchema, overrides: [] }, text, {}, {});
}

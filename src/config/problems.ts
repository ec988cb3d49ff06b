/**
 * Turns zod issues into problems a person can act on: where (file:line:column, or the
 * environment variable, or the flag), which field (a JSON path such as `commands[1].timeout_ms`), what is
 * wrong with the value found, and how to fix it.
 */
import type { z } from 'zod';
import { didYouMean, lineColumnAt } from '../shared/text.js';
import type { AppliedOverride } from './flag-overrides.js';
import { offsetOf, type JsonDocument, type JsonPath } from './json-document.js';
import { childObjects, fieldDefault, fieldDescription, objectKeys, schemaAt } from './schema-walk.js';

/** One thing wrong with a configuration file. */
export interface ConfigProblem {
  /** The file, relative to the workspace root (e.g. `.aide/sandbox.json`). */
  file: string;
  /** 1-based position in the file; null when the value came from the environment or a flag. */
  line: number | null;
  column: number | null;
  /** The environment variable the value came from, if it did. */
  variable: string | null;
  /** The command-line flag the value came from (`--endpoint`), if it did. */
  flag: string | null;
  /** The field, e.g. `commands[1].timeout_ms`; '' for the file as a whole. */
  path: string;
  message: string;
  /** How to fix it. */
  hint: string | null;
}

/** `commands[1].timeout_ms`; keys that are not identifiers are quoted: `env["MY-VAR"]`. */
export function formatPath(path: JsonPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** `.aide/sandbox.json:7:5: commands[1].timeout_ms: expected …` */
export function formatProblem(problem: ConfigProblem): string {
  const where =
    problem.flag !== null
      ? `${problem.flag} (command-line flag)`
      : problem.variable !== null
        ? `${problem.variable} (environment variable)`
        : problem.line !== null
          ? `${problem.file}:${problem.line}:${problem.column ?? 1}`
          : problem.file;
  return `${where}: ${problem.path === '' ? '' : `${problem.path}: `}${problem.message}`;
}

/** A value as it appears in a message: short JSON, or what kind of thing it is. */
export function showValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const json = JSON.stringify(value);
  if (json.length <= 48) return json;
  if (typeof value === 'string') return `${JSON.stringify(value.slice(0, 40))}…`;
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  return 'an object';
}

export interface ProblemContext {
  file: string;
  schema: z.core.$ZodType;
  /** The file's parsed text; null when the file does not exist. */
  document: JsonDocument | null;
  /** The input that was validated: the file's value with environment and flag overrides applied. */
  input: unknown;
  overrides: readonly AppliedOverride[];
}

function valueAt(input: unknown, path: JsonPath): unknown {
  let current = input;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

type Location = Pick<ConfigProblem, 'file' | 'line' | 'column' | 'variable' | 'flag'>;

/** Where a value came from: a flag or the environment when an override covers the path, else the file. */
export function locate(context: ProblemContext, path: JsonPath, key?: string): Location {
  const full = key === undefined ? path : [...path, key];
  const override = context.overrides.find((o) => o.path.every((segment, i) => full[i] === segment));
  const none = { file: context.file, line: null, column: null, variable: null, flag: null };
  if (override !== undefined)
    return override.origin.kind === 'env'
      ? { ...none, variable: override.origin.variable }
      : { ...none, flag: override.origin.flag };
  if (context.document === null) return none;
  const { line, column } = lineColumnAt(context.document.text, offsetOf(context.document, path, key));
  return { ...none, line, column };
}

function unknownKey(context: ProblemContext, path: JsonPath, key: string): ConfigProblem {
  const parent = schemaAt(context.schema, path);
  const allowed = objectKeys(parent);
  const suggestion = didYouMean(key, allowed);
  const home = childObjects(parent).find(([, child]) => objectKeys(child).includes(key))?.[0];
  let message = 'unknown key';
  let hint = allowed.length === 0 ? 'Remove it.' : `Remove it. Allowed here: ${allowed.join(', ')}.`;
  if (suggestion !== undefined) {
    message = `unknown key (did you mean "${suggestion}"?)`;
    hint = `Rename it to "${suggestion}".`;
  } else if (home !== undefined) {
    message = `unknown key here (it belongs inside "${home}")`;
    hint = `Move it into the "${home}" object.`;
  }
  return { ...locate(context, path, key), path: formatPath([...path, key]), message, hint };
}

function hintFor(
  context: ProblemContext,
  path: JsonPath,
  issue: z.core.$ZodIssue,
  where: Location,
): string | null {
  const params = (issue as { params?: { hint?: unknown } }).params;
  if (typeof params?.hint === 'string') return params.hint;
  if (where.flag !== null) return `Give ${where.flag} a valid value, or leave it out.`;
  if (where.variable !== null) return `Set ${where.variable} to a valid value, or unset it.`;
  const key = path[path.length - 1];
  if (typeof key === 'number') return 'Fix or remove this item.';
  const field = schemaAt(context.schema, path);
  const fallback = fieldDefault(field);
  if (key === undefined) return null;
  if (fallback.kind === 'value')
    return `Fix the value, or remove "${key}" to use the default (${JSON.stringify(fallback.value)}).`;
  if (fallback.kind === 'unset') return `Fix the value, or remove "${key}" to leave it unset.`;
  return fieldDescription(field) ?? null;
}

/** A record key that fails its pattern (e.g. an env variable name): report it at the key. */
function invalidKey(
  context: ProblemContext,
  path: JsonPath,
  issue: z.core.$ZodIssueInvalidKey,
): ConfigProblem {
  const key = path[path.length - 1];
  const parent = path.slice(0, -1);
  const inner = issue.issues[0]?.message ?? issue.message;
  const where = typeof key === 'string' ? locate(context, parent, key) : locate(context, path);
  return {
    ...where,
    path: formatPath(path),
    message: `invalid key: ${inner}`,
    hint: 'Rename or remove the key.',
  };
}

/** One or more problems for one zod issue (an unknown-keys issue names several keys). */
export function problemsFromIssue(context: ProblemContext, issue: z.core.$ZodIssue): ConfigProblem[] {
  const path = issue.path.filter((s): s is string | number => typeof s !== 'symbol');
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => unknownKey(context, path, key));
  if (issue.code === 'invalid_key') return [invalidKey(context, path, issue)];
  const value = valueAt(context.input, path);
  let message = issue.message;
  if (issue.code !== 'custom')
    message =
      value === undefined
        ? `missing (required): ${issue.message}`
        : `${issue.message}, got ${showValue(value)}`;
  const where = locate(context, path);
  return [{ ...where, path: formatPath(path), message, hint: hintFor(context, path, issue, where) }];
}

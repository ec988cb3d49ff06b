/**
 * Building blocks for the .aide/*.json schemas. Every field carries its own message ("expected
 * …") because zod's defaults ("Invalid input: expected number, received string") are written
 * for programmers; the loader appends what was found and where.
 */
import { z } from 'zod';

/**
 * A whole number from 1 to `max`, e.g. milliseconds or tokens. Every number has a ceiling: a
 * value past what makes sense (a timeout of 1e15 ms, a byte cap larger than memory) is a typo
 * or an attack, and would otherwise fail deep inside as an internal error.
 */
export function positiveInt(unit: string, example: number, max: number) {
  const error = `expected a whole number of ${unit} from 1 to ${max} (e.g. ${example})`;
  return z.number({ error }).int({ error }).positive({ error }).max(max, { error });
}

/** A whole number from `min` to `max`. */
export function intAtLeast(min: number, unit: string, example: number, max: number) {
  const error = `expected a whole number of ${unit} from ${min} to ${max} (e.g. ${example})`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

export function bool() {
  return z.boolean({ error: 'expected true or false' });
}

/** A non-empty string; `what` says what it holds ("a model name"). */
export function text(what: string) {
  const error = `expected ${what} (a non-empty string)`;
  return z.string({ error }).min(1, { error });
}

/** POSIX-style environment variable names, as shells accept them. */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function envVarName() {
  const error = 'expected the name of an environment variable (letters, digits and _, e.g. OPENAI_API_KEY)';
  return z.string({ error }).regex(ENV_NAME_PATTERN, { error });
}

/**
 * A path relative to the workspace root that stays inside it: not absolute, no drive letter,
 * no `..` segment. A regex rather than a refinement so editors check it too (JSON Schema
 * `pattern`).
 */
export const RELATIVE_PATH_PATTERN = /^(?![\\/])(?![A-Za-z]:)(?!(?:.*[\\/])?\.\.(?:[\\/]|$)).+$/;

export function relativePath(what: string) {
  const error = `expected ${what}: a path relative to the workspace root, without ".." (e.g. "node_modules")`;
  return z.string({ error }).regex(RELATIVE_PATH_PATTERN, { error });
}

/**
 * The names of sandbox.json's commands, which appear in reports, logs and command lines: kept
 * plain. Plans name their verify commands with the same pattern (core/plan/schema.ts).
 */
export const COMMAND_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

/** An http(s) URL. */
export function httpUrl() {
  return z.url({
    protocol: /^https?$/,
    error: 'expected an http:// or https:// URL (e.g. "http://127.0.0.1:11434/v1")',
  });
}

/** An object that rejects unknown keys; `what` names it in a type error. */
export function strictObject<T extends z.core.$ZodLooseShape>(shape: T, what: string) {
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'invalid_type' ? `expected an object (${what})` : undefined),
  });
}

/** An array of at most `max` items; `what` names its items in a type error. */
export function list<T extends z.core.SomeType>(item: T, what: string, max: number) {
  return z
    .array(item, { error: `expected an array of ${what}` })
    .max(max, { error: `expected at most ${max} ${what}` });
}

/** The `$schema` key editors use to find the JSON Schema; aide itself ignores it. */
export function schemaRef() {
  return z
    .string({ error: 'expected the path or URL of a JSON Schema' })
    .optional()
    .describe(
      'Path or URL of the JSON Schema for this file, so editors can check it and show help. aide ignores it.',
    );
}

/**
 * Where each effective value came from: the schema's default, a line of the file, an
 * environment variable or a command-line flag. Shown by `aide config` so "why does aide use this model?" has an answer.
 */
import { z } from 'zod';
import { lineColumnAt } from '../shared/text.js';
import type { AppliedOverride } from './flag-overrides.js';
import { hasValueAt, offsetOf, type JsonDocument, type JsonPath } from './json-document.js';
import { formatPath } from './problems.js';
import { unwrap } from './schema-walk.js';

export type Source =
  | { kind: 'default' }
  | { kind: 'file'; file: string; line: number; column: number }
  | { kind: 'env'; variable: string }
  | { kind: 'flag'; flag: string };

/** One leaf of the effective configuration. */
export interface EffectiveEntry {
  /** The field, e.g. `model.name` or `commands[0].run`. */
  path: string;
  /** The value in effect; undefined for an optional field left unset. */
  value: unknown;
  source: Source;
}

interface Walk {
  file: string;
  document: JsonDocument | null;
  overrides: readonly AppliedOverride[];
  entries: EffectiveEntry[];
}

function sourceOf(walk: Walk, path: JsonPath): Source {
  const override = walk.overrides.find(
    (o) => o.path.length === path.length && o.path.every((segment, i) => path[i] === segment),
  );
  if (override !== undefined) return override.origin;
  if (walk.document === null || !hasValueAt(walk.document, path)) return { kind: 'default' };
  const { line, column } = lineColumnAt(walk.document.text, offsetOf(walk.document, path));
  return { kind: 'file', file: walk.file, line, column };
}

/**
 * Objects are walked key by key (unset optional keys included, so every setting is listed);
 * arrays of objects item by item; everything else (strings, numbers, arrays of strings, maps of
 * environment variables) is one leaf.
 */
function visit(walk: Walk, schema: z.core.$ZodType, value: unknown, path: JsonPath): void {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject && typeof value === 'object' && value !== null) {
    const shape: Record<string, z.core.$ZodType> = inner.shape;
    for (const [key, child] of Object.entries(shape)) {
      const member = (value as Record<string, unknown>)[key];
      // $schema only helps editors; it is not a setting. Unset optional fields of list items
      // (a command's timeout_ms) would repeat for every item and say nothing.
      if (key === '$schema' || (member === undefined && path.some((segment) => typeof segment === 'number')))
        continue;
      visit(walk, child, member, [...path, key]);
    }
    return;
  }
  if (
    inner instanceof z.ZodArray &&
    unwrap(inner.element) instanceof z.ZodObject &&
    Array.isArray(value) &&
    value.length > 0
  ) {
    value.forEach((item: unknown, index) => {
      visit(walk, inner.element, item, [...path, index]);
    });
    return;
  }
  walk.entries.push({ path: formatPath(path), value, source: sourceOf(walk, path) });
}

export function effectiveEntries(
  schema: z.core.$ZodType,
  value: unknown,
  file: string,
  document: JsonDocument | null,
  overrides: readonly AppliedOverride[],
): EffectiveEntry[] {
  const walk: Walk = { file, document, overrides, entries: [] };
  visit(walk, schema, value, []);
  return walk.entries;
}

/**
 * Reads the shape of a zod schema along a JSON path: which keys an object allows (for "did you
 * mean"), and a field's default (for hints and provenance). Only the constructs the .aide
 * schemas use are handled.
 */
import { z } from 'zod';
import type { JsonPath } from './json-document.js';

/** The schema under optional/default wrappers. */
export function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema;
  while (
    current instanceof z.ZodOptional ||
    current instanceof z.ZodDefault ||
    current instanceof z.ZodPrefault
  ) {
    current = current.unwrap();
  }
  return current;
}

/** The schema for the value at `path`, or undefined when the path leaves the schema. */
export function schemaAt(schema: z.core.$ZodType, path: JsonPath): z.core.$ZodType | undefined {
  let current: z.core.$ZodType | undefined = schema;
  for (const segment of path) {
    if (current === undefined) return undefined;
    const inner = unwrap(current);
    if (inner instanceof z.ZodObject && typeof segment === 'string')
      current = (inner.shape as Record<string, z.core.$ZodType>)[segment];
    else if (inner instanceof z.ZodArray && typeof segment === 'number') current = inner.element;
    else if (inner instanceof z.ZodRecord && typeof segment === 'string') current = inner.valueType;
    else return undefined;
  }
  return current;
}

/** The keys an object schema allows, in declaration order; [] for anything else. */
export function objectKeys(schema: z.core.$ZodType | undefined): string[] {
  if (schema === undefined) return [];
  const inner = unwrap(schema);
  return inner instanceof z.ZodObject ? Object.keys(inner.shape) : [];
}

/** The child objects of an object schema, by key (to say "this key belongs in model"). */
export function childObjects(schema: z.core.$ZodType | undefined): [string, z.core.$ZodType][] {
  if (schema === undefined) return [];
  const inner = unwrap(schema);
  if (!(inner instanceof z.ZodObject)) return [];
  return Object.entries(inner.shape as Record<string, z.core.$ZodType>).filter(
    ([, child]) => unwrap(child) instanceof z.ZodObject,
  );
}

export type FieldDefault = { kind: 'value'; value: unknown } | { kind: 'unset' } | { kind: 'required' };

/** What a field is when the file leaves it out. */
export function fieldDefault(schema: z.core.$ZodType | undefined): FieldDefault {
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault)
    return { kind: 'value', value: schema.def.defaultValue };
  if (schema instanceof z.ZodOptional) return { kind: 'unset' };
  return { kind: 'required' };
}

/** The field's `.describe()` text, from its outermost wrapper inwards. */
export function fieldDescription(schema: z.core.$ZodType | undefined): string | undefined {
  let current = schema;
  while (current !== undefined) {
    const description = z.globalRegistry.get(current)?.description;
    if (description !== undefined) return description;
    if (!(
      current instanceof z.ZodOptional ||
      current instanceof z.ZodDefault ||
      current instanceof z.ZodPrefault
    ))
      return undefined;
    current = current.unwrap();
  }
  return undefined;
}

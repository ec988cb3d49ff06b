/**
 * What `npm run schemas` generates from the zod schemas: the JSON Schemas shipped in schemas/
 * (for editors) and the configuration reference in README.md. A test regenerates both and
 * fails when the committed copies drift.
 */
import { z } from 'zod';
import { configSchema } from './config-schema.js';
import { CONFIG_ENV_OVERRIDES } from './env-overrides.js';
import { CONFIG_FLAG_OVERRIDES } from './flag-overrides.js';
import { CONFIG_FILE, CONFIG_SCHEMA_FILE, SANDBOX_FILE, SANDBOX_SCHEMA_FILE } from './files.js';
import { sandboxSchema } from './sandbox-schema.js';

export const REFERENCE_START = '<!-- config-reference:start -->';
export const REFERENCE_END = '<!-- config-reference:end -->';

type JsonSchema = Record<string, unknown>;

/** zod writes Number.MAX_SAFE_INTEGER as the maximum of every integer; it is noise to a reader. */
function toJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, {
    io: 'input',
    override: ({ jsonSchema }) => {
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
    },
  });
}

/** The generated files, path (relative to the repository root) → content. */
export function schemaFiles(): Record<string, string> {
  return {
    [`schemas/${CONFIG_SCHEMA_FILE}`]: `${JSON.stringify(toJsonSchema(configSchema), null, 2)}\n`,
    [`schemas/${SANDBOX_SCHEMA_FILE}`]: `${JSON.stringify(toJsonSchema(sandboxSchema), null, 2)}\n`,
  };
}

function asSchema(value: unknown): JsonSchema {
  return typeof value === 'object' && value !== null ? (value as JsonSchema) : {};
}

/** `integer 1–86400000`: the range a number field takes (every one has a ceiling). */
function integerText(schema: JsonSchema): string {
  const min = schema['exclusiveMinimum'] === 0 ? 1 : schema['minimum'];
  const max = schema['maximum'];
  if (typeof min === 'number' && typeof max === 'number') return `integer ${min}–${max}`;
  if (typeof min === 'number') return `integer ≥ ${min}`;
  return 'integer';
}

function typeText(schema: JsonSchema): string {
  if (Array.isArray(schema['anyOf'])) return schema['anyOf'].map((s) => typeText(asSchema(s))).join(' or ');
  const type = schema['type'];
  if (type === 'array') return `${typeText(asSchema(schema['items']))}[]`;
  if (type === 'object' && typeof schema['additionalProperties'] === 'object')
    return `object (name → ${typeText(asSchema(schema['additionalProperties']))})`;
  if (type === 'string' && schema['format'] === 'uri') return 'URL';
  if (type === 'integer') return integerText(schema);
  return typeof type === 'string' ? type : 'any';
}

interface Row {
  key: string;
  type: string;
  default: string;
  description: string;
}

/** Defaults too long for a table cell are listed under the table instead. */
const LONG_DEFAULT = 40;

function defaultText(
  schema: JsonSchema,
  required: boolean,
  long: Map<string, unknown[]>,
  key: string,
): string {
  if (required) return 'required';
  if (!('default' in schema)) return '—';
  const value = schema['default'];
  const json = JSON.stringify(value);
  if (json.length <= LONG_DEFAULT || !Array.isArray(value)) return `\`${json}\``;
  long.set(key, value);
  return 'see below';
}

/** What overrides a field, strongest first: its flag, then its environment variable. */
function envNote(key: string): string {
  const names = [
    ...CONFIG_FLAG_OVERRIDES.filter((o) => o.path.join('.') === key).map((o) => o.flag),
    ...CONFIG_ENV_OVERRIDES.filter((o) => o.path.join('.') === key).map((o) => o.variable),
  ];
  return names.length === 0 ? '' : ` Overridden by ${names.map((n) => `\`${n}\``).join(', then ')}.`;
}

function rowsOf(schema: JsonSchema, prefix: string, long: Map<string, unknown[]>): Row[] {
  const properties = asSchema(schema['properties']);
  const required = Array.isArray(schema['required']) ? schema['required'] : [];
  return Object.entries(properties).flatMap(([name, value]) => {
    const property = asSchema(value);
    const key = `${prefix}${name}`;
    const description = `${typeof property['description'] === 'string' ? property['description'] : ''}${envNote(key)}`;
    const row: Row = {
      key,
      type: typeText(property),
      default: defaultText(property, required.includes(name), long, key),
      description,
    };
    const items = asSchema(property['items']);
    if (property['type'] === 'object' && property['properties'] !== undefined)
      return [row, ...rowsOf(property, `${key}.`, long)];
    if (property['type'] === 'array' && items['type'] === 'object')
      return [row, ...rowsOf(items, `${key}[].`, long)];
    return [row];
  });
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function fileSection(file: string, schemaFile: string, schema: z.ZodType, intro: string): string[] {
  const long = new Map<string, unknown[]>();
  const rows = rowsOf(toJsonSchema(schema), '', long);
  const out = [
    `### \`${file}\``,
    '',
    `${intro} JSON Schema: [\`schemas/${schemaFile}\`](schemas/${schemaFile}).`,
    '',
    '| Key | Type | Default | Description |',
    '|---|---|---|---|',
    ...rows.map((r) => `| \`${r.key}\` | ${cell(r.type)} | ${cell(r.default)} | ${cell(r.description)} |`),
  ];
  for (const [key, values] of long)
    out.push('', `Default \`${key}\`: ${values.map((v) => `\`${String(v)}\``).join(', ')}.`);
  return out;
}

function envSection(): string[] {
  return [
    '### Environment variables',
    '',
    `They override \`${CONFIG_FILE}\` (environment, then file, then default), and the flags ${CONFIG_FLAG_OVERRIDES.map((o) => `\`${o.flag}\``).join(' and ')} of \`aide config\` and \`aide doctor\` override them. An empty variable counts as unset; an invalid value is an error naming the variable (or the flag).`,
    '',
    '| Variable | Sets | Value |',
    '|---|---|---|',
    ...CONFIG_ENV_OVERRIDES.map(
      (o) => `| \`${o.variable}\` | \`${o.path.join('.')}\` | ${cell(o.description)} |`,
    ),
  ];
}

/** The markdown between the README markers (markers excluded). */
export function configReference(): string {
  const missing =
    'A missing file means defaults; unknown keys and invalid values are errors (`aide config` lists them).';
  return [
    '<!-- Generated by `npm run schemas` from src/config/*-schema.ts: edit those, not this. -->',
    '',
    ...fileSection(
      CONFIG_FILE,
      CONFIG_SCHEMA_FILE,
      configSchema,
      `Model, loop limits, review and protected paths. ${missing}`,
    ),
    '',
    ...fileSection(
      SANDBOX_FILE,
      SANDBOX_SCHEMA_FILE,
      sandboxSchema,
      `Verify commands and the policy they run under. ${missing}`,
    ),
    '',
    ...envSection(),
  ].join('\n');
}

/** The README with the generated reference between the markers (added at the end, under a heading, when absent). */
export function withConfigReference(readme: string): string {
  const block = `${REFERENCE_START}\n${configReference()}\n${REFERENCE_END}`;
  const start = readme.indexOf(REFERENCE_START);
  const end = readme.indexOf(REFERENCE_END);
  if (start === -1 || end === -1 || end < start)
    return `${readme.trimEnd()}\n\n## Configuration\n\n${block}\n`;
  return `${readme.slice(0, start)}${block}${readme.slice(end + REFERENCE_END.length)}`;
}

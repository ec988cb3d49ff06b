/**
 * Environment variables that override `.aide/config.json` (they win over the file, the file wins
 * over defaults). Kept to a small explicit table: each one is documented in the README and its
 * value goes through the same schema as the file, so a bad value is reported with the variable's
 * name. An empty variable counts as unset.
 */

export interface EnvOverride {
  /** The environment variable. */
  variable: string;
  /** The config.json field it sets. */
  path: readonly string[];
  /** How the text of the variable is read before validation. */
  kind: 'string' | 'integer' | 'boolean';
  /** One line for the README. */
  description: string;
}

export const CONFIG_ENV_OVERRIDES: readonly EnvOverride[] = [
  {
    variable: 'AIDE_MODEL',
    path: ['model', 'name'],
    kind: 'string',
    description: 'Use another model for one run.',
  },
  {
    variable: 'AIDE_MODEL_ENDPOINT',
    path: ['model', 'endpoint'],
    kind: 'string',
    description: 'Use another server for one run.',
  },
  {
    variable: 'AIDE_CONTEXT_TOKENS',
    path: ['model', 'context_tokens'],
    kind: 'integer',
    description: 'A whole number of tokens.',
  },
  {
    variable: 'AIDE_ALLOW_REMOTE',
    path: ['model', 'allow_remote'],
    kind: 'boolean',
    description: '`1`/`true` or `0`/`false`.',
  },
];

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads a variable's text as the field's type. Text that does not fit is passed on unchanged so
 * the schema rejects it with its usual message ("expected a whole number …, got "32k"").
 */
function coerce(raw: string, kind: EnvOverride['kind']): unknown {
  const value = raw.trim();
  switch (kind) {
    case 'string':
      return raw;
    case 'integer':
      return /^\d+$/.test(value) ? Number(value) : raw;
    case 'boolean':
      if (/^(1|true|yes)$/i.test(value)) return true;
      if (/^(0|false|no)$/i.test(value)) return false;
      return raw;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Writes the set variables into `input` (the file's parsed JSON, mutated in place) and returns
 * the overrides that took effect. Where the file holds a non-object on the way (e.g. `"model": 5`)
 * the override is skipped: the file's own error is the one to fix.
 */
export function applyEnvOverrides(
  input: Record<string, unknown>,
  overrides: readonly EnvOverride[],
  env: Env,
): EnvOverride[] {
  const applied: EnvOverride[] = [];
  for (const override of overrides) {
    const raw = env[override.variable];
    if (raw === undefined || raw === '') continue;
    let target = input;
    let reachable = true;
    for (const key of override.path.slice(0, -1)) {
      const next = target[key] ?? {};
      if (!isPlainObject(next)) {
        reachable = false;
        break;
      }
      target[key] = next;
      target = next;
    }
    const leaf = override.path[override.path.length - 1];
    if (!reachable || leaf === undefined) continue;
    target[leaf] = coerce(raw, override.kind);
    applied.push(override);
  }
  return applied;
}

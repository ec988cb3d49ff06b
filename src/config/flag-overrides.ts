/**
 * Command-line flags that override `.aide/config.json` for one run: they win over the
 * environment variables, which win over the file, which wins over the defaults. Like the
 * variables, a flag's value goes through the file's schema (so a remote `--endpoint` meets the
 * same `allow_remote` rule), and `aide config` names the flag as the value's source.
 */
import type { EnvOverride } from './env-overrides.js';

/** The flags' values as a command parsed them; undefined (or empty) means not given. */
export interface ConfigFlags {
  /** `--model NAME`: model.name. */
  model?: string | undefined;
  /** `--endpoint URL`: model.endpoint. */
  endpoint?: string | undefined;
}

export interface FlagOverride {
  /** The flag as the user types it, e.g. `--model`. */
  flag: string;
  /** Its key in {@link ConfigFlags}. */
  option: keyof ConfigFlags;
  /** The config.json field it sets. */
  path: readonly string[];
}

export const CONFIG_FLAG_OVERRIDES: readonly FlagOverride[] = [
  { flag: '--model', option: 'model', path: ['model', 'name'] },
  { flag: '--endpoint', option: 'endpoint', path: ['model', 'endpoint'] },
];

/** Where an override's value came from. */
export type OverrideOrigin = { kind: 'env'; variable: string } | { kind: 'flag'; flag: string };

/** An override that took effect: the field it set and what set it. */
export interface AppliedOverride {
  path: readonly string[];
  origin: OverrideOrigin;
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((segment, i) => b[i] === segment);
}

/**
 * Writes the given flags into `input` (the file's JSON with the environment applied, mutated in
 * place) and returns every override in effect, a flag replacing the variable it beats. Where
 * the file holds a non-object on the way (`"model": 5`) the flag is skipped: the file's own
 * error is the one to fix.
 */
export function applyFlagOverrides(
  input: Record<string, unknown>,
  flags: ConfigFlags,
  envApplied: readonly EnvOverride[],
): AppliedOverride[] {
  const fromFlags: AppliedOverride[] = [];
  for (const override of CONFIG_FLAG_OVERRIDES) {
    const value = flags[override.option];
    if (value === undefined || value === '') continue;
    const [section, leaf] = override.path;
    if (section === undefined || leaf === undefined) continue;
    const target = input[section] ?? {};
    if (typeof target !== 'object' || target === null || Array.isArray(target)) continue;
    input[section] = target;
    (target as Record<string, unknown>)[leaf] = value;
    fromFlags.push({ path: override.path, origin: { kind: 'flag', flag: override.flag } });
  }
  const fromEnv = envApplied
    .filter((o) => !fromFlags.some((f) => samePath(f.path, o.path)))
    .map((o): AppliedOverride => ({ path: o.path, origin: { kind: 'env', variable: o.variable } }));
  return [...fromFlags, ...fromEnv];
}

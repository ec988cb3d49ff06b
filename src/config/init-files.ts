/**
 * The files `aide init` writes. They hold only what a person is likely to edit (the model,
 * the verify commands); every other setting keeps its default, so a later aide with better
 * defaults is not pinned to old ones. `aide config` lists all of them.
 */
import { DEFAULT_CONTEXT_TOKENS, DEFAULT_ENDPOINT, DEFAULT_MODEL } from './config-schema.js';
import { CONFIG_SCHEMA_FILE, SANDBOX_SCHEMA_FILE } from './files.js';
import { formatJson } from './format-json.js';

/** A verify command as init writes it: always an argv array (no shell). */
export interface InitialCommand {
  name: string;
  run: string[];
  /** Written only when true: the command runs only when asked for. */
  optional?: boolean;
}

/** `schemaDir`: the folder of aide's JSON Schemas relative to `.aide/`, or null to omit `$schema`. */
export function initialConfigText(schemaDir: string | null): string {
  return formatJson({
    ...(schemaDir === null ? {} : { $schema: `${schemaDir}/${CONFIG_SCHEMA_FILE}` }),
    model: { endpoint: DEFAULT_ENDPOINT, name: DEFAULT_MODEL, context_tokens: DEFAULT_CONTEXT_TOKENS },
  });
}

export function initialSandboxText(commands: readonly InitialCommand[], schemaDir: string | null): string {
  return formatJson({
    ...(schemaDir === null ? {} : { $schema: `${schemaDir}/${SANDBOX_SCHEMA_FILE}` }),
    commands: commands.map(({ name, run, optional }) => ({
      name,
      run,
      ...(optional === true ? { optional: true } : {}),
    })),
  });
}

/** The line that keeps aide's runtime state out of git. */
export const STATE_IGNORE = 'state/';

/**
 * `.aide/.gitignore` with `state/` in it: the whole file when there is none, else the existing
 * text with the line appended. null when it is already ignored (as `state/`, `state`, `/state/`
 * or `/state`), so the file is left untouched.
 */
export function gitignoreWithState(existing: string | null): string | null {
  if (existing === null) return `${STATE_IGNORE}\n`;
  const lines = existing.split(/\r?\n/).map((line) => line.trim());
  if (lines.some((line) => /^\/?state\/?$/.test(line))) return null;
  const separator =
    existing === '' || existing.endsWith('\n') ? '' : existing.includes('\r\n') ? '\r\n' : '\n';
  const newline = existing.includes('\r\n') ? '\r\n' : '\n';
  return `${existing}${separator}${STATE_IGNORE}${newline}`;
}

/**
 * Which commands a verification runs: those in `.aide/sandbox.json`, or, when it lists none,
 * those `aide init` would detect (named as such in the report), narrowed by `--commands`.
 * Never a command from anywhere else.
 */
import { AideError } from '../../shared/errors.js';
import { didYouMean } from '../../shared/text.js';
import type { VerifyCommand } from '../flows/verify.js';

export interface CommandSelection {
  commands: VerifyCommand[];
  /** 'sandbox': from .aide/sandbox.json; 'detected': sandbox.json lists none, detected like `aide init`. */
  source: 'sandbox' | 'detected';
}

const EXAMPLE = '{ "commands": [{ "name": "test", "run": ["npm", "test"] }] }';

export function selectCommands(configured: readonly VerifyCommand[], detected: readonly VerifyCommand[], only: readonly string[] | undefined, sandboxFile: string): CommandSelection {
  const source = configured.length > 0 ? 'sandbox' : 'detected';
  const available = source === 'sandbox' ? configured : detected;
  if (available.length === 0) {
    throw new AideError('config_invalid', `no verify commands: ${sandboxFile} lists none, and none were detected in this project`, {
      hint: `Add commands to ${sandboxFile}, e.g. ${EXAMPLE}, or run \`aide init\` to detect them.`,
    });
  }
  if (only === undefined) return { commands: [...available], source };
  const names = new Set(available.map((c) => c.name));
  const unknown = only.filter((name) => !names.has(name));
  if (unknown.length > 0) {
    const first = unknown[0] ?? '';
    const guess = didYouMean(first, names);
    throw new AideError('usage', `--commands: no command named ${unknown.map((n) => `"${n}"`).join(', ')}${guess === undefined ? '' : ` (did you mean "${guess}"?)`}`, {
      hint: `The commands ${source === 'sandbox' ? `in ${sandboxFile}` : 'detected in this project'} are: ${[...names].join(', ')}.`,
    });
  }
  // The configured order is kept: later commands may rely on earlier ones (build before test).
  return { commands: available.filter((c) => only.includes(c.name)), source };
}

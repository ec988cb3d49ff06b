/**
 * `--model` and `--endpoint` (defined in model-options.ts) turned into the config overrides they
 * are. Shared by every command that takes them; the values are checked by the config schema
 * itself (an invalid or remote `--endpoint` is reported as coming from the flag).
 */
import { z } from 'zod';
import type { ConfigFlags } from '../../config/flag-overrides.js';
import { AideError } from '../../shared/errors.js';
import type { RawArgv } from './spec.js';

/** The zod shape of the two flags, to merge into a command's own options schema. */
export const modelFlagsShape = {
  model: z
    .string()
    .min(1, { error: '--model needs a model name, e.g. --model qwen2.5-coder:14b' })
    .optional(),
  endpoint: z
    .string()
    .min(1, { error: '--endpoint needs a URL, e.g. --endpoint http://127.0.0.1:11434/v1' })
    .optional(),
};

/**
 * The flags' values as config overrides, absent keys left out (zod keeps only these two);
 * `command` names the help to point at on a bad value.
 */
export function modelFlags(argv: RawArgv, command: string): ConfigFlags {
  const parsed = z.object(modelFlagsShape).safeParse(argv);
  if (!parsed.success) {
    throw new AideError('usage', parsed.error.issues[0]?.message ?? 'invalid options', {
      hint: `See \`aide ${command} --help\`.`,
    });
  }
  return parsed.data;
}

/**
 * `--model` and `--endpoint`, the flags of every command that talks to (or shows) the model
 * server: `aide config`, `aide doctor`, and `aide plan` when it comes. Plain yargs data, no zod,
 * so a command stub can add them without loading anything; model-flags.ts reads them.
 */
import type { Argv } from 'yargs';

/** Adds `--model NAME` and `--endpoint URL` to a command's yargs definition. */
export function withModelOptions(yargs: Argv): Argv {
  return yargs
    .option('model', {
      type: 'string',
      requiresArg: true,
      describe:
        'Model name for this run, as the server knows it (overrides AIDE_MODEL and model.name in .aide/config.json)',
    })
    .option('endpoint', {
      type: 'string',
      requiresArg: true,
      describe:
        'Model server base URL for this run (overrides AIDE_MODEL_ENDPOINT and model.endpoint); a host other than loopback needs allow_remote',
    });
}

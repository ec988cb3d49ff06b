/**
 * `aide plan`'s argv turned into typed options, apart from the command spec: what runs the
 * command imports these types without importing the module that starts it.
 */
import { z } from 'zod';
import { AideError } from '../../shared/errors.js';
import { modelFlagsShape } from './model-flags.js';
import type { RawArgv } from './spec.js';

export const planOptionsSchema = z
  .object({
    /** The task file; '-' reads standard input (yargs hands a lone "-" over as ''). */
    task: z
      .string({ error: 'give the task file, e.g. `aide plan task.md` (or - for standard input)' })
      .transform((file) => (file === '' ? '-' : file)),
    out: z.string().min(1, { error: '--out needs a file name, e.g. --out .aide/plans/fix.md' }).optional(),
    force: z.boolean().default(false),
    ...modelFlagsShape,
  })
  .refine((o) => !o.force || o.out !== undefined, {
    error: '--force replaces the file --out names; without --out aide picks a new name and never overwrites',
  });
export type PlanOptions = z.infer<typeof planOptionsSchema>;

export function planOptions(argv: RawArgv): PlanOptions {
  const parsed = planOptionsSchema.safeParse({
    task: argv['task'],
    out: argv['out'],
    force: argv['force'],
    model: argv['model'],
    endpoint: argv['endpoint'],
  });
  if (!parsed.success) {
    throw new AideError('usage', parsed.error.issues[0]?.message ?? 'invalid options', {
      hint: 'See `aide plan --help`.',
    });
  }
  return parsed.data;
}

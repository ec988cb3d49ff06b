/**
 * `aide act`'s argv turned into typed options, apart from the command spec: what runs the
 * command imports these types without importing the spec that loads it lazily.
 */
import { z } from 'zod';
import { AideError } from '../../shared/errors.js';
import { modelFlagsShape } from './model-flags.js';
import type { RawArgv } from './spec.js';

const STEP_ERROR = '--step needs the number of a step of the plan, e.g. --step 2';

export const actOptionsSchema = z.object({
  /** The plan document; omitted: the newest under .aide/plans/. */
  plan: z.string().min(1).optional(),
  yes: z.boolean().default(false),
  /** With --yes: approve steps that change protected files too. */
  allowProtected: z.boolean().default(false),
  dryRun: z.boolean().default(false),
  patchOut: z
    .string()
    .min(1, { error: '--patch-out needs a file name, e.g. --patch-out aide.patch' })
    .optional(),
  /** `--step N`: carry out only step N. */
  step: z.number({ error: STEP_ERROR }).int({ error: STEP_ERROR }).positive({ error: STEP_ERROR }).optional(),
  junit: z.string().min(1, { error: '--junit needs a file name, e.g. --junit act.xml' }).optional(),
  /** false with --no-isolation. */
  isolation: z.boolean().default(true),
  /** Carry on the newest unfinished session (of `plan`, when named) instead of starting one. */
  resume: z.boolean().default(false),
  /** `--model`/`--endpoint`: the model for steps without written edits. */
  ...modelFlagsShape,
});
export type ActOptions = z.infer<typeof actOptionsSchema>;

export function actOptions(argv: RawArgv): ActOptions {
  const parsed = actOptionsSchema.safeParse({
    plan: argv['plan'],
    yes: argv['yes'],
    allowProtected: argv['allowProtected'],
    dryRun: argv['dryRun'],
    patchOut: argv['patchOut'],
    step: argv['step'],
    junit: argv['junit'],
    isolation: argv['isolation'],
    resume: argv['resume'],
    model: argv['model'],
    endpoint: argv['endpoint'],
  });
  if (!parsed.success)
    throw new AideError('usage', parsed.error.issues[0]?.message ?? 'invalid options', {
      hint: 'See `aide act --help`.',
    });
  if (parsed.data.resume && parsed.data.step !== undefined) {
    throw new AideError(
      'usage',
      '--resume and --step do not go together: --resume carries on a session as it was started, --step starts a new one',
      {
        hint: 'Use `aide act --resume` alone (a session started with --step carries on its one step), or `aide act --step N` for a new session.',
      },
    );
  }
  return parsed.data;
}

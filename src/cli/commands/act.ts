import { z } from 'zod';
import { AideError } from '../../shared/errors.js';
import type { CommandSpec, RawArgv } from './spec.js';

export const actOptionsSchema = z.object({
  /** The plan document; omitted: the newest under .aide/plans/. */
  plan: z.string().min(1).optional(),
  yes: z.boolean().default(false),
  dryRun: z.boolean().default(false),
  patchOut: z.string().min(1, { error: '--patch-out needs a file name, e.g. --patch-out aide.patch' }).optional(),
  /** false with --no-isolation. */
  isolation: z.boolean().default(true),
  /** Carry on the newest unfinished session (of `plan`, when named) instead of starting one. */
  resume: z.boolean().default(false),
});
export type ActOptions = z.infer<typeof actOptionsSchema>;

export function actOptions(argv: RawArgv): ActOptions {
  const parsed = actOptionsSchema.safeParse({ plan: argv['plan'], yes: argv['yes'], dryRun: argv['dryRun'], patchOut: argv['patchOut'], isolation: argv['isolation'], resume: argv['resume'] });
  if (!parsed.success) throw new AideError('usage', parsed.error.issues[0]?.message ?? 'invalid options', { hint: 'See `aide act --help`.' });
  return parsed.data;
}

export const actCommand: CommandSpec = {
  command: 'act [plan]',
  describe: 'Carry out a plan step by step: edit and verify in a scratch copy, then write what passed',
  builder: (yargs) =>
    yargs
      .positional('plan', { type: 'string', describe: 'The plan document (default: the newest in .aide/plans/)' })
      .option('yes', { alias: 'y', type: 'boolean', default: false, describe: 'Write every verified step without asking' })
      .option('dry-run', { type: 'boolean', default: false, describe: 'Verify every step, write nothing: steps build on each other in the scratch copy' })
      .option('patch-out', { type: 'string', requiresArg: true, describe: 'Write the combined verified patch to this file (with --dry-run: the CI job)' })
      .option('isolation', { type: 'boolean', default: true, describe: 'Run commands without network and with the workspace read-only; --no-isolation runs them unconfined' })
      .option('resume', {
        type: 'boolean',
        default: false,
        describe: 'Carry on the newest unfinished session (of the plan named, if one is): finished steps are skipped, the step it stopped in starts again',
      })
      .example('$0 act', 'carry out the newest plan, asking before each verified step is written')
      .example('$0 act .aide/plans/add-remove.md --yes', 'write every step that passes verification')
      .example('$0 act --dry-run --patch-out aide.patch', 'for CI: verify every step, write only the combined patch')
      .example('$0 act --resume', 'carry on the session that Ctrl-C, a failed step or a crash stopped')
      .epilog(
        'A step is written only after its edits pass the commands in .aide/sandbox.json, and only if the files it touches are still as they were. Each written step is a checkpoint: `aide restore` undoes it.\n\n' +
          'Ctrl-C (or SIGTERM) stops the running command and removes the scratch copy; the files are left wholly before or after the step being written, never in between. `--resume` carries the session on: same session, same undo target. If aide was killed while it wrote a step, `--resume` finishes writing it first. If the plan changed since, it names the steps that changed and asks (--yes: carries on); steps already done are not redone. `--resume --dry-run` carries on a dry run.\n\n' +
          'Exit codes: 0 done, 1 a step failed, 2 usage error, invalid plan or nothing to resume, 4 approval needed but no terminal and no --yes, 5 you chose not to carry on, 6 files changed under aide (the verified patch is saved), 130 interrupted (143 by SIGTERM).',
      ),
  run: async (argv, globals, io) => {
    const options = actOptions(argv);
    const { runAct } = await import('../act-run.js');
    return runAct(options, globals, io);
  },
};

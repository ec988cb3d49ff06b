import { z } from 'zod';
import { drive } from '../../core/flows/drive.js';
import { AideError, ExitCode } from '../../shared/errors.js';
import { useColor } from '../io.js';
import type { CommandRunner, RawArgv } from './spec.js';

export const restoreOptionsSchema = z.object({
  /** The checkpoint: its id, full or abbreviated (yargs may hand a numeric-looking id over as a number). */
  id: z.union([z.string(), z.number()]).transform(String).pipe(z.string().min(1)),
  yes: z.boolean().default(false),
  dryRun: z.boolean().default(false),
});
export type RestoreOptions = z.infer<typeof restoreOptionsSchema>;

export function restoreOptions(argv: RawArgv): RestoreOptions {
  const parsed = restoreOptionsSchema.safeParse({ id: argv['id'], yes: argv['yes'], dryRun: argv['dryRun'] });
  if (!parsed.success) {
    throw new AideError('usage', 'aide restore needs a checkpoint id', {
      hint: 'List the checkpoints with `aide checkpoints`, then `aide restore <id>`.',
    });
  }
  return parsed.data;
}

export const restoreRun: CommandRunner = {
  run: async (argv, globals, io) => {
    const options = restoreOptions(argv);
    const [{ chooseApprover }, { restoreFlow }, { openRestore }, render, { makeStyle }] = await Promise.all([
      import('../approver.js'),
      import('../../core/flows/restore.js'),
      import('../wiring/restore.js'),
      import('../render/restore.js'),
      import('../render/style.js'),
    ]);
    const wiring = await openRestore(globals.cwd, io);
    const style = makeStyle(useColor(io));
    if (wiring === null) {
      // Nothing to restore, and nothing to create for it.
      throw new AideError(
        'checkpoint_unknown',
        `no checkpoint "${options.id}": this workspace has none yet`,
        {
          hint: '`aide checkpoints save` takes one; `aide apply` takes one before it writes.',
        },
      );
    }
    try {
      // An unknown id is a usage error (exit 2) whether or not anyone could be asked: find it first.
      const target = await wiring.show(options.id);
      // A dry run's checkpoint is a state the files never had: say so before anything is asked.
      const dryRun = await wiring.isDryRun(target.session);
      if (dryRun && !globals.json) io.stdout.write(render.dryRunNote(target.short, style));
      // Decided before any work: a run that cannot ask must not change anything (exit 4).
      const approver = chooseApprover(
        { yes: options.yes, dryRun: options.dryRun, command: 'restore' },
        io,
        () => ({
          stdin: process.stdin,
          stdout: globals.json ? process.stderr : process.stdout,
        }),
      );
      const { restorer } = wiring;
      const flow = restoreFlow(
        { target: options.id, dryRun: options.dryRun },
        { restorer, checkpointer: restorer, approver },
      );
      const report = await drive(flow, (event) => {
        if (!globals.json) io.stdout.write(render.renderRestoreEvent(event, style));
      });
      io.stdout.write(globals.json ? render.restoreJson(report) : render.renderRestoreSummary(report, style));
      return report.result === 'declined' ? ExitCode.aborted : ExitCode.ok;
    } finally {
      await wiring.close();
    }
  },
};

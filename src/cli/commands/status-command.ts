/**
 * How yargs knows `aide status` (usage, options, examples, help text): plain data, no zod. What
 * runs it is in status.ts, imported only when the command runs, so `aide --help` does not load it.
 */
import type { CommandSpec } from './spec.js';

export const statusCommand: CommandSpec = {
  command: 'status [session]',
  describe:
    'Show the recent `aide act` sessions and one in full: its plan, what each step did, how to undo it, how to carry it on',
  builder: (yargs) =>
    yargs
      .positional('session', {
        type: 'string',
        describe: 'The session to show (an id, or the first characters of one); omitted: the newest',
      })
      .example('$0 status', 'the newest session in full, and the recent ones in a short list')
      .example('$0 status act-20261201-0911', 'one session: its steps, and what undoes them')
      .epilog(
        'A step a later `aide restore` took back out of the files is shown as undone, with the command that puts it back. ' +
          '"undo this session" names the checkpoint from before the session\'s first write; a session that wrote nothing ' +
          '(a dry run, or every step failed or was skipped) has nothing to undo.',
      ),
  run: async (argv, globals, io) => (await import('./status.js')).statusRun.run(argv, globals, io),
};

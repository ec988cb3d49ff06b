/**
 * How yargs knows `aide restore` (usage, options, examples, help text): plain data, no zod. What
 * runs it is in restore.ts, imported only when the command runs, so `aide --help` does not load it.
 */
import type { CommandSpec } from './spec.js';

export const restoreCommand: CommandSpec = {
  command: 'restore <id>',
  describe: "Put the workspace's files back as a checkpoint had them (undoable)",
  builder: (yargs) =>
    yargs
      .positional('id', {
        type: 'string',
        describe: 'The checkpoint, as `aide checkpoints` lists it (a prefix of its id is enough)',
      })
      .option('yes', { alias: 'y', type: 'boolean', default: false, describe: 'Restore without asking' })
      .option('dry-run', {
        type: 'boolean',
        default: false,
        describe: 'List what would change; write nothing',
      })
      .example(
        '$0 restore 3f9c2a71e0',
        'show what changes, ask, then restore the files of checkpoint 3f9c2a71e0',
      )
      .example('$0 restore 3f9c2a --dry-run', 'only list the files that would be written or removed')
      .example('$0 restore 3f9c2a --yes --json', 'restore without asking (scripts, CI) and report as JSON')
      .epilog(
        'Files only: your .git, branches, index and stash are never touched. Before writing, the current\n' +
          'state is saved as a checkpoint, so a restore can itself be undone (the command to do so is printed).\n' +
          'Files that differ are written back, files created since the checkpoint are removed, and folders\n' +
          'that removal empties go too. Ignored files, files aide never captured and files over\n' +
          'checkpoints.max_file_bytes are left alone. If a restore is interrupted, running it again finishes it.\n' +
          'Exit codes: 0 restored or nothing to do, 2 unknown checkpoint or usage error, 4 no terminal to ask\n' +
          'on and no --yes, 5 you said no, 6 workspace locked by another aide or changed during the restore.',
      ),
  run: async (argv, globals, io) => (await import('./restore.js')).restoreRun.run(argv, globals, io),
};

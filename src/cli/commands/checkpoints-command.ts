/**
 * How yargs knows `aide checkpoints` (usage, options, examples, help text): plain data, no zod. What
 * runs it is in checkpoints.ts, imported only when the command runs, so `aide --help` does not load it.
 */
import type { CommandSpec } from './spec.js';

const show: CommandSpec = {
  command: 'show <id>',
  describe: 'Show a checkpoint: when, why, and the files it changed',
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'Checkpoint id (the first characters are enough)' })
      .example('$0 checkpoints show 3f2a9c1b', 'what that checkpoint recorded'),
  run: async (argv, globals, io) => (await import('./checkpoints.js')).showRun.run(argv, globals, io),
};

const diff: CommandSpec = {
  command: 'diff <id> [id2]',
  describe: 'Diff a checkpoint against another, or against the working tree now',
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'The older checkpoint' })
      .positional('id2', {
        type: 'string',
        describe: 'The newer checkpoint; omitted: the files as they are now',
      })
      .example('$0 checkpoints diff 3f2a9c1b', 'what changed since that checkpoint')
      .example('$0 checkpoints diff 3f2a9c1b 8e0d77aa', 'what changed between two checkpoints'),
  run: async (argv, globals, io) => (await import('./checkpoints.js')).diffRun.run(argv, globals, io),
};

const save: CommandSpec = {
  command: 'save',
  describe: 'Take a checkpoint of the files as they are now',
  builder: (y) =>
    y
      .option('message', {
        alias: 'm',
        type: 'string',
        describe: 'What this checkpoint is for',
        requiresArg: true,
      })
      .example('$0 checkpoints save -m "before my refactor"', 'take one before a risky hand edit'),
  run: async (argv, globals, io) => (await import('./checkpoints.js')).saveRun.run(argv, globals, io),
};

const prune: CommandSpec = {
  command: 'prune',
  describe: 'Remove old sessions of checkpoints and reclaim their space',
  builder: (y) =>
    y
      .option('keep', { type: 'number', describe: 'Keep only the newest N sessions', requiresArg: true })
      .option('older-than', {
        type: 'number',
        describe: 'Remove sessions whose last checkpoint is older than DAYS',
        requiresArg: true,
      })
      .option('dry-run', {
        type: 'boolean',
        default: false,
        describe: 'List what would be removed; remove nothing',
      })
      .example('$0 checkpoints prune --keep 20', 'keep the 20 newest sessions')
      .example('$0 checkpoints prune --older-than 30 --dry-run', 'see what a month-old cut-off would remove')
      .epilog(
        'The newest session is always kept. A session is one `aide apply`, one `checkpoints save`, or one `aide act` run.',
      ),
  run: async (argv, globals, io) => (await import('./checkpoints.js')).pruneRun.run(argv, globals, io),
};

export const checkpointsCommand: CommandSpec = {
  command: 'checkpoints',
  describe: 'List checkpoints (newest first); show, diff, save and prune them',
  builder: (y) =>
    y
      // Not global: these belong to the listing, not to `show`, `diff`, `save` or `prune`.
      .option('session', { type: 'string', describe: 'Only this session', requiresArg: true, global: false })
      .option('limit', {
        type: 'number',
        default: 20,
        describe: 'Show at most N checkpoints',
        requiresArg: true,
        global: false,
      })
      .option('stats', {
        type: 'boolean',
        default: false,
        describe: 'Report the size of the shadow repository instead',
        global: false,
      })
      .option('all', {
        type: 'boolean',
        default: false,
        describe: 'List the checkpoints of dry runs too (marked "dry run")',
        global: false,
      })
      .example('$0 checkpoints', 'the 20 newest checkpoints')
      .example('$0 checkpoints --all', 'the same, with the checkpoints of `aide act --dry-run` sessions')
      .example('$0 checkpoints --stats', 'how much space checkpoints take')
      .epilog(
        'Checkpoints live in .aide/state/shadow.git, never in your own .git. Every `aide apply` takes one before it writes.\n' +
          'Undo to a checkpoint with `aide restore ID`.\n\n' +
          'An `aide act --dry-run` session records what it verified in a scratch copy as checkpoints too. Your files never had ' +
          'those states, so they are hidden unless --all (or --session naming that session) asks for them, marked "dry run" ' +
          'where shown, and the files changed before a real checkpoint are counted without them.',
      ),
  subcommands: [show, diff, save, prune],
  run: async (argv, globals, io) => (await import('./checkpoints.js')).listRun.run(argv, globals, io),
};

/**
 * How yargs knows `aide hooks` (usage, options, examples, help text): plain data, no zod. What
 * runs it is in hooks.ts, imported only when the command runs, so `aide --help` does not load it.
 */
import type { Argv } from 'yargs';
import type { CommandSpec } from './spec.js';

const hookOption = (y: Argv, what: string) =>
  y.option('hook', {
    type: 'string',
    choices: ['pre-commit', 'pre-push'],
    describe: what,
    requiresArg: true,
  });

const install: CommandSpec = {
  command: 'install',
  describe: "Install aide's git hook (pre-commit unless --hook says otherwise)",
  builder: (y) =>
    hookOption(y, 'Which hook (default: pre-commit)')
      .option('force', {
        type: 'boolean',
        default: false,
        describe: "With core.hooksPath in a hook manager's folder (husky): add aide's line to its hook file",
      })
      .example('$0 hooks install', "every commit runs aide's checks on the staged tree")
      .example('$0 hooks install --hook pre-push', 'the same before each push')
      .epilog(
        'A hook that is already there is kept (as pre-commit.aide-chained) and runs first: both must pass. ' +
          'Skip aide once with AIDE_SKIP=1, every hook with `git commit --no-verify`.',
      ),
  run: async (argv, globals, io) => (await import('./hooks.js')).installRun.run(argv, globals, io),
};

const uninstall: CommandSpec = {
  command: 'uninstall',
  describe: "Remove aide's hooks and put back the hooks they kept",
  builder: (y) =>
    hookOption(y, 'Only this hook (default: both)').example(
      '$0 hooks uninstall',
      "remove aide's pre-commit and pre-push hooks",
    ),
  run: async (argv, globals, io) => (await import('./hooks.js')).uninstallRun.run(argv, globals, io),
};

const status: CommandSpec = {
  command: 'status',
  describe: 'Show which hooks are installed where, and whether they would run',
  builder: (y) => hookOption(y, 'Only this hook (default: both)'),
  run: async (argv, globals, io) => (await import('./hooks.js')).statusRun.run(argv, globals, io),
};

export const hooksCommand: CommandSpec = {
  command: 'hooks',
  describe: 'Install, remove and inspect the git hooks that run aide before each commit or push',
  builder: (y) =>
    y
      .example('$0 hooks install', 'check every commit')
      .example('$0 hooks status', 'what is installed, and whether it would run'),
  subcommands: [install, uninstall, status],
  run: async (argv, globals, io) => (await import('./hooks.js')).statusRun.run(argv, globals, io),
};

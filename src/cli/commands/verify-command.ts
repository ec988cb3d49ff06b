import type { CommandSpec } from './spec.js';

export const verifyCommand: CommandSpec = {
  command: 'verify',
  describe:
    "Run the project's checks from .aide/sandbox.json on a scratch copy: the working tree, the staged changes or a commit",
  builder: (yargs) =>
    yargs
      .option('staged', {
        type: 'boolean',
        default: false,
        describe: 'Verify exactly what is staged (the index); the working tree is not read',
      })
      .option('ref', {
        type: 'string',
        requiresArg: true,
        describe: 'Verify a commit (branch, tag, id) instead of the working tree',
      })
      .option('commands', {
        type: 'string',
        array: true,
        requiresArg: true,
        describe:
          'Run only these commands, by name (comma-separated); a command marked optional in sandbox.json runs only when named here',
      })
      .option('junit', {
        type: 'string',
        requiresArg: true,
        describe: 'Also write a JUnit XML report to this file (for CI test reports)',
      })
      .option('isolation', {
        type: 'boolean',
        default: true,
        describe:
          'Run commands without network and with the workspace read-only; --no-isolation runs them unconfined',
      })
      .example('$0 verify', 'check the working tree as it is now, uncommitted changes included')
      .example('$0 verify --staged', 'check what the next commit would contain')
      .example('$0 verify --ref HEAD~1 --commands test', 'run only "test" on the previous commit')
      .example(
        '$0 verify --json --junit verify.xml',
        'for CI: a JSON report on stdout and JUnit XML in a file',
      )
      .epilog(
        'Commands come only from .aide/sandbox.json (or, when it lists none, from what `aide init` detects).\n' +
          'They run in a scratch copy outside the workspace; your files and .git are never written.\n' +
          'Full output of every run is kept under .aide/state/sessions/<id>/logs/.\n' +
          'Exit codes: 0 every command passed, 1 a command failed, 2 configuration or usage error,\n' +
          '130 interrupted (Ctrl-C).',
      ),
  run: async (argv, globals, io) => {
    const { verifyOptions } = await import('./verify-options.js');
    const options = verifyOptions(argv);
    const { runVerify } = await import('../verify-run.js');
    return runVerify(options, globals, io);
  },
};

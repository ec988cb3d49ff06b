/**
 * How yargs knows `aide apply` (usage, options, examples, help text): plain data, no zod. What
 * runs it is in apply.ts, imported only when the command runs, so `aide --help` does not load it.
 */
import type { CommandSpec } from './spec.js';

export const applyCommand: CommandSpec = {
  command: 'apply [file]',
  describe: 'Apply SEARCH/REPLACE blocks or a unified diff from a model response',
  builder: (yargs) =>
    yargs
      .positional('file', {
        type: 'string',
        describe: 'File holding the response; - or omitted reads standard input',
      })
      .option('dry-run', {
        type: 'boolean',
        default: false,
        describe: 'Show the diff and what would change; write nothing',
      })
      .option('allow-protected', {
        type: 'boolean',
        default: false,
        describe:
          'Also write protected files (config.json protected_paths: tests, lockfiles, CI, hooks, package scripts; and .aide/) without asking',
      })
      .example('$0 apply reply.md', 'apply the edits in reply.md to this repository')
      .example('pbpaste | $0 apply --dry-run', 'preview pasted model output as a diff')
      .example('git diff | $0 apply --cwd ../other-checkout', 'replay a diff by content in another checkout')
      .example(
        '$0 apply --allow-protected reply.md',
        'apply reply.md, protected files (tests, CI, .aide/) included',
      )
      .epilog(
        'All or nothing: if any edit does not apply, no file is written and the report says why.\n' +
          'A reply that changes a protected file (protected_paths in .aide/config.json, and .aide/ itself) is written only with --allow-protected or a yes at the terminal; otherwise nothing is written.\n' +
          'Exit codes: 0 every edit applied, 1 an edit failed or there were none, 2 usage error, 4 protected files and no terminal to ask (nor --allow-protected), 5 you said no to them.',
      ),
  run: async (argv, globals, io) => (await import('./apply.js')).applyRun.run(argv, globals, io),
};

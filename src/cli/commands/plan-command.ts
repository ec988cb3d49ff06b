/**
 * How yargs knows `aide plan` (usage, options, examples, help text): plain data, no zod. What
 * runs it is in plan.ts, imported only when the command runs.
 */
import { withModelOptions } from './model-options.js';
import type { CommandSpec } from './spec.js';

export const planCommand: CommandSpec = {
  command: 'plan <task>',
  describe:
    'Turn a task written in markdown into a plan document: the model reads the repository, writes nothing',
  builder: (yargs) =>
    withModelOptions(
      yargs
        .positional('task', {
          type: 'string',
          describe: 'The task file (markdown), or - to read it from standard input',
        })
        .option('out', {
          type: 'string',
          requiresArg: true,
          describe:
            'Write the plan to this file (default: .aide/plans/<slug of the title>.md, never overwriting one)',
        })
        .option('force', {
          type: 'boolean',
          default: false,
          describe: 'With --out: replace the file if it exists',
        }),
    )
      .example('$0 plan task.md', 'write .aide/plans/<title>.md, then print its steps and the next command')
      .example('$0 plan task.md --out .aide/plans/fix.md', 'choose where the plan goes')
      .example(
        '$0 plan task.md --model replay:replies.jsonl',
        'answer with a scripted conversation (tests, demos)',
      )
      .example('echo "# Add a --verbose flag" | $0 plan -', 'read the task from standard input')
      .epilog(
        [
          'The task is free-form markdown: its first "# " heading is the title; the files it',
          'names (a "Files:" line, a "## Files" list, paths in `backticks`) are read first.',
          "aide checkpoints the workspace (the plan's base) and the model reads that snapshot",
          'only, through read-only tools (read_file, list_files, search_files): it cannot write',
          'a file or run a command. Review and edit the plan, then run `aide act <plan>`.',
          'Exit codes: 0 plan written, 1 no usable plan from the model (the last problem is',
          'printed), 2 usage or config error, 3 model unavailable (no server, unknown model,',
          'context too small, a prompt the server cut), 130 interrupted.',
        ].join('\n'),
      ),
  run: async (argv, globals, io) => (await import('./plan.js')).planRun.run(argv, globals, io),
};

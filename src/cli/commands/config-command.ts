/**
 * How yargs knows `aide config` (usage, options, examples, help text): plain data, no zod. What
 * runs it is in config.ts, imported only when the command runs, so `aide --help` does not load it.
 */
import { withModelOptions } from './model-options.js';
import type { CommandSpec } from './spec.js';

export const configCommand: CommandSpec = {
  command: 'config',
  describe: 'Show every setting in effect and where each value comes from',
  builder: (yargs) =>
    withModelOptions(yargs)
      .example('$0 config', 'list every setting with its source: default, file:line, or environment variable')
      .example('AIDE_MODEL=llama3.1:8b $0 config --json', 'see an override take effect, as JSON')
      .example(
        '$0 config --model qwen3-coder:30b',
        'what a run with --model would use (a flag beats AIDE_MODEL)',
      )
      .epilog(
        'Reads .aide/config.json and .aide/sandbox.json at the workspace root (the top of the git work tree).\n' +
          'A missing file means defaults. An invalid file is an error listing every problem with file:line:column.\n' +
          'Precedence: flag, then environment variable, then file, then default.\n' +
          'Exit codes: 0 valid, 2 a file, environment variable or flag is invalid.',
      ),
  run: async (argv, globals, io) => (await import('./config.js')).configRun.run(argv, globals, io),
};

/**
 * How yargs knows `aide doctor` (usage, options, examples, help text): plain data, no zod. What
 * runs it is in doctor.ts, imported only when the command runs, so `aide --help` does not load it.
 */
import { withModelOptions } from './model-options.js';
import type { CommandSpec } from './spec.js';

export const doctorCommand: CommandSpec = {
  command: 'doctor',
  describe:
    'Check what works on this machine: node, git, the workspace, scratch copies, network isolation, the model server',
  builder: (yargs) =>
    withModelOptions(yargs)
      .example('$0 doctor', 'list each check with what to do about a failing one')
      .example('$0 doctor --json', 'the same, with every fact gathered, as JSON')
      .example('$0 doctor --endpoint http://127.0.0.1:8080/v1', 'check another model server for this run')
      .epilog(
        'Reads only: takes no lock, creates no shadow repository.\n' +
          'Contacts the model server (loopback, or remote with allow_remote) for 5 s at most: its kind, the model, its context, one one-token reply.\n' +
          'Probes run once each: git --version, unshare -rn true, bwrap --version, and an overlay mount in unshare -rm.\n' +
          'Exit codes: 0 aide can work here (warnings included), 1 something aide needs is missing (each with its fix).',
      ),
  run: async (argv, globals, io) => (await import('./doctor.js')).doctorRun.run(argv, globals, io),
};

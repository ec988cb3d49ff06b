import { withModelOptions } from './model-options.js';
import type { CommandSpec } from './spec.js';

export const actCommand: CommandSpec = {
  command: 'act [plan]',
  describe: 'Carry out a plan step by step: edit and verify in a scratch copy, then write what passed',
  builder: (yargs) =>
    withModelOptions(yargs)
      .positional('plan', {
        type: 'string',
        describe: 'The plan document (default: the newest in .aide/plans/)',
      })
      .option('yes', {
        alias: 'y',
        type: 'boolean',
        default: false,
        describe: 'Write every verified step without asking',
      })
      .option('allow-protected', {
        type: 'boolean',
        default: false,
        describe:
          'With --yes: also write steps that change protected files (config.json protected_paths: tests, lockfiles, CI, hooks, package scripts)',
      })
      .option('dry-run', {
        type: 'boolean',
        default: false,
        describe: 'Verify every step, write nothing: steps build on each other in the scratch copy',
      })
      .option('patch-out', {
        type: 'string',
        requiresArg: true,
        describe: 'Write the combined verified patch to this file (with --dry-run: the CI job)',
      })
      .option('step', {
        type: 'number',
        requiresArg: true,
        describe:
          "Carry out only the step with this number, starting from the workspace as it is (a template needing an earlier step's output fails that step)",
      })
      .option('junit', {
        type: 'string',
        requiresArg: true,
        describe: 'Also write a JUnit XML report to this file: one test case per step (for CI test reports)',
      })
      .option('isolation', {
        type: 'boolean',
        default: true,
        describe:
          'Run commands without network and with the workspace read-only; --no-isolation runs them unconfined',
      })
      .option('resume', {
        type: 'boolean',
        default: false,
        describe:
          'Carry on the newest unfinished session (of the plan named, if one is): finished steps are skipped, the step it stopped in starts again',
      })
      .example('$0 act', 'carry out the newest plan, asking before each verified step is written')
      .example('$0 act .aide/plans/add-remove.md --yes', 'write every step that passes verification')
      .example(
        '$0 act --yes --allow-protected',
        'the same, including steps that change tests, lockfiles or other protected files',
      )
      .example(
        '$0 act --dry-run --patch-out aide.patch',
        'for CI: verify every step, write only the combined patch',
      )
      .example(
        '$0 act --dry-run --junit aide-act.xml',
        'for CI: verify every step and report each as a test case',
      )
      .example('$0 act --step 2 --yes', 'carry out step 2 alone, e.g. after fixing it in the plan')
      .example('$0 act --resume', 'carry on the session that Ctrl-C, a failed step or a crash stopped')
      .epilog(
        'A step is written only after its edits pass the commands in .aide/sandbox.json, and only if the files it touches are still as they were. Each written step is a checkpoint: `aide restore` undoes it.\n\n' +
          'A step that changes a protected file (protected_paths in .aide/config.json) needs a second, explicit yes at the terminal; --yes refuses it unless --allow-protected is given too.\n\n' +
          'A command marked "optional" in .aide/sandbox.json runs only for a step whose Verify: line names it. Every Verify: name must be a command there: otherwise aide stops before any work (exit 2).\n\n' +
          'Ctrl-C (or SIGTERM) stops the running command and removes the scratch copy; the files are left wholly before or after the step being written, never in between. `--resume` carries the session on: same session, same undo target. If aide was killed while it wrote a step, `--resume` finishes writing it first. If the plan changed since, it names the steps that changed and asks (--yes: carries on); steps already done are not redone. `--resume --dry-run` carries on a dry run.\n\n' +
          'Exit codes: 0 done, 1 a step failed, 2 usage error, invalid plan, no such --step or nothing to resume, 4 approval needed (no terminal and no --yes, or a protected step without --allow-protected), 5 you aborted or chose not to carry on, 3 the model is unavailable (no server, unknown model, context too small), 6 files changed under aide (the verified patch is saved), 130 interrupted (143 by SIGTERM).',
      ),
  run: async (argv, globals, io) => {
    const { actOptions } = await import('./act-options.js');
    const options = actOptions(argv);
    const { runAct } = await import('../act-run.js');
    return runAct(options, globals, io);
  },
};

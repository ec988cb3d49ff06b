import { withModelOptions } from './model-options.js';
import type { CommandSpec } from './spec.js';

export const reviewCommand: CommandSpec = {
  command: 'review',
  describe:
    'Check a change before it lands (what a git hook or CI runs): secrets, invisible Unicode, conflict markers, protected paths, large files, then the verify commands on a scratch copy and a model review',
  builder: (yargs) =>
    withModelOptions(yargs)
      .option('staged', {
        type: 'boolean',
        default: false,
        describe: 'Review exactly what is staged (the index, or the one git names in GIT_INDEX_FILE)',
      })
      .option('from-ref', {
        type: 'string',
        requiresArg: true,
        describe: 'Review the change from this commit (e.g. the pull request base)…',
      })
      .option('to-ref', {
        type: 'string',
        requiresArg: true,
        describe: '…to this one (default HEAD); checked out in a scratch copy, never in your working tree',
      })
      .option('pre-push', {
        type: 'string',
        requiresArg: true,
        describe:
          "Review what `git push` sends (what the pre-push hook runs): git's ref lines on stdin, each range from what the remote has",
      })
      .option('skip', {
        type: 'string',
        array: true,
        requiresArg: true,
        describe: 'Skip these checks, by name (comma-separated), e.g. --skip verify,secrets; also AIDE_SKIP',
      })
      .option('junit', {
        type: 'string',
        requiresArg: true,
        describe: 'Also write a JUnit XML report to this file, one test case per check (for CI test reports)',
      })
      .option('isolation', {
        type: 'boolean',
        default: true,
        describe: 'Run the verify commands without network and with the workspace read-only',
      })
      .example(
        '$0 review --staged',
        'check what the next commit would contain (what the pre-commit hook runs)',
      )
      .example('$0 review --from-ref origin/main --to-ref HEAD', "for CI: check a pull request's commits")
      .example(
        '$0 review --from-ref origin/main --junit review.xml',
        'the same, with a JUnit report for the CI page',
      )
      .example('AIDE_SKIP=verify $0 review --staged', 'the static checks only')
      .epilog(
        'Checks: invisible-unicode, conflict-markers, secrets (in added lines; false positives in\n' +
          '.aide/review-ignore as path:rule[:line]), protected-paths (a warning, or a failure with\n' +
          'review.protected "block"), large-files (over review.max_file_kb, 500 KiB; Git LFS pointers excluded),\n' +
          'verify (the .aide/sandbox.json commands, or review.commands, on a scratch copy of exactly the\n' +
          'reviewed tree), model (the change reviewed by the configured model, when one is configured\n' +
          '(model.name or model.endpoint, AIDE_MODEL, --model) and its server answers within 2 s, else\n' +
          'Skipped; advice unless review.model_blocks_on names a severity: "error", "warning", "info").\n' +
          'Settings: "review" in .aide/config.json.\n' +
          'Your working tree, index and .git are never written. AIDE_SKIP=1 skips every check,\n' +
          'AIDE_SKIP=verify,secrets the ones named.\n' +
          'Exit codes: 0 every check passed or was skipped, 1 a check failed, 2 configuration or usage\n' +
          'error, 130 interrupted (Ctrl-C).',
      ),
  run: async (argv, globals, io) => {
    const { reviewOptions } = await import('./review-options.js');
    const options = reviewOptions(argv, io.env);
    if (options.prePush !== undefined) {
      const { runPushReview } = await import('../review-push.js');
      return runPushReview(options.prePush, options, globals, io);
    }
    const { runReview } = await import('../review-run.js');
    return runReview(options, globals, io);
  },
};

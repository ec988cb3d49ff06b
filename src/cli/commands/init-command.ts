/**
 * How yargs knows `aide init` (usage, options, examples, help text): plain data, no zod. What
 * runs it is in init.ts, imported only when the command runs, so `aide --help` does not load it.
 */
import type { CommandSpec } from './spec.js';

export const initCommand: CommandSpec = {
  command: 'init',
  describe: 'Write .aide/config.json and .aide/sandbox.json with the detected verify commands',
  builder: (yargs) =>
    yargs
      .option('force', {
        type: 'boolean',
        default: false,
        describe: 'Replace existing .aide/config.json and .aide/sandbox.json',
      })
      .example('$0 init', 'write .aide/ with the test, lint and build commands found in this project')
      .example('$0 init --force --json', 'start over, and report what was written as JSON')
      .epilog(
        'Verify commands are detected from package.json scripts (typecheck, lint, build, test; run with\n' +
          'npm, pnpm, yarn or bun after the lockfile, across workspace packages in a monorepo), a Makefile\n' +
          '"test" or "check" target, go.mod (go vet, go test), Cargo.toml (cargo test; clippy optional),\n' +
          'ruff, mypy and pytest settings, and tox, nox and pre-commit (optional). Each is shown with where\n' +
          'it was found. Existing config files are never replaced without --force; .aide/.gitignore\n' +
          'only gains a "state/" line.\n' +
          'Exit codes: 0 written, 2 files already exist or usage error.',
      ),
  run: async (argv, globals, io) => (await import('./init.js')).initRun.run(argv, globals, io),
};

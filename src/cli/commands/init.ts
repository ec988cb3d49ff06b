import { z } from 'zod';
import { ExitCode } from '../../shared/errors.js';
import { useColor } from '../io.js';
import type { CommandSpec, RawArgv } from './spec.js';

export const initOptionsSchema = z.object({
  force: z.boolean().default(false),
});
export type InitOptions = z.infer<typeof initOptionsSchema>;

export function initOptions(argv: RawArgv): InitOptions {
  return initOptionsSchema.parse({ force: argv['force'] });
}

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
  run: async (argv, globals, io) => {
    const options = initOptions(argv);
    const [
      { initWorkspace },
      { NodeFileSystem },
      { NodeDirectoryLister },
      { findWorkspaceRoot },
      render,
      { makeStyle },
    ] = await Promise.all([
      import('../../core/init/init-workspace.js'),
      import('../../infra/fs/node-file-system.js'),
      import('../../infra/fs/list-directories.js'),
      import('../../infra/git/workspace-root.js'),
      import('../render/init.js'),
      import('../render/style.js'),
    ]);
    const root = await findWorkspaceRoot(globals.cwd, io.env);
    const report = await initWorkspace(
      { root, force: options.force },
      { fs: new NodeFileSystem(), lister: new NodeDirectoryLister() },
    );
    io.stdout.write(
      globals.json ? render.initJson(report) : render.renderInitText(report, makeStyle(useColor(io))),
    );
    return ExitCode.ok;
  },
};

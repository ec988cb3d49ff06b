import { z } from 'zod';
import { ExitCode } from '../../shared/errors.js';
import { useColor } from '../io.js';
import type { CommandSpec, RawArgv } from './spec.js';

/** `aide config` has no options of its own (--json and --cwd are global). */
export const configOptionsSchema = z.object({});
export type ConfigOptions = z.infer<typeof configOptionsSchema>;

/** Keeps only this command's options: yargs' own keys (_, $0) and the globals are dropped. */
export function configOptions(argv: RawArgv): ConfigOptions {
  return configOptionsSchema.parse(argv);
}

export const configCommand: CommandSpec = {
  command: 'config',
  describe: 'Show every setting in effect and where each value comes from',
  builder: (yargs) =>
    yargs
      .example('$0 config', 'list every setting with its source: default, file:line, or environment variable')
      .example('AIDE_MODEL=llama3.1:8b $0 config --json', 'see an override take effect, as JSON')
      .epilog(
        'Reads .aide/config.json and .aide/sandbox.json at the workspace root (the top of the git work tree).\n' +
          'A missing file means defaults. An invalid file is an error listing every problem with file:line:column.\n' +
          'Exit codes: 0 valid, 2 a file or environment variable is invalid.',
      ),
  run: async (argv, globals, io) => {
    configOptions(argv);
    const [{ loadWorkspaceConfig }, { findWorkspaceRoot }, render, { makeStyle }] = await Promise.all([
      import('../../config/load-workspace.js'),
      import('../../infra/git/workspace-root.js'),
      import('../render/config.js'),
      import('../render/style.js'),
    ]);
    const root = await findWorkspaceRoot(globals.cwd, io.env);
    const loaded = await loadWorkspaceConfig(root, io.env);
    io.stdout.write(
      globals.json
        ? render.configJson(root, loaded)
        : render.renderConfigText(root, loaded, makeStyle(useColor(io))),
    );
    return ExitCode.ok;
  },
};

import { z } from 'zod';
import { ExitCode } from '../../shared/errors.js';
import { useColor } from '../io.js';
import { modelFlags, modelFlagsShape } from './model-flags.js';
import type { CommandRunner, RawArgv } from './spec.js';

/** `aide config`'s own options: `--model` and `--endpoint` (--json and --cwd are global). */
export const configOptionsSchema = z.object(modelFlagsShape);
export type ConfigOptions = z.infer<typeof configOptionsSchema>;

/** Keeps only this command's options: yargs' own keys (_, $0) and the globals are dropped. */
export function configOptions(argv: RawArgv): ConfigOptions {
  return modelFlags(argv, 'config');
}

export const configRun: CommandRunner = {
  run: async (argv, globals, io) => {
    const options = configOptions(argv);
    const [{ loadWorkspaceConfig }, { findWorkspaceRoot }, render, { makeStyle }] = await Promise.all([
      import('../../config/load-workspace.js'),
      import('../wiring/workspace.js'),
      import('../render/config.js'),
      import('../render/style.js'),
    ]);
    const root = await findWorkspaceRoot(globals.cwd, io.env);
    const loaded = await loadWorkspaceConfig(root, io.env, options);
    io.stdout.write(
      globals.json
        ? render.configJson(root, loaded)
        : render.renderConfigText(root, loaded, makeStyle(useColor(io))),
    );
    return ExitCode.ok;
  },
};

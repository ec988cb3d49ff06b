import { z } from 'zod';
import { ExitCode } from '../../shared/errors.js';
import { useColor } from '../io.js';
import type { CommandRunner, RawArgv } from './spec.js';

export const initOptionsSchema = z.object({
  force: z.boolean().default(false),
});
export type InitOptions = z.infer<typeof initOptionsSchema>;

export function initOptions(argv: RawArgv): InitOptions {
  return initOptionsSchema.parse({ force: argv['force'] });
}

export const initRun: CommandRunner = {
  run: async (argv, globals, io) => {
    const options = initOptions(argv);
    const [{ initWorkspace }, { openInit }, render, { makeStyle }] = await Promise.all([
      import('../../core/init/init-workspace.js'),
      import('../wiring/init.js'),
      import('../render/init.js'),
      import('../render/style.js'),
    ]);
    const { root, deps } = await openInit(globals.cwd, io.env);
    const report = await initWorkspace({ root, force: options.force }, deps);
    io.stdout.write(
      globals.json ? render.initJson(report) : render.renderInitText(report, makeStyle(useColor(io))),
    );
    return ExitCode.ok;
  },
};

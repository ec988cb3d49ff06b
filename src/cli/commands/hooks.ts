/**
 * `aide hooks install|uninstall|status`: argv to options, then the wiring's effects, then text.
 */
import { z } from 'zod';
import { HOOK_NAMES, type HookName } from '../../core/hooks/hook-script.js';
import { AideError, ExitCode } from '../../shared/errors.js';
import type { CommandRunner, RawArgv } from './spec.js';

const hookSchema = z.enum(['pre-commit', 'pre-push']);
const installSchema = z.object({ hook: hookSchema.default('pre-commit'), force: z.boolean().default(false) });
const selectSchema = z.object({ hook: hookSchema.optional() });

export type HooksInstallOptions = z.infer<typeof installSchema>;

function parse<T extends z.ZodType>(schema: T, input: Record<string, unknown>): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success)
    throw new AideError('usage', result.error.issues.map((i) => i.message).join('; '), {
      hint: 'See `aide hooks --help`.',
    });
  return result.data;
}

export const installOptions = (argv: RawArgv): HooksInstallOptions =>
  parse(installSchema, { hook: argv['hook'], force: argv['force'] });

/** The hooks `uninstall` and `status` look at: the one --hook names, else both. */
export const selectedHooks = (argv: RawArgv): readonly HookName[] => {
  const { hook } = parse(selectSchema, { hook: argv['hook'] });
  return hook === undefined ? HOOK_NAMES : [hook];
};

export const installRun: CommandRunner = {
  run: async (argv, globals, io) => {
    const options = installOptions(argv);
    const [{ installHook }, render] = await Promise.all([
      import('../wiring/hooks.js'),
      import('../render/hooks.js'),
    ]);
    const outcome = await installHook(globals.cwd, io.env, options.hook, options.force);
    io.stdout.write(globals.json ? `${JSON.stringify(outcome)}\n` : render.renderInstall(outcome));
    // Nothing written into a manager's folder is a refusal: the hook does not run until the line is added.
    return outcome.kind === 'manager' && !outcome.written ? ExitCode.failed : ExitCode.ok;
  },
};

export const uninstallRun: CommandRunner = {
  run: async (argv, globals, io) => {
    const hooks = selectedHooks(argv);
    const [{ uninstallHook }, render] = await Promise.all([
      import('../wiring/hooks.js'),
      import('../render/hooks.js'),
    ]);
    const outcomes = [];
    for (const hook of hooks) outcomes.push(await uninstallHook(globals.cwd, io.env, hook));
    io.stdout.write(globals.json ? `${JSON.stringify(outcomes)}\n` : render.renderUninstall(outcomes));
    return ExitCode.ok;
  },
};

export const statusRun: CommandRunner = {
  run: async (argv, globals, io) => {
    const hooks = selectedHooks(argv);
    const [{ hooksStatus }, render] = await Promise.all([
      import('../wiring/hooks.js'),
      import('../render/hooks.js'),
    ]);
    const status = await hooksStatus(globals.cwd, io.env, hooks);
    io.stdout.write(globals.json ? `${JSON.stringify(status)}\n` : render.renderStatus(status));
    return ExitCode.ok;
  },
};

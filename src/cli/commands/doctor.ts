import { z } from 'zod';
import { ExitCode } from '../../shared/errors.js';
import { useColor } from '../io.js';
import { modelFlags, modelFlagsShape } from './model-flags.js';
import type { CommandRunner, RawArgv } from './spec.js';

/** `aide doctor`'s own options: `--model` and `--endpoint` (--json and --cwd are global). */
export const doctorOptionsSchema = z.object(modelFlagsShape);
export type DoctorOptions = z.infer<typeof doctorOptionsSchema>;

export function doctorOptions(argv: RawArgv): DoctorOptions {
  return modelFlags(argv, 'doctor');
}

export const doctorRun: CommandRunner = {
  run: async (argv, globals, io) => {
    const options = doctorOptions(argv);
    const [{ gatherDoctorFacts }, { assessDoctor }, render, { makeStyle }] = await Promise.all([
      import('../wiring/doctor.js'),
      import('../../core/doctor/assess.js'),
      import('../render/doctor.js'),
      import('../render/style.js'),
    ]);
    const facts = await gatherDoctorFacts(globals.cwd, io.env, options);
    const report = assessDoctor(facts);
    io.stdout.write(
      globals.json
        ? render.doctorJson(report, facts)
        : render.renderDoctorText(facts.workspace.root, report, makeStyle(useColor(io))),
    );
    return report.ok ? ExitCode.ok : ExitCode.failed;
  },
};

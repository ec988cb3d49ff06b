import { z } from 'zod';
import { ExitCode } from '../../shared/errors.js';
import { useColor } from '../io.js';
import type { CommandRunner, RawArgv } from './spec.js';

/** `aide doctor` has no options of its own (--json and --cwd are global). */
export const doctorOptionsSchema = z.object({});
export type DoctorOptions = z.infer<typeof doctorOptionsSchema>;

export function doctorOptions(argv: RawArgv): DoctorOptions {
  return doctorOptionsSchema.parse(argv);
}

export const doctorRun: CommandRunner = {
  run: async (argv, globals, io) => {
    doctorOptions(argv);
    const [{ gatherDoctorFacts }, { assessDoctor }, render, { makeStyle }] = await Promise.all([
      import('../wiring/doctor.js'),
      import('../../core/doctor/assess.js'),
      import('../render/doctor.js'),
      import('../render/style.js'),
    ]);
    const facts = await gatherDoctorFacts(globals.cwd, io.env);
    const report = assessDoctor(facts);
    io.stdout.write(
      globals.json
        ? render.doctorJson(report, facts)
        : render.renderDoctorText(facts.workspace.root, report, makeStyle(useColor(io))),
    );
    return report.ok ? ExitCode.ok : ExitCode.failed;
  },
};

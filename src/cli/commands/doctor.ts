import { z } from 'zod';
import { ExitCode } from '../../shared/errors.js';
import { useColor } from '../io.js';
import type { CommandSpec, RawArgv } from './spec.js';

/** `aide doctor` has no options of its own (--json and --cwd are global). */
export const doctorOptionsSchema = z.object({});
export type DoctorOptions = z.infer<typeof doctorOptionsSchema>;

export function doctorOptions(argv: RawArgv): DoctorOptions {
  return doctorOptionsSchema.parse(argv);
}

export const doctorCommand: CommandSpec = {
  command: 'doctor',
  describe:
    'Check what works on this machine: node, git, the workspace, scratch copies, network isolation, the model endpoint',
  builder: (yargs) =>
    yargs
      .example('$0 doctor', 'list each check with what to do about a failing one')
      .example('$0 doctor --json', 'the same, with every fact gathered, as JSON')
      .epilog(
        'Reads only: takes no lock, creates no shadow repository, does not contact the model server.\n' +
          'Probes run once each: git --version, unshare -rn true, bwrap --version, and an overlay mount in unshare -rm.\n' +
          'Exit codes: 0 aide can work here (warnings included), 1 something aide needs is missing (each with its fix).',
      ),
  run: async (argv, globals, io) => {
    doctorOptions(argv);
    const [{ gatherDoctorFacts }, { assessDoctor }, render, { makeStyle }] = await Promise.all([
      import('../doctor-facts.js'),
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

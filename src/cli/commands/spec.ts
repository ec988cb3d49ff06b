import type { Argv } from 'yargs';
import type { CliIo, GlobalOptions } from '../io.js';

/** Parsed argv as yargs hands it over: option names in both kebab and camel case. */
export type RawArgv = Readonly<Record<string, unknown>>;

/**
 * One command: its yargs definition (plain data, in a `*-command.ts` module) and a `run` that
 * imports the module doing the work only when the command runs: that module turns argv into
 * typed options (a zod schema per command) and runs the flow. `aide --help`, `aide --version`
 * and every other command then load neither zod nor the flows of commands they do not run.
 */
export interface CommandSpec {
  command: string;
  describe: string;
  builder: (yargs: Argv) => Argv;
  run: (argv: RawArgv, globals: GlobalOptions, io: CliIo) => Promise<number>;
  /** Nested commands (`aide checkpoints show ID`); `run` handles the command without one. */
  subcommands?: readonly CommandSpec[];
}

/** What a command module exports for its stub to call: the `run` half of its spec. */
export type CommandRunner = Pick<CommandSpec, 'run'>;

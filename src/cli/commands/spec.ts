import type { Argv } from 'yargs';
import type { CliIo, GlobalOptions } from '../io.js';

/** Parsed argv as yargs hands it over: option names in both kebab and camel case. */
export type RawArgv = Readonly<Record<string, unknown>>;

/**
 * One command: its yargs definition, and a `run` that turns argv into typed options (a zod
 * schema per command) and imports its implementation lazily, so `aide --help` stays fast.
 */
export interface CommandSpec {
  command: string;
  describe: string;
  builder: (yargs: Argv) => Argv;
  run: (argv: RawArgv, globals: GlobalOptions, io: CliIo) => Promise<number>;
  /** Nested commands (`aide checkpoints show ID`); `run` handles the command without one. */
  subcommands?: readonly CommandSpec[];
}

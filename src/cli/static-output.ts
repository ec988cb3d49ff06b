/**
 * What a bare `aide --version` or `aide --help` prints: texts that need no parser, so the bin
 * (src/bin.ts) answers them before loading the CLI, and main.ts before loading yargs.
 */
import { packageManifest } from './package-files.js';
import { TOP_HELP, TOP_HELP_WIDTH } from './top-help.js';

export function packageVersion(): string {
  const version = packageManifest().version;
  return typeof version === 'string' ? version : '0.0.0';
}

/** The width yargs wraps help at: the terminal's, between 60 and 100 columns. */
export function helpWidth(): number {
  return Math.min(TOP_HELP_WIDTH, Math.max(60, process.stdout.columns || TOP_HELP_WIDTH));
}

/**
 * The text of a bare `aide --version` or `aide --help` (at the default width), which needs no
 * parser: yargs takes more CPU to load than the rest of such a start. Anything else: undefined.
 */
export function staticOutput(args: readonly string[]): string | undefined {
  if (args.length !== 1) return undefined;
  if (args[0] === '--version') return packageVersion();
  if ((args[0] === '--help' || args[0] === '-h') && helpWidth() === TOP_HELP_WIDTH) return TOP_HELP;
  return undefined;
}

/**
 * The composition root: builds the yargs parser, runs the chosen command and turns its
 * outcome into the one exit code. Nothing else in aide decides the exit code.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Argv, default as Yargs } from 'yargs';
import { HOOK_ARGS } from '../core/hooks/hook-script.js';
import { AideError, ExitCode } from '../shared/errors.js';
import { didYouMean } from '../shared/text.js';
import { commands } from './commands/index.js';
import { helpWidth, packageVersion, staticOutput } from './static-output.js';
import type { CommandSpec, RawArgv } from './commands/spec.js';
import type { CliIo, GlobalOptions } from './io.js';
import { printError } from './render/error.js';
import { withSourceStack } from './source-stack.js';
import { usageError } from './usage-errors.js';

export { packageVersion } from './static-output.js';

interface Selected {
  spec: CommandSpec;
  argv: RawArgv;
}

function register(parser: Argv, spec: CommandSpec, select: (selected: Selected) => void): Argv {
  const builder = (yargs: Argv) => {
    let built = spec.builder(yargs);
    for (const sub of spec.subcommands ?? []) built = register(built, sub, select);
    return built;
  };
  return parser.command(spec.command, spec.describe, builder, (argv) => {
    select({ spec, argv });
  });
}

/**
 * The options yargs knows at this point of parsing (the chosen command's and the global ones),
 * for "did you mean". getOptions() is public on the instance but missing from its typings.
 */
function knownOptions(parser: Argv): string[] {
  const withOptions = parser as unknown as { getOptions?: () => { key?: Record<string, unknown> } };
  return Object.keys(withOptions.getOptions?.().key ?? {});
}

function buildParser(
  yargs: typeof Yargs,
  select: (selected: Selected) => void,
  args: readonly string[],
  width: number,
) {
  const parser = yargs()
    .scriptName('aide')
    .usage(
      '$0 <command> [options]\n\naide applies, verifies and checkpoints code changes written by a local model.',
    )
    .strict()
    .exitProcess(false)
    .version(packageVersion())
    .help()
    .alias('h', 'help')
    .wrap(width)
    .option('json', {
      type: 'boolean',
      default: false,
      describe: 'Print machine-readable JSON instead of text',
      global: true,
    })
    .option('cwd', {
      type: 'string',
      describe: 'Run as if aide was started in this directory',
      global: true,
      requiresArg: true,
    })
    .demandCommand(1, 'Name a command; `aide --help` lists them.')
    .recommendCommands()
    .epilog(
      [
        'Exit codes:',
        '  0    ok',
        '  1    failed: verification failed, review blocked, an edit did not apply',
        '  2    usage or configuration error (an unknown checkpoint or session too)',
        '  3    model unavailable or unusable',
        '  4    approval needed, but no terminal to ask on and no --yes',
        '  5    aborted: you said no',
        '  6    workspace conflict: another aide holds it, or files changed under aide',
        '  70   internal error: a bug in aide, please report it',
        '  130  interrupted (Ctrl-C; 143 for SIGTERM)',
      ].join('\n'),
    )
    .fail((message: string | undefined, error: Error | undefined) => {
      // yargs' own validation (an option given without its value: YError) is a usage error too.
      if (error !== undefined && error.name !== 'YError') throw error;
      throw usageError(
        message ?? error?.message ?? 'invalid command line',
        args,
        commands,
        knownOptions(parser),
      );
    });
  skipHelpCache(parser);
  let withCommands: Argv = parser;
  for (const spec of commands) withCommands = register(withCommands, spec, select);
  return withCommands;
}

/**
 * yargs lays out the chosen command's whole help text after running its handler, and keeps it in
 * case a promise the handler returned fails later: 40–100 ms of a start (string widths, wrapping),
 * a third of `aide status`. aide's handlers only record the choice and return nothing, so that text
 * is never shown; help that is asked for is laid out when it is asked for. The cache hook is
 * internal to yargs: where it is missing, nothing changes.
 */
function skipHelpCache(parser: Argv): void {
  type Usage = { cacheHelpMessage?: () => void };
  const internals = parser as unknown as { getInternalMethods?: () => { getUsageInstance?: () => Usage } };
  const usage = internals.getInternalMethods?.().getUsageInstance?.();
  if (typeof usage?.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => undefined;
}

function globalsFrom(argv: RawArgv, io: CliIo): GlobalOptions {
  const cwdArg = argv['cwd'];
  const cwd = typeof cwdArg === 'string' && cwdArg !== '' ? resolve(io.cwd, cwdArg) : io.cwd;
  // A file there would reach every command as a failed spawn (ENOTDIR, exit 70); a missing
  // folder is reported where the workspace is looked up.
  if (cwd !== io.cwd && statSync(cwd, { throwIfNoEntry: false })?.isDirectory() === false) {
    throw new AideError('usage', `--cwd ${String(cwdArg)} is a file, not a folder`, {
      hint: 'Give --cwd the folder to run in: the workspace, or a folder inside it.',
    });
  }
  return { json: argv['json'] === true, cwd };
}

/** yargs reports an unknown command as an "unknown argument"; say what it is instead. */
function checkCommandName(args: readonly string[]): void {
  const first = args[0];
  if (first === undefined || first.startsWith('-')) return;
  const names = commands.map((c) => c.command.split(' ')[0] ?? '');
  if (names.includes(first)) return;
  const suggestion = didYouMean(first, names);
  throw new AideError(
    'usage',
    `unknown command "${first}"${suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`}`,
    {
      hint: 'Run `aide --help` for the list of commands.',
    },
  );
}

/** The result of parsing a command line: the command chosen, or the text of --help/--version. */
export type ParsedCommandLine =
  { kind: 'command'; spec: CommandSpec; argv: RawArgv } | { kind: 'output'; text: string };

/**
 * The command line the pre-commit hook runs at every commit (HOOK_ARGS), parsed as yargs parses
 * it, without loading yargs: its module, the parser of every command and the parse were 5-7 ms of
 * a hook's start. Any other line, this one with one more word included, goes to yargs.
 * main-hook-line.test.ts holds the two parses equal.
 */
export function hookCommandLine(args: readonly string[]): ParsedCommandLine | undefined {
  const hook = HOOK_ARGS['pre-commit'];
  if (args.length !== hook.length || args.some((arg, i) => arg !== hook[i])) return undefined;
  const spec = commands.find((command) => command.command === 'review');
  if (spec === undefined || hook.join(' ') !== 'review --staged') return undefined;
  return {
    kind: 'command',
    spec,
    argv: { _: ['review'], staged: true, json: false, isolation: true, $0: 'aide' },
  };
}

/**
 * Parses a command line with the real parser without running the command (tests turn argv
 * into typed options with it). Throws an AideError on usage errors.
 */
export async function parseCommandLine(args: readonly string[]): Promise<ParsedCommandLine> {
  const text = staticOutput(args);
  if (text !== undefined) return { kind: 'output', text };
  return hookCommandLine(args) ?? parseWithYargs(args);
}

/** parseCommandLine without the static texts; `width` wraps the help (top-help.test.ts sets it). */
export async function parseWithYargs(
  args: readonly string[],
  width = helpWidth(),
): Promise<ParsedCommandLine> {
  checkCommandName(args);
  const { default: yargs } = await import('yargs');
  let selected: Selected | undefined;
  const parser = buildParser(
    yargs,
    (s) => {
      selected = s;
    },
    args,
    width,
  );
  const text = await new Promise<string>((resolveOutput, reject) => {
    void parser.parse([...args], {}, (error: Error | null | undefined, _argv: unknown, output: string) => {
      if (error) reject(error);
      else resolveOutput(output);
    });
  });
  // --help and --version: yargs produced the text and selected no command.
  return selected === undefined ? { kind: 'output', text } : { kind: 'command', ...selected };
}

/** Runs aide with the given arguments; returns the exit code. Never throws. */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  const json = args.includes('--json');
  try {
    const parsed = await parseCommandLine(args);
    if (parsed.kind === 'output') {
      if (parsed.text !== '') io.stdout.write(`${parsed.text}\n`);
      return ExitCode.ok;
    }
    await import('./zod-setup.js');
    return await parsed.spec.run(parsed.argv, globalsFrom(parsed.argv, io), io);
  } catch (error) {
    return printError(withSourceStack(error), json ? io.stdout : io.stderr, json);
  }
}

/** Entry used by bin.ts: real process streams, real exit code. */
/** Runs aide on this process; `hooks` come from the test entry point only (src/bin.ts passes none). */
export async function start(hooks: Pick<CliIo, 'afterWorkspaceChange'> = {}): Promise<void> {
  const io: CliIo = {
    stdout: process.stdout,
    // Node makes each of these streams when it is first asked for (loading the tty, net or fs
    // stream it is): ~3 ms of CPU that a command which never reads stdin or writes stderr (a
    // passing `aide review --staged`, at every commit) does not pay.
    get stderr() {
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
    ...hooks,
  };
  process.exitCode = await runCli(process.argv.slice(2), io);
}

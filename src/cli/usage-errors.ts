/**
 * yargs' own validation messages ("Not enough non-option arguments: got 0, need at least 1",
 * "Unknown argument: b") turned into what a person can act on: which command, what is missing
 * or unexpected, and what to type instead. The messages are yargs' English strings (we never
 * call y18n's setLocale), so matching them is stable; anything unrecognised keeps yargs' text
 * under the same hint.
 */
import { AideError } from '../shared/errors.js';
import { didYouMean } from '../shared/text.js';
import type { CommandSpec } from './commands/spec.js';

/** What a required positional is, by its name in the command string (`restore <id>`). */
const POSITIONAL_TEXT: Readonly<Record<string, { what: string; how: string }>> = {
  id: {
    what: 'a checkpoint id',
    how: '`aide checkpoints` lists them; the first few characters of an id are enough',
  },
};

/** The command and subcommands a command line names, outermost first (`checkpoints`, `show`). */
export function commandPath(args: readonly string[], specs: readonly CommandSpec[]): CommandSpec[] {
  const path: CommandSpec[] = [];
  let level = specs;
  for (const arg of args) {
    if (arg === '--') break;
    if (arg.startsWith('-')) continue;
    const spec = level.find((s) => s.command.split(' ')[0] === arg);
    if (spec === undefined) {
      // The first word that is no command: the command line names no (further) command.
      if (path.length > 0) break;
      continue;
    }
    path.push(spec);
    level = spec.subcommands ?? [];
  }
  return path;
}

function usageOf(path: readonly CommandSpec[]): { name: string; usage: string; shown: string } {
  const words = path.map((s) => s.command.split(' ')[0] ?? '');
  const last = path[path.length - 1];
  const name = ['aide', ...words].join(' ');
  const positionals = last === undefined ? '' : last.command.split(' ').slice(1).join(' ');
  return {
    name,
    usage: `${name}${positionals === '' ? '' : ` ${positionals}`} [options]`,
    shown: `\`${name}\``,
  };
}

function helpHint(name: string, usage: string): string {
  return name === 'aide'
    ? 'Run `aide --help` for the commands and their options.'
    : `Usage: ${usage}. \`${name} --help\` lists its options, with examples.`;
}

/** The names of the required positionals in a command string (`diff <id> [id2]` → ['id']). */
function requiredPositionals(spec: CommandSpec | undefined): string[] {
  return spec === undefined ? [] : [...spec.command.matchAll(/<([^>]+)>/g)].map((m) => m[1] ?? '');
}

function missingPositional(path: readonly CommandSpec[], got: number): AideError {
  const { name, usage, shown } = usageOf(path);
  const missing = requiredPositionals(path[path.length - 1]).slice(got);
  const first = missing[0] ?? 'an argument';
  const text = POSITIONAL_TEXT[first];
  const what = text?.what ?? `<${first}>`;
  return new AideError(
    'usage',
    `${shown} needs ${what}${
      missing.length > 1
        ? ` (and ${missing
            .slice(1)
            .map((m) => `<${m}>`)
            .join(', ')})`
        : ''
    }`,
    {
      hint: `${text === undefined ? '' : `${text.how[0]?.toUpperCase() ?? ''}${text.how.slice(1)}. `}${helpHint(name, usage)}`,
    },
  );
}

function unknownArguments(
  path: readonly CommandSpec[],
  list: string,
  args: readonly string[],
  options: readonly string[],
): AideError {
  const { name, usage, shown: command } = usageOf(path);
  const words = list.split(', ').filter((w) => w !== '');
  // yargs names an unknown option without its dashes; the command line says which it was.
  const asOption = (word: string) =>
    args.find((a) => a === `--${word}` || a.startsWith(`--${word}=`) || a === `-${word}`);
  const unknownOptions = words.map(asOption).filter((a) => a !== undefined);
  if (unknownOptions.length > 0) {
    const shown = (unknownOptions[0] ?? '').split('=')[0] ?? '';
    // Single letters are aliases: suggest only full names, and only for a full name.
    const suggestion = shown.startsWith('--')
      ? didYouMean(
          shown.slice(2),
          options.filter((o) => o.length > 1),
        )
      : undefined;
    return new AideError(
      'usage',
      `${command}: unknown option ${shown}${suggestion === undefined ? '' : ` (did you mean --${suggestion}?)`}`,
      { hint: helpHint(name, usage) },
    );
  }
  const extra = words.map((w) => `"${w}"`).join(', ');
  return new AideError('usage', `${command}: unexpected argument${words.length === 1 ? '' : 's'} ${extra}`, {
    hint: `${helpHint(name, usage)} A name with spaces needs quotes.`,
  });
}

/**
 * The usage error for a yargs validation message. `options` are the option names the command
 * knows (for "did you mean").
 */
export function usageError(
  message: string,
  args: readonly string[],
  specs: readonly CommandSpec[],
  options: readonly string[],
): AideError {
  const path = commandPath(args, specs);
  const { name, usage, shown } = usageOf(path);
  const notEnough = /^Not enough non-option arguments: got (\d+), need at least \d+/.exec(message);
  if (notEnough !== null) return missingPositional(path, Number(notEnough[1]));
  const unknown = /^Unknown arguments?: (.+)$/.exec(message);
  if (unknown !== null) return unknownArguments(path, unknown[1] ?? '', args, options);
  const noValue = /^Not enough arguments following: (.+)$/.exec(message);
  if (noValue !== null) {
    const option = noValue[1] ?? '';
    // yargs names the option as it was typed, without dashes: `-m` arrives as "m".
    const flag = option.length === 1 ? `-${option}` : `--${option}`;
    return new AideError('usage', `${shown}: ${flag} needs a value`, {
      hint: `Write it after the option (${flag} VALUE). ${helpHint(name, usage)}`,
    });
  }
  const tooMany = /^Too many non-option arguments/.exec(message);
  if (tooMany !== null)
    return new AideError('usage', `${shown}: too many arguments`, { hint: helpHint(name, usage) });
  return new AideError(
    'usage',
    path.length === 0 ? message : `${shown}: ${message.charAt(0).toLowerCase()}${message.slice(1)}`,
    { hint: helpHint(name, usage) },
  );
}

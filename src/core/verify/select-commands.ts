/**
 * Which commands a verification runs: those in `.aide/sandbox.json`, or, when it lists none,
 * those `aide init` would detect (named as such in the report), narrowed by `--commands`.
 * Never a command from anywhere else.
 *
 * A command marked `optional` runs only when asked for by name: by `--commands`, or by a plan
 * step's `Verify:` line (then in addition to the others). Detected commands are optional where
 * detection says so (tox, pre-commit, clippy: see core/init/detect-commands.ts).
 */
import { AideError } from '../../shared/errors.js';
import { didYouMean } from '../../shared/text.js';
import type { VerifyCommand } from '../flows/verify.js';
import { formatPlanProblem, type PlanLines, type PlanProblem } from '../plan/problem.js';

export interface CommandSelection {
  commands: VerifyCommand[];
  /** 'sandbox': from .aide/sandbox.json; 'detected': sandbox.json lists none, detected like `aide init`. */
  source: 'sandbox' | 'detected';
  /** The optional commands left out because nothing named them. */
  optionalNotRun: string[];
}

const EXAMPLE = '{ "commands": [{ "name": "test", "run": ["npm", "test"] }] }';

/** Every command there is to verify with, optional ones included; an error when there is none. */
export function availableCommands(
  configured: readonly VerifyCommand[],
  detected: readonly VerifyCommand[],
  sandboxFile: string,
): CommandSelection {
  const source = configured.length > 0 ? 'sandbox' : 'detected';
  const available = source === 'sandbox' ? configured : detected;
  if (available.length === 0) {
    throw new AideError(
      'config_invalid',
      `no verify commands: ${sandboxFile} lists none, and none were detected in this project`,
      {
        hint: `Add commands to ${sandboxFile}, e.g. ${EXAMPLE}, or run \`aide init\` to detect them.`,
      },
    );
  }
  return { commands: [...available], source, optionalNotRun: [] };
}

/** The commands `aide verify` runs: every one not optional, or exactly those `--commands` names. */
export function selectCommands(
  configured: readonly VerifyCommand[],
  detected: readonly VerifyCommand[],
  only: readonly string[] | undefined,
  sandboxFile: string,
): CommandSelection {
  const { commands: available, source } = availableCommands(configured, detected, sandboxFile);
  if (only === undefined) {
    const optional = available.filter((c) => c.optional === true).map((c) => c.name);
    const commands = stepCommands(available, []);
    if (commands.length === 0) {
      const where = source === 'sandbox' ? `in ${sandboxFile}` : 'detected in this project';
      throw new AideError(
        'config_invalid',
        `no verify commands to run: every command ${where} is optional (${optional.join(', ')}), run only when asked for`,
        {
          hint: `Name the ones to run, e.g. \`aide verify --commands ${optional[0] ?? 'test'}\`, or ${source === 'sandbox' ? `set "optional": false on one in ${sandboxFile}` : `add commands to ${sandboxFile} (\`aide init\` writes the detected ones)`}.`,
        },
      );
    }
    return { commands, source, optionalNotRun: optional };
  }
  const names = new Set(available.map((c) => c.name));
  const unknown = only.filter((name) => !names.has(name));
  if (unknown.length > 0) {
    const first = unknown[0] ?? '';
    const guess = didYouMean(first, names);
    throw new AideError(
      'usage',
      `--commands: no command named ${unknown.map((n) => `"${n}"`).join(', ')}${guess === undefined ? '' : ` (did you mean "${guess}"?)`}`,
      {
        hint: `The commands ${source === 'sandbox' ? `in ${sandboxFile}` : 'detected in this project'} are: ${[...names].join(', ')}.`,
      },
    );
  }
  // The configured order is kept: later commands may rely on earlier ones (build before test).
  return { commands: available.filter((c) => only.includes(c.name)), source, optionalNotRun: [] };
}

/**
 * The commands that verify a plan step: every one that is not optional, and the optional ones
 * its `Verify:` lines name, in the configured order (a name that is not optional adds nothing).
 */
export function stepCommands(commands: readonly VerifyCommand[], named: readonly string[]): VerifyCommand[] {
  return commands.filter((c) => c.optional !== true || named.includes(c.name));
}

/** A plan's steps as far as their verify commands go. */
interface PlanSteps {
  steps: ReadonlyArray<{ number: number; verify: readonly string[] }>;
}

/** Names that are no command, and steps left with no command at all. */
function planProblems(
  plan: PlanSteps,
  lines: PlanLines,
  planFile: string,
  selection: CommandSelection,
  where: string,
): { unknown: PlanProblem[]; unverified: PlanProblem[] } {
  const names = new Set(selection.commands.map((c) => c.name));
  const unknown: PlanProblem[] = [];
  const unverified: PlanProblem[] = [];
  for (const step of plan.steps) {
    const at = lines.steps.get(step.number);
    for (const use of at?.verify ?? []) {
      if (names.has(use.name)) continue;
      const guess = didYouMean(use.name, names);
      const message = `step ${step.number}: Verify: "${use.name}" is not a command in ${where}${guess === undefined ? '' : ` (did you mean "${guess}"?)`}`;
      unknown.push({ file: planFile, line: use.line, column: use.column, message, hint: '' });
    }
    if (
      step.verify.every((name) => names.has(name)) &&
      stepCommands(selection.commands, step.verify).length === 0
    ) {
      const message = `step ${step.number} has no command to verify it with: every command in ${where} is optional, and the step's Verify: names none`;
      unverified.push({ file: planFile, line: at?.heading ?? 1, message, hint: '' });
    }
  }
  return { unknown, unverified };
}

/**
 * Before a plan is carried out: every name on its `Verify:` lines is a command there is, and
 * every step has a command to verify it with. A usage error (exit 2) naming the plan's
 * file:line for each problem otherwise, so a typo costs no verify run.
 */
export function checkPlanCommands(
  plan: PlanSteps,
  lines: PlanLines,
  planFile: string,
  selection: CommandSelection,
  sandboxFile: string,
): void {
  const where = selection.source === 'sandbox' ? sandboxFile : 'the commands detected in this project';
  const { unknown, unverified } = planProblems(plan, lines, planFile, selection, where);
  const problems = [...unknown, ...unverified].sort(
    (a, b) => a.line - b.line || (a.column ?? 0) - (b.column ?? 0),
  );
  const [first] = problems;
  if (first === undefined) return;
  const known = selection.commands
    .map((c) => `${c.name}${c.optional === true ? ' (optional)' : ''}`)
    .join(', ');
  const knownLine =
    selection.source === 'sandbox'
      ? `The commands in ${sandboxFile} are: ${known}.`
      : `${sandboxFile} lists no commands, so aide uses the ones detected in this project: ${known} (\`aide init\` writes them into ${sandboxFile}).`;
  const fix = [
    ...(unknown.length > 0
      ? [`Add the command to "commands" in ${sandboxFile}, or correct the name in the plan.`]
      : []),
    ...(unverified.length > 0
      ? [
          `Name an optional command on the step's Verify: line, or set "optional": false on one in ${sandboxFile}.`,
        ]
      : []),
  ].join(' ');
  const message =
    problems.length === 1
      ? formatPlanProblem(first)
      : `${planFile}: ${problems.length} problems with the verify commands its steps name`;
  throw new AideError('usage', message, {
    details: problems.length === 1 ? [] : problems.map(formatPlanProblem),
    hint: `${knownLine} ${fix}`,
    data: { problems },
  });
}

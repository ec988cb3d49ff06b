/**
 * The values of a step's key lines: `Files:` and `Verify:` hold comma-separated lists, `Run:`
 * one command, either a JSON array of strings (argv, no shell) or a shell command line.
 * Checked with the schema's own item schemas, so what parses is what the schema accepts.
 */
import type { z } from 'zod';
import { ARGV_START, planStepSchema, runCommandSchema, type RunCommand } from './schema.js';
import type { KeyEntry, LineProblem } from './sections.js';

export interface StepKeys {
  files: string[];
  run: Array<{ command: RunCommand; entry: KeyEntry }>;
  verify: string[];
}

const EXAMPLES = {
  Files: 'Files: src/store.js, test/store.test.js',
  Run: 'Run: npm run generate  or  Run: ["node", "scripts/gen.js"]',
  Verify: 'Verify: test, lint',
} as const;

function problemAt(entry: KeyEntry, message: string, hint: string): LineProblem {
  return { index: entry.index, column: entry.column, message, hint };
}

function listItems(
  entry: KeyEntry,
  item: z.ZodType<string>,
  hint: string,
): { items: string[]; problems: LineProblem[] } {
  const items = entry.value.split(',').map((s) => s.trim());
  const problems: LineProblem[] = [];
  if (items.some((s) => s === ''))
    problems.push(
      problemAt(
        entry,
        `${entry.key}: has an empty entry`,
        `Separate entries with single commas, e.g. ${EXAMPLES[entry.key]}`,
      ),
    );
  for (const value of items.filter((s) => s !== '')) {
    const checked = item.safeParse(value);
    if (!checked.success)
      problems.push(
        problemAt(entry, `${entry.key}: "${value}": ${checked.error.issues[0]?.message ?? 'invalid'}`, hint),
      );
  }
  return { items, problems };
}

function runCommand(entry: KeyEntry): { command: RunCommand } | { problem: LineProblem } {
  let value: unknown = entry.value;
  if (ARGV_START.test(entry.value)) {
    try {
      value = JSON.parse(entry.value);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return {
        problem: problemAt(
          entry,
          `Run: starts like a JSON array but is not one (${reason})`,
          `Write an argv array of strings, e.g. ["node", "scripts/gen.js", "--out", "dist"]`,
        ),
      };
    }
  }
  const checked = runCommandSchema.safeParse(value);
  if (checked.success) return { command: checked.data };
  const message = Array.isArray(value)
    ? 'expected an array of non-empty strings'
    : (checked.error.issues[0]?.message ?? 'invalid command');
  return { problem: problemAt(entry, `Run: ${message}`, `For example: ${EXAMPLES.Run}`) };
}

/** Reads the key lines of a step; several lines of a key add up, in order. */
export function readStepKeys(entries: readonly KeyEntry[]): { keys: StepKeys; problems: LineProblem[] } {
  const keys: StepKeys = { files: [], run: [], verify: [] };
  const problems: LineProblem[] = [];
  for (const entry of entries) {
    if (entry.value === '') {
      problems.push(
        problemAt(
          entry,
          `${entry.key}: has no value`,
          `Write the value after the colon, e.g. ${EXAMPLES[entry.key]}, or remove the line.`,
        ),
      );
      continue;
    }
    if (entry.key === 'Run') {
      const run = runCommand(entry);
      if ('problem' in run) problems.push(run.problem);
      else keys.run.push({ command: run.command, entry });
      continue;
    }
    const item =
      entry.key === 'Files' ? planStepSchema.shape.files.element : planStepSchema.shape.verify.element;
    const hint =
      entry.key === 'Files'
        ? `List paths relative to the repository root, e.g. ${EXAMPLES.Files}`
        : `List names of commands in .aide/sandbox.json, e.g. ${EXAMPLES.Verify}; to run another command, write a Run: line.`;
    const list = listItems(entry, item, hint);
    problems.push(...list.problems);
    (entry.key === 'Files' ? keys.files : keys.verify).push(...list.items.filter((s) => s !== ''));
  }
  return { keys, problems };
}

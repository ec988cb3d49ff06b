/**
 * `aide plan`: the task read (a file or standard input), then the wired run (plan-run.ts).
 * Loaded only when `aide plan` runs.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { unreadableReason } from '../../shared/file-errors.js';
import { AideError } from '../../shared/errors.js';
import type { CliIo, InputStream } from '../io.js';
import { planOptions, type PlanOptions } from './plan-options.js';
import type { CommandRunner } from './spec.js';

async function readAll(stream: InputStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** The task's text and the name it goes by in messages. */
export async function readTaskFile(
  options: PlanOptions,
  cwd: string,
  io: CliIo,
): Promise<{ text: string; name: string }> {
  let text: string;
  if (options.task === '-') {
    if (io.stdin.isTTY === true)
      throw new AideError('input_missing', 'no task on standard input', {
        hint: 'Pipe the task in (`cat task.md | aide plan -`) or give its file (`aide plan task.md`).',
      });
    text = await readAll(io.stdin);
  } else {
    try {
      text = await readFile(resolve(cwd, options.task), 'utf8');
    } catch (error) {
      throw new AideError(
        'input_unreadable',
        `cannot read the task ${options.task}: ${unreadableReason(error)}`,
        {
          hint: 'Give the path of a markdown file describing the task, or - to read it from standard input.',
        },
      );
    }
  }
  if (text.trim() === '')
    throw new AideError(
      'input_missing',
      `the task ${options.task === '-' ? 'on standard input' : options.task} is empty`,
      {
        hint: 'Write what you want done: a "# Title" line, then what to change and why, and the files it concerns.',
      },
    );
  return { text, name: options.task === '-' ? 'standard input' : options.task };
}

export const planRun: CommandRunner = {
  run: async (argv, globals, io) => {
    const options = planOptions(argv);
    const task = await readTaskFile(options, globals.cwd, io);
    const { runPlan } = await import('../plan-run.js');
    return runPlan(options, task, globals, io);
  },
};

/**
 * The plan document's data, one zod schema per part (STYLE.md §10): the front matter as the file
 * writes it, and the Plan that parsePlan returns and renderPlan writes. Types are inferred from
 * them and the format reference is generated from their descriptions.
 *
 * The schema is the exact statement of "a valid plan": every plan it accepts renders to a
 * document that parses back to the same plan (a property test holds it to that), so the free
 * text fields are checked by the same section reader the parser uses.
 */
import { z } from 'zod';
// Verify commands are named as in .aide/sandbox.json, and Files: paths stay inside the repository
// as config paths do: one pattern each, config's (core may import config's pure modules).
import { COMMAND_NAME_PATTERN, RELATIVE_PATH_PATTERN } from '../../config/fields.js';
import { splitLines } from './markdown-lines.js';
import { readSection, type SectionKind } from './sections.js';
import { checkTemplate, findTemplates, type TemplateContext } from './templates.js';

/** The plan format this aide reads and writes (the front matter's `aide_plan`). */
export const PLAN_FORMAT_VERSION = 1;

/** A Run: value that starts like a JSON array of strings is read as argv (a shell command never starts so). */
export const ARGV_START = /^\[\s*["\]]/;

/** One line of text: not empty, no line break, no surrounding whitespace. */
function singleLine(what: string) {
  const error = `expected ${what} (one line of text)`;
  return z
    .string({ error })
    .min(1, { error })
    .refine((s) => !/[\r\n]/.test(s) && s === s.trim(), {
      error: `expected ${what} on one line, without surrounding spaces`,
    });
}

function isoDateTime() {
  return z.iso.datetime({
    offset: true,
    error: 'expected an ISO 8601 date and time, e.g. 2026-11-30T10:00:00.000Z',
  });
}

/** Text that reads back unchanged from its place in the document (see sections.ts). */
function freeText(where: SectionKind, what: string) {
  return z.string().superRefine((text, ctx) => {
    if (text === '') return;
    const lines = splitLines(text);
    const read = readSection(lines, 0, lines.length, where);
    const problem = read.problems[0];
    if (problem !== undefined)
      ctx.addIssue({ code: 'custom', message: `${what}, line ${problem.index + 1}: ${problem.message}` });
    else if (read.keys.length > 0 || read.edits !== null || read.text !== text) {
      ctx.addIssue({
        code: 'custom',
        message: `${what} must be trimmed free text, without Files:/Run:/Verify: lines or an ### Edits heading`,
      });
    }
  });
}

function editsText() {
  return z.string().superRefine((text, ctx) => {
    if (text === '') return;
    const lines = ['### Edits', ...splitLines(text)];
    const read = readSection(lines, 0, lines.length, 'step');
    const problem = read.problems[0];
    if (problem !== undefined) {
      // Lines of the edits themselves, not of the heading put before them to read them.
      const message = problem.message.replaceAll(`at line ${problem.index + 1}`, `at line ${problem.index}`);
      ctx.addIssue({ code: 'custom', message: `edits, line ${problem.index}: ${message}` });
    } else if (read.edits?.text !== text)
      ctx.addIssue({ code: 'custom', message: 'edits must not start or end with a blank line' });
  });
}

const filePath = z
  .string({ error: 'expected a file path' })
  .regex(RELATIVE_PATH_PATTERN, { error: 'expected a path relative to the repository root, without ".."' })
  .refine((s) => !/[\r\n,]/.test(s) && s === s.trim(), {
    error: 'expected a path without commas, line breaks or surrounding spaces',
  })
  .refine((s) => findTemplates(s).length === 0, {
    error: 'templates work only in Run: lines and edits, not in Files:',
  });

const verifyName = z.string().regex(COMMAND_NAME_PATTERN, {
  error:
    'expected the name of a command in .aide/sandbox.json: letters, digits and . _ : - (e.g. test, lint:types)',
});

const shellCommand = singleLine('a shell command')
  .refine((s) => !ARGV_START.test(s), {
    error: 'a shell command may not start like a JSON array; write it as an argv array instead',
  })
  .describe('A command line run by /bin/sh -c.');
const argvCommand = z
  .array(z.string().min(1, { error: 'expected non-empty arguments' }), {
    error: 'expected an argv array of strings',
  })
  .min(1, { error: 'expected at least the program name' })
  .describe('Program and arguments, run without a shell.');

export const runCommandSchema = z.union([shellCommand, argvCommand]);
export type RunCommand = z.infer<typeof runCommandSchema>;

export const planStepSchema = z.strictObject({
  number: z
    .number()
    .int()
    .positive()
    .max(Number.MAX_SAFE_INTEGER)
    .describe('The step number from its heading; numbers ascend through the plan, gaps allowed.'),
  title: singleLine("the step's title").describe('What the step does, from its heading.'),
  intent: freeText('step', 'intent').describe(
    "The step's text: what to change and why, for the person reviewing and for the model acting.",
  ),
  files: z.array(filePath).describe('Files the step is expected to touch, relative to the repository root.'),
  run: z
    .array(runCommandSchema)
    .describe("Commands to run, in order, after the step's edits and before its verify commands."),
  verify: z
    .array(verifyName)
    .describe(
      'Names of commands in .aide/sandbox.json to run for this step as well: its optional ones (the others run for every step). aide act stops before any work when a name is not there.',
    ),
  edits: editsText().describe(
    'The text under ### Edits, read by the edit parser as it is; empty when the step has none.',
  ),
});
export type PlanStep = z.infer<typeof planStepSchema>;

/** Templates in a step's Run: lines and edits must name an earlier step that exists. */
function checkStepTemplates(steps: readonly PlanStep[], ctx: z.core.$RefinementCtx): void {
  const numbers = new Set(steps.map((s) => s.number));
  steps.forEach((step, i) => {
    const context: TemplateContext = { current: step.number, first: i === 0, steps: numbers };
    const texts = [...step.run.flat(), step.edits];
    for (const use of texts.flatMap((t) => findTemplates(t))) {
      const problem = checkTemplate(use, context);
      if (problem !== undefined)
        ctx.addIssue({ code: 'custom', path: [i], message: `step ${step.number}: ${problem.message}` });
    }
  });
}

function checkStepNumbers(steps: readonly PlanStep[], ctx: z.core.$RefinementCtx): void {
  steps.forEach((step, i) => {
    const before = steps[i - 1];
    if (before !== undefined && step.number <= before.number) {
      ctx.addIssue({
        code: 'custom',
        path: [i, 'number'],
        message: `step ${step.number} follows step ${before.number}: numbers must ascend`,
      });
    }
  });
}

const title = singleLine("the plan's title").describe('What the plan achieves, in one line.');
const created = isoDateTime().describe('When the plan was written: an ISO 8601 date and time.');
const base = singleLine('a checkpoint id or commit').describe(
  'The checkpoint or commit the plan was written against.',
);
const model = singleLine('a model name').describe('The model that wrote the plan, as configured.');

export const planSchema = z.strictObject({
  version: z.literal(PLAN_FORMAT_VERSION).describe('The plan format version (front matter `aide_plan`).'),
  title,
  created: created.nullable(),
  base: base.nullable(),
  model: model.nullable(),
  summary: freeText('summary', 'summary').describe(
    'The text between the front matter and the first step: the why and the approach.',
  ),
  steps: z
    .array(planStepSchema)
    .min(1, { error: 'a plan has at least one step' })
    .superRefine(checkStepNumbers)
    .superRefine(checkStepTemplates)
    .describe('The steps, in the order they run.'),
});
export type Plan = z.infer<typeof planSchema>;

/** The front matter as the file writes it: YAML between `---` lines at the top. */
export const planFrontMatterSchema = z.strictObject({
  aide_plan: z
    .literal(PLAN_FORMAT_VERSION, {
      error: `expected ${PLAN_FORMAT_VERSION}, the plan format this aide reads`,
    })
    .describe(`The plan format version; must be ${PLAN_FORMAT_VERSION}.`),
  title,
  created: created.nullish().describe(created.description ?? ''),
  base: base.nullish().describe(base.description ?? ''),
  model: model.nullish().describe(model.description ?? ''),
});
export type PlanFrontMatter = z.infer<typeof planFrontMatterSchema>;
export type FrontMatterKey = keyof PlanFrontMatter;

/** A line to write for each front-matter key, for hints and the format reference. */
export const FRONT_MATTER_EXAMPLES: Readonly<Record<FrontMatterKey, string>> = {
  aide_plan: `aide_plan: ${PLAN_FORMAT_VERSION}`,
  title: 'title: Add a remove command to the inventory CLI',
  created: 'created: 2026-11-30T10:00:00.000Z',
  base: 'base: 3f2a9c1b0d',
  model: 'model: qwen2.5-coder:32b',
};

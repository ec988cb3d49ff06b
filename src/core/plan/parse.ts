/**
 * Reads a plan document back into a Plan. Pure and total: whatever the text, the result is a
 * plan or the list of everything wrong with it (all of it, in one pass where one mistake does
 * not hide the rest), each problem with its line and what to write instead.
 */
import { readFrontMatter } from './front-matter.js';
import { classifyLine, scanLines, splitLines } from './markdown-lines.js';
import { PLAN_FORMAT_VERSION, type Plan, type PlanStep } from './schema.js';
import { readSection, type LineProblem, type SectionRead } from './sections.js';
import { readStepKeys, type StepKeys } from './step-keys.js';
import { checkTemplate, findTemplates, type TemplateContext } from './templates.js';
import type { PlanLines, PlanProblem, StepLines } from './problem.js';

export type ParsePlanResult =
  { ok: true; plan: Plan; lines: PlanLines } | { ok: false; problems: PlanProblem[] };

interface StepDraft {
  heading: number;
  /** NaN when the heading's number is unusable (reported). */
  number: number;
  title: string;
  section: SectionRead;
  keys: StepKeys;
}

function readStep(
  lines: readonly string[],
  heading: number,
  end: number,
  digits: string,
  title: string,
): { draft: StepDraft; problems: LineProblem[] } {
  const problems: LineProblem[] = [];
  let number = Number(digits);
  if (number < 1 || !Number.isSafeInteger(number)) {
    problems.push({
      index: heading,
      message: `step number ${digits} is not usable: steps are numbered from 1`,
      hint: `Write "## Step 1: ${title === '' ? '<title>' : title}" (or the next number in order).`,
    });
    number = Number.NaN;
  }
  if (title === '')
    problems.push({
      index: heading,
      message: `step ${digits} has no title`,
      hint: `Say what the step does after the colon: "## Step ${digits}: <what this step does>".`,
    });
  const section = readSection(lines, heading + 1, end, 'step');
  const keys = readStepKeys(section.keys);
  problems.push(...section.problems, ...keys.problems);
  return { draft: { heading, number, title, section, keys: keys.keys }, problems };
}

function readSteps(
  lines: readonly string[],
  bodyStart: number,
): { summary: SectionRead; steps: StepDraft[]; problems: LineProblem[] } {
  const scan = scanLines(lines, bodyStart);
  const headings = scan.structural.flatMap((structural, offset) => {
    const kind = structural ? classifyLine(lines[bodyStart + offset] ?? '') : undefined;
    return kind?.kind === 'step'
      ? [{ index: bodyStart + offset, digits: kind.digits, title: kind.title }]
      : [];
  });
  const summary = readSection(lines, bodyStart, headings[0]?.index ?? lines.length, 'summary');
  const problems = [...summary.problems];
  if (headings.length === 0) {
    problems.push({
      index: Math.min(bodyStart, lines.length - 1),
      message: 'the plan has no steps',
      hint: 'Add a step: a heading "## Step 1: <title>" and, under it, what to do.',
    });
  }
  const steps = headings.map((h, i) => {
    const step = readStep(lines, h.index, headings[i + 1]?.index ?? lines.length, h.digits, h.title);
    problems.push(...step.problems);
    return step.draft;
  });
  return { summary, steps, problems };
}

/** Numbers ascend through the plan (gaps allowed, so deleting a step renumbers nothing and breaks no template). */
function numberProblems(steps: readonly StepDraft[]): LineProblem[] {
  const problems: LineProblem[] = [];
  const seen = new Map<number, number>();
  let highest: StepDraft | undefined;
  for (const step of steps) {
    if (Number.isNaN(step.number)) continue;
    const first = seen.get(step.number);
    if (first !== undefined) {
      problems.push({
        index: step.heading,
        message: `step ${step.number} is numbered twice: lines ${first + 1} and ${step.heading + 1}`,
        hint: `Give one of them another number (and change any {{ steps.${step.number}.output }} that means it); numbers ascend through the plan.`,
      });
    } else if (highest !== undefined && step.number < highest.number) {
      problems.push({
        index: step.heading,
        message: `step ${step.number} comes after step ${highest.number} (line ${highest.heading + 1}), but step numbers must ascend`,
        hint: `Number the steps in the order they run, or move this step above step ${highest.number}.`,
      });
    }
    if (first === undefined) seen.set(step.number, step.heading);
    if (highest === undefined || step.number > highest.number) highest = step;
  }
  return problems;
}

function templateProblems(steps: readonly StepDraft[]): LineProblem[] {
  const numbers = new Set(steps.map((s) => s.number).filter((n) => !Number.isNaN(n)));
  const problems: LineProblem[] = [];
  steps.forEach((step, i) => {
    if (Number.isNaN(step.number)) return;
    const context: TemplateContext = { current: step.number, first: i === 0, steps: numbers };
    const places = step.section.keys
      .filter((k) => k.key === 'Run')
      .map((k) => ({ index: k.index, column: k.column, text: k.value }));
    const edits = step.section.edits;
    if (edits !== null)
      splitLines(edits.text).forEach((text, k) => places.push({ index: edits.index + k, column: 1, text }));
    for (const place of places) {
      for (const use of findTemplates(place.text)) {
        const problem = checkTemplate(use, context);
        if (problem !== undefined)
          problems.push({ index: place.index, column: place.column + use.index, ...problem });
      }
    }
  });
  return problems;
}

function toPlanProblems(problems: readonly LineProblem[], file: string): PlanProblem[] {
  const sorted = [...problems].sort((a, b) => a.index - b.index || (a.column ?? 0) - (b.column ?? 0));
  const seen = new Set<string>();
  return sorted.flatMap((p) => {
    const key = `${p.index}:${p.column ?? ''}:${p.message}`;
    if (seen.has(key)) return [];
    seen.add(key);
    const problem: PlanProblem = { file, line: p.index + 1, message: p.message, hint: p.hint };
    if (p.column !== undefined) problem.column = p.column;
    return [problem];
  });
}

function toStep(draft: StepDraft): PlanStep {
  return {
    number: draft.number,
    title: draft.title,
    intent: draft.section.text,
    files: draft.keys.files,
    run: draft.keys.run.map((r) => r.command),
    verify: draft.keys.verify,
    edits: draft.section.edits?.text ?? '',
  };
}

/** Where each name of a step's Verify: lines is, for messages about a name (e.g. no such command). */
function verifyPlaces(section: SectionRead): StepLines['verify'] {
  return section.keys
    .filter((k) => k.key === 'Verify')
    .flatMap((k) => {
      let offset = 0;
      return k.value.split(',').flatMap((item) => {
        const at = offset + (item.length - item.trimStart().length);
        offset += item.length + 1;
        const name = item.trim();
        return name === '' ? [] : [{ name, line: k.index + 1, column: k.column + at }];
      });
    });
}

/** Parses a plan document. `file` only names the document in problems. Never throws. */
export function parsePlan(text: string, file: string): ParsePlanResult {
  // A byte-order mark is invisible in an editor; it must not hide the front matter's first ---.
  const lines = splitLines(text.replace(/^\uFEFF/, ''));
  const front = readFrontMatter(lines);
  const body =
    front.bodyStart === null ? { summary: null, steps: [], problems: [] } : readSteps(lines, front.bodyStart);
  const problems = [
    ...front.problems,
    ...body.problems,
    ...numberProblems(body.steps),
    ...templateProblems(body.steps),
  ];
  if (problems.length > 0 || front.frontMatter === null || body.summary === null)
    return { ok: false, problems: toPlanProblems(problems, file) };
  const fm = front.frontMatter;
  const plan: Plan = {
    version: PLAN_FORMAT_VERSION,
    title: fm.title,
    created: fm.created ?? null,
    base: fm.base ?? null,
    model: fm.model ?? null,
    summary: body.summary.text,
    steps: body.steps.map(toStep),
  };
  const steps = new Map<number, StepLines>(
    body.steps.map((d) => [
      d.number,
      {
        heading: d.heading + 1,
        edits: d.section.edits === null || d.section.edits.text === '' ? null : d.section.edits.index + 1,
        verify: verifyPlaces(d.section),
      },
    ]),
  );
  return { ok: true, plan, lines: { steps } };
}

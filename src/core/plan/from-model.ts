/**
 * A plan the model submitted (`submit_plan`), made into a plan document. Models write the body:
 * a summary, then `## Step N: title` sections; some add front matter, some a `# Title` line,
 * some wrap it all in a ``` fence. aide keeps what it can use (the title), writes the front
 * matter itself (`aide_plan`, `title`, `created`, `base`, `model`) and parses the result with the
 * same parser as a hand-written plan, so a model's plan and a person's are one format. A plan
 * that does not parse goes back to the model with each problem on the line of its own text.
 */
import { parse as parseYaml } from 'yaml';
import { parsePlan } from './parse.js';
import { formatPlanProblem, type PlanLines } from './problem.js';
import { renderFrontMatter } from './front-matter.js';
import { PLAN_FORMAT_VERSION, type Plan } from './schema.js';

/** What aide knows about the plan that the model does not write. */
export interface PlanMeta {
  /** ISO 8601: when the plan was written. */
  created: string;
  /** The checkpoint the plan was written against. */
  base: string | null;
  /** The model, as configured. */
  model: string | null;
  /** The title when the model gives none: the task's. */
  fallbackTitle: string;
  /** The plan's file, for problems the user reads. */
  file: string;
}

export type SubmittedPlan =
  | { ok: true; plan: Plan; lines: PlanLines; markdown: string }
  | { ok: false; forModel: string; forUser: string };

const FENCE_OPEN = /^\s*(`{3,}|~{3,})\s*(markdown|md)?\s*$/i;
const FRONT_DELIMITER = /^---\s*$/;
const TITLE_LINE = /^#\s+(.+?)\s*#*\s*$/;

/** The body without a fence around all of it (```markdown … ```), or as it is. */
function unfence(lines: string[]): string[] {
  const first = lines.findIndex((line) => line.trim() !== '');
  let last = lines.length - 1;
  while (last > first && (lines[last] ?? '').trim() === '') last -= 1;
  const open = first < 0 ? null : FENCE_OPEN.exec(lines[first] ?? '');
  const marker = open?.[1];
  if (marker === undefined || last <= first || (lines[last] ?? '').trim() !== marker) return lines;
  return [
    ...lines.slice(0, first).fill(''),
    '',
    ...lines.slice(first + 1, last),
    '',
    ...lines.slice(last + 1),
  ];
}

/** A one-line title: no line breaks, at most 200 characters. */
function tidyTitle(title: string): string {
  const line = title.replace(/\s+/g, ' ').trim();
  return line.length <= 200 ? line : `${line.slice(0, 197)}...`;
}

/** `title:` of a front matter the model wrote; the rest of it is aide's to write. */
function frontMatterTitle(yaml: string): string | null {
  try {
    const value: unknown = parseYaml(yaml);
    if (typeof value !== 'object' || value === null) return null;
    const title = (value as Record<string, unknown>)['title'];
    return typeof title === 'string' && title.trim() !== '' ? title : null;
  } catch {
    return null;
  }
}

interface Body {
  title: string | null;
  /** The lines of the body, lines aide removed (front matter, title) blanked: line numbers stay the model's. */
  lines: string[];
}

function readBody(submitted: string): Body {
  let lines = unfence(submitted.replace(/^\uFEFF/, '').split(/\r?\n/));
  let title: string | null = null;
  const first = lines.findIndex((line) => line.trim() !== '');
  if (first >= 0 && FRONT_DELIMITER.test(lines[first] ?? '')) {
    const close = lines.findIndex((line, i) => i > first && FRONT_DELIMITER.test(line));
    if (close > first) {
      title = frontMatterTitle(lines.slice(first + 1, close).join('\n'));
      lines = lines.map((line, i) => (i >= first && i <= close ? '' : line));
    }
  }
  const heading = lines.findIndex((line) => line.trim() !== '');
  const match = heading < 0 ? null : TITLE_LINE.exec(lines[heading] ?? '');
  if (match !== null) {
    title ??= match[1] ?? null;
    lines = lines.map((line, i) => (i === heading ? '' : line));
  }
  return { title, lines };
}

/** The submitted plan as a plan document, or what the model must fix. */
export function planFromSubmission(submitted: string, meta: PlanMeta): SubmittedPlan {
  const body = readBody(submitted);
  const title = tidyTitle(body.title ?? meta.fallbackTitle);
  const frontMatter = renderFrontMatter({
    aide_plan: PLAN_FORMAT_VERSION,
    title: title === '' ? 'Plan' : title,
    created: meta.created,
    base: meta.base,
    model: meta.model,
  });
  // Removed lines are blanked, not dropped, for this parse: a problem names the model's own line.
  // The file written drops them (trimBlank).
  const frontLines = frontMatter.split('\n').length;
  const numbered = `${frontMatter}\n${body.lines.join('\n')}`;
  const parsed = parsePlan(numbered, meta.file);
  if (!parsed.ok) {
    const problems = parsed.problems.map((problem) => {
      const line = problem.line - frontLines;
      const where = line >= 1 ? `line ${line}` : 'the plan';
      return `- ${where}: ${problem.message}. ${problem.hint}`;
    });
    return {
      ok: false,
      forModel:
        `The plan was not accepted; nothing was written. Fix these and call <submit_plan> again with the whole plan:\n` +
        `${problems.join('\n')}\n` +
        'A plan is a short summary, then one `## Step N: title` section per step (numbers ascending), each with what to change and why and a `Files:` line.',
      forUser: `the model's plan did not parse: ${parsed.problems.map(formatPlanProblem).slice(0, 3).join('; ')}`,
    };
  }
  const markdown = `${frontMatter}\n\n${trimBlank(body.lines).join('\n')}\n`;
  const reread = parsePlan(markdown, meta.file);
  if (!reread.ok)
    throw new Error(
      `planFromSubmission: the written plan does not parse: ${reread.problems.map(formatPlanProblem).join('; ')}`,
    );
  return { ok: true, plan: reread.plan, lines: reread.lines, markdown };
}

/**
 * The body without its leading and trailing blank lines. Lines aide removed (front matter, the
 * title) are at the top, so nothing inside the body changes: an edit block keeps every byte.
 */
function trimBlank(lines: readonly string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && (lines[start] ?? '').trim() === '') start += 1;
  while (end > start && (lines[end - 1] ?? '').trim() === '') end -= 1;
  return lines.slice(start, end);
}

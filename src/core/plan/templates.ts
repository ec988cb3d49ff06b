/**
 * Templates in Run: lines and edits: `{{ steps.<n>.output }}` (the output of step n) and
 * `{{ last.output }}` (the output of the nearest earlier step that has one).
 *
 * Other text between double braces is left exactly as written. Vue, Jinja, Handlebars, Helm,
 * docker `--format` strings and GitHub Actions `${{ steps.build.outputs.x }}` all use double
 * braces, and a plan must be able to edit those files and run those commands. Only an
 * expression that is evidently meant as one of ours (it starts with a word close to `steps`
 * followed by a step number, or with `last`/`prev`) is an error when it is not one of the two
 * forms.
 */
import { editDistance } from '../../shared/text.js';

export type TemplateRef = { kind: 'step'; step: number } | { kind: 'last' };

/** One `{{ … }}` in a text that aide reads as a reference to a step's output. */
export interface TemplateUse {
  /** Offset of the opening `{{`. */
  index: number;
  /** The template as written, braces included. */
  text: string;
  /** The step it refers to, or `malformed` with the form to write instead. */
  ref: TemplateRef | { kind: 'malformed'; suggestion: string };
}

// One line only: a template spans no line break, so the parser can name its line.
const TEMPLATE = /\{\{([^{}\n]*)\}\}/g;
const STEP_REF = /^steps\.(\d+)\.output$/;
const LAST_REF = /^last\.output$/;
const STEP_LIKE = /^([A-Za-z_]+)[ \t]*(?:\.|\[)[ \t]*(\d+)/;
const LAST_LIKE = /^(?:last|prev|previous)\b/i;

function classify(expression: string): TemplateUse['ref'] | undefined {
  const step = STEP_REF.exec(expression);
  if (step !== null) return { kind: 'step', step: Number(step[1]) };
  if (LAST_REF.test(expression)) return { kind: 'last' };
  const stepLike = STEP_LIKE.exec(expression);
  if (stepLike !== null && editDistance((stepLike[1] ?? '').toLowerCase(), 'steps', 1) <= 1) {
    return { kind: 'malformed', suggestion: `{{ steps.${Number(stepLike[2])}.output }}` };
  }
  if (LAST_LIKE.test(expression)) return { kind: 'malformed', suggestion: '{{ last.output }}' };
  return undefined;
}

/** The templates in `text` that refer (or evidently mean to refer) to a step's output, in order. */
export function findTemplates(text: string): TemplateUse[] {
  const uses: TemplateUse[] = [];
  for (const match of text.matchAll(TEMPLATE)) {
    const ref = classify((match[1] ?? '').trim());
    if (ref !== undefined) uses.push({ index: match.index, text: match[0], ref });
  }
  return uses;
}

export type ResolveResult = { ok: true; text: string } | { ok: false; message: string };

function unknownForm(use: TemplateUse, suggestion: string): string {
  return `${use.text} is not a template aide knows: write ${suggestion} (the output of a step) or {{ last.output }} (the output of the nearest earlier step that has one)`;
}

function outputOf(use: TemplateUse, outputs: ReadonlyMap<number, string>, current: number): ResolveResult {
  const ref = use.ref;
  if (ref.kind === 'malformed') return { ok: false, message: unknownForm(use, ref.suggestion) };
  if (ref.kind === 'last') {
    const earlier = [...outputs.keys()].filter((n) => n < current);
    if (earlier.length === 0)
      return { ok: false, message: `${use.text} in step ${current}: no earlier step has an output` };
    return { ok: true, text: outputs.get(Math.max(...earlier)) ?? '' };
  }
  if (ref.step === current)
    return {
      ok: false,
      message: `${use.text} refers to step ${current} itself; a step can use only the output of an earlier step`,
    };
  if (ref.step > current) {
    return {
      ok: false,
      message: `${use.text} refers to step ${ref.step}, which runs after step ${current}; a step can use only the output of an earlier step`,
    };
  }
  const output = outputs.get(ref.step);
  if (output === undefined) {
    const known = [...outputs.keys()].filter((n) => n < current).sort((a, b) => a - b);
    const which =
      known.length === 0 ? 'no earlier step has one' : `steps with an output: ${known.join(', ')}`;
    return {
      ok: false,
      message: `${use.text} in step ${current}: step ${ref.step} has no output (${which})`,
    };
  }
  return { ok: true, text: output };
}

/**
 * Replaces every reference in `text` with the output it names, for step `current`. `outputs`
 * maps step numbers to their recorded output, inserted exactly as given (in a shell Run: line
 * it becomes part of the command line: prefer the argv form when an output may hold spaces or
 * shell characters). Fails, naming the template, when a reference cannot be resolved.
 */
export function resolveTemplates(
  text: string,
  outputs: ReadonlyMap<number, string>,
  current: number,
): ResolveResult {
  let out = '';
  let from = 0;
  for (const use of findTemplates(text)) {
    const resolved = outputOf(use, outputs, current);
    if (!resolved.ok) return resolved;
    out += text.slice(from, use.index) + resolved.text;
    from = use.index + use.text.length;
  }
  return { ok: true, text: out + text.slice(from) };
}

/** What the parser knows about the step a template appears in. */
export interface TemplateContext {
  current: number;
  /** Whether `current` is the first step of the plan. */
  first: boolean;
  /** Every step number in the plan. */
  steps: ReadonlySet<number>;
}

/**
 * The static check of a reference, at parse time: it must name an existing, earlier step. (Whether
 * that step will have an output is known only when the plan runs.)
 */
export function checkTemplate(
  use: TemplateUse,
  context: TemplateContext,
): { message: string; hint: string } | undefined {
  const ref = use.ref;
  const earlierExample = [...context.steps]
    .filter((n) => n < context.current)
    .sort((a, b) => a - b)
    .at(-1);
  const useEarlier =
    earlierExample === undefined
      ? 'Refer only to earlier steps.'
      : `Refer to an earlier step, e.g. {{ steps.${earlierExample}.output }}.`;
  if (ref.kind === 'malformed')
    return {
      message: `${use.text} is not a template aide knows`,
      hint: `Write ${ref.suggestion}; other {{ … }} text is left as written.`,
    };
  if (ref.kind === 'last') {
    if (!context.first) return undefined;
    return {
      message: `${use.text} is in the first step, so no step runs before it`,
      hint: 'Move this step after the step whose output it needs, or write the value itself.',
    };
  }
  if (!context.steps.has(ref.step))
    return {
      message: `${use.text} refers to step ${ref.step}, but the plan has no step ${ref.step}`,
      hint: useEarlier,
    };
  if (ref.step === context.current)
    return {
      message: `${use.text} refers to step ${ref.step} itself`,
      hint: `A step can use only the output of an earlier step. ${useEarlier}`,
    };
  if (ref.step > context.current) {
    return {
      message: `${use.text} refers to step ${ref.step}, which runs after step ${context.current}`,
      hint: `A step can use only the output of an earlier step. ${useEarlier}`,
    };
  }
  return undefined;
}

/**
 * A step carried out alone (`aide act --step N`) runs after no other step, so a template that
 * needs an earlier step's output cannot be filled in. The message for the first such template in
 * `texts` (the step's Run: lines and edits), or undefined when there is none.
 */
export function aloneTemplateProblem(texts: readonly string[], current: number): string | undefined {
  const use = texts.flatMap((text) => findTemplates(text)).find((u) => u.ref.kind !== 'malformed');
  if (use === undefined) return undefined;
  const needs =
    use.ref.kind === 'step'
      ? `step ${use.ref.step}'s output, and step ${use.ref.step} does not run`
      : 'the output of an earlier step, and none runs';
  return `step ${current} runs alone (--step ${current}), so ${use.text} cannot be filled in: it needs ${needs}. Run the whole plan (without --step), or write the value in place of the template.`;
}

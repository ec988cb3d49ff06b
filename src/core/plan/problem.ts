/**
 * What is wrong with a plan document, and where its steps are: the nouns the plan parser gives
 * and its readers (act, verify's `Verify:` lines) take. A leaf module: verify and review name
 * plan problems without loading the parser and the YAML library it brings.
 */

/** One thing wrong with a plan document. */
export interface PlanProblem {
  /** The plan file as the caller named it. */
  file: string;
  /** 1-based line in the file. */
  line: number;
  /** 1-based column, when the problem is at a particular place in the line. */
  column?: number;
  /** What is wrong. */
  message: string;
  /** What to write instead. */
  hint: string;
}

/** Where the parts of each step are in the file, for messages about them. Step number → lines. */
export interface StepLines {
  /** 1-based line of the `## Step` heading. */
  heading: number;
  /** 1-based line of the first line of the step's edits (line 1 of `edits`), or null when it has none. */
  edits: number | null;
  /** Each name of the step's `Verify:` lines, in order, with its 1-based line and column. */
  verify: Array<{ name: string; line: number; column: number }>;
}

export interface PlanLines {
  steps: ReadonlyMap<number, StepLines>;
}

/** `plans/x.md:12:7: message` */
export function formatPlanProblem(problem: PlanProblem): string {
  return `${problem.file}:${problem.line}${problem.column === undefined ? '' : `:${problem.column}`}: ${problem.message}`;
}

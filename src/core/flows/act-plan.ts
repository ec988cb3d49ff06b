/**
 * The plan `aide act` carries out: the file named, or the newest under `.aide/plans/`; parsed,
 * every problem reported at once; and hashed as state.json records it (the file's text, and each
 * step's content), so a resume can tell what changed.
 */
import { relative } from 'node:path';
import { PLANS_DIR } from '../../config/files.js';
import { AideError } from '../../shared/errors.js';
import { unreadableReason } from '../../shared/file-errors.js';
import { parsePlan } from '../plan/parse.js';
import { formatPlanProblem, type PlanLines } from '../plan/problem.js';
import type { Plan, PlanStep } from '../plan/schema.js';
import { stepHash, textHash } from '../plan/step-hash.js';
import type { PlanFiles, SessionPlan } from '../ports/session-store.js';

/** A plan read and parsed. */
export interface LoadedPlan {
  /** Absolute. */
  file: string;
  /** As the person knows it: relative to the workspace root. */
  shown: string;
  plan: Plan;
  lines: PlanLines;
  /** The file's text (its hash tells a resume whether the plan changed). */
  text: string;
}

/** The plan file: the one named (absolute), or the newest in .aide/plans/. */
export async function findPlan(named: string | undefined, plans: PlanFiles): Promise<string> {
  if (named !== undefined) return named;
  const newest = await plans.newest();
  if (newest === null) {
    throw new AideError('input_missing', `no plan to carry out: ${PLANS_DIR}/ has no .md files`, {
      hint: `Give a plan file (\`aide act plan.md\`), or write one under ${PLANS_DIR}/ (the format is in the README).`,
    });
  }
  return newest;
}

/** Reads and parses the plan; an unreadable or invalid plan is an error saying how to fix it. */
export async function loadPlan(file: string, root: string, plans: PlanFiles): Promise<LoadedPlan> {
  const shown = relative(root, file) || file;
  let text: string;
  try {
    text = await plans.read(file);
  } catch (error) {
    throw new AideError('input_unreadable', `cannot read the plan ${shown}: ${unreadableReason(error)}`, {
      hint: `Give the path of a plan document (a .md file), or run \`aide act\` alone to carry out the newest plan under ${PLANS_DIR}/.`,
    });
  }
  const parsed = parsePlan(text, shown);
  if (parsed.ok) return { file, shown, plan: parsed.plan, lines: parsed.lines, text };
  throw new AideError(
    'config_invalid',
    `${shown} is not a valid plan (${parsed.problems.length} problem${parsed.problems.length === 1 ? '' : 's'})`,
    {
      details: parsed.problems.flatMap((p) => [
        formatPlanProblem(p),
        ...(p.hint === '' ? [] : [`  hint: ${p.hint}`]),
      ]),
      hint: 'Fix the plan, then run `aide act` again. The plan format is described in the README.',
      data: { problems: parsed.problems },
    },
  );
}

/** The plan as the session records it: the steps it carries out, each with its content hash. */
export function sessionPlan(
  loaded: LoadedPlan,
  root: string,
  steps: readonly PlanStep[],
  only: number | undefined,
): SessionPlan {
  return {
    plan: relative(root, loaded.file),
    planHash: textHash(loaded.text),
    title: loaded.plan.title,
    steps: steps.map((s) => ({ number: s.number, title: s.title, hash: stepHash(s) })),
    only: only ?? null,
  };
}

/**
 * Writes a Plan as its canonical Markdown document. For every plan planSchema accepts,
 * parsePlan(renderPlan(plan)) gives the same plan back.
 */
import { renderFrontMatter } from './front-matter.js';
import type { Plan, PlanStep, RunCommand } from './schema.js';

/** An argv array as one JSON line, spaced the way people write it: ["node", "gen.js"]. */
function runValue(command: RunCommand): string {
  return typeof command === 'string' ? command : `[${command.map((arg) => JSON.stringify(arg)).join(', ')}]`;
}

function renderStep(step: PlanStep): string {
  const parts = [`## Step ${step.number}: ${step.title}`];
  if (step.intent !== '') parts.push(step.intent);
  // Each key line is a paragraph of its own: Markdown would join adjacent lines into one.
  if (step.files.length > 0) parts.push(`Files: ${step.files.join(', ')}`);
  for (const command of step.run) parts.push(`Run: ${runValue(command)}`);
  if (step.verify.length > 0) parts.push(`Verify: ${step.verify.join(', ')}`);
  if (step.edits !== '') parts.push('### Edits', step.edits);
  return parts.join('\n\n');
}

/** The plan as Markdown: front matter, summary, then one section per step; ends with a newline. */
export function renderPlan(plan: Plan): string {
  const frontMatter = renderFrontMatter({
    aide_plan: plan.version,
    title: plan.title,
    created: plan.created,
    base: plan.base,
    model: plan.model,
  });
  const parts = [frontMatter];
  if (plan.summary !== '') parts.push(plan.summary);
  parts.push(...plan.steps.map(renderStep));
  return `${parts.join('\n\n')}\n`;
}

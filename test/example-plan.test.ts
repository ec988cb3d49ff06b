// The plan the README shows is the example project's real plan, the one `npm run demo` carries
// out, and it runs there: it parses, each Run: line is allowed by the example's sandbox.json, and
// each Verify: name is one of its commands (as `aide act` checks before any work).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseSandboxFile } from '../src/config/load.js';
import { formatProblem } from '../src/config/problems.js';
import { commandText } from '../src/core/flows/act.js';
import { parsePlan } from '../src/core/plan/parse.js';
import { formatPlanProblem } from '../src/core/plan/problem.js';
import {
  EXAMPLE_PLAN_FILE,
  EXAMPLE_SANDBOX_FILE,
  PLAN_REFERENCE_END,
  PLAN_REFERENCE_START,
} from '../src/core/plan/reference.js';
import { availableCommands, checkPlanCommands } from '../src/core/verify/select-commands.js';

/** dist/test/example-plan.test.js → the repository root. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The plan in the README's format reference, as shown. */
function shownPlan(): string {
  const readme = read('README.md');
  const reference = readme.slice(readme.indexOf(PLAN_REFERENCE_START), readme.indexOf(PLAN_REFERENCE_END));
  const shown = /### Example\n[^]*?````markdown\n([^]*)\n````/.exec(reference)?.[1];
  assert.ok(shown !== undefined, 'README.md shows an example plan between the plan-format markers');
  return `${shown}\n`;
}

function parsed() {
  const result = parsePlan(shownPlan(), EXAMPLE_PLAN_FILE);
  assert.ok(result.ok, result.ok ? '' : result.problems.map(formatPlanProblem).join('\n'));
  const sandbox = parseSandboxFile(read(EXAMPLE_SANDBOX_FILE));
  assert.ok(sandbox.ok, sandbox.ok ? '' : sandbox.problems.map(formatProblem).join('\n'));
  return { ...result, sandbox: sandbox.loaded.value };
}

test("the README's example plan is the example project's plan, and it parses", () => {
  assert.equal(shownPlan(), read(EXAMPLE_PLAN_FILE));
  assert.ok(parsed().plan.steps.length > 0);
});

test("every Run: line of the example plan is in the example's allowed_commands", () => {
  const { plan, sandbox } = parsed();
  for (const step of plan.steps) {
    for (const run of step.run)
      assert.ok(
        sandbox.allowed_commands.includes(commandText(run)),
        `step ${step.number}: Run: ${commandText(run)} is not in ${EXAMPLE_SANDBOX_FILE}'s allowed_commands`,
      );
  }
});

test("every Verify: name of the example plan is a command in the example's sandbox.json", () => {
  const { plan, lines, sandbox } = parsed();
  assert.ok(
    plan.steps.some((s) => s.verify.length > 0),
    'the example shows a Verify: line',
  );
  const commands = sandbox.commands.map((c) => ({ name: c.name, run: c.run, optional: c.optional }));
  assert.doesNotThrow(() => {
    checkPlanCommands(
      plan,
      lines,
      EXAMPLE_PLAN_FILE,
      availableCommands(commands, [], '.aide/sandbox.json'),
      '.aide/sandbox.json',
    );
  });
});

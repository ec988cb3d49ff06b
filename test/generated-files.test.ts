// The JSON Schemas in schemas/ and the configuration and plan format references in README.md are
// generated from the zod schemas by `npm run schemas`. This fails when a committed copy drifts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { REFERENCE_END, REFERENCE_START, schemaFiles, withConfigReference } from '../src/config/reference.js';
import { EXAMPLE_PLAN_FILE, PLAN_REFERENCE_START, withPlanReference } from '../src/core/plan/reference.js';

/** dist/test/generated-files.test.js → the repository root. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIX = 'Run `npm run schemas` and commit the result.';

test('the committed JSON Schemas match the zod schemas', () => {
  for (const [path, expected] of Object.entries(schemaFiles())) {
    assert.equal(readFileSync(join(ROOT, path), 'utf8'), expected, `${path} is out of date. ${FIX}`);
  }
});

test("the README's configuration reference matches the zod schemas", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  assert.ok(
    readme.includes(REFERENCE_START) && readme.includes(REFERENCE_END),
    `README.md lacks the config-reference markers. ${FIX}`,
  );
  assert.equal(
    readme,
    withConfigReference(readme),
    `README.md's configuration reference is out of date. ${FIX}`,
  );
});

test("the README's plan format reference matches the plan schema", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  assert.ok(readme.includes(PLAN_REFERENCE_START), `README.md lacks the plan-format markers. ${FIX}`);
  const example = readFileSync(join(ROOT, EXAMPLE_PLAN_FILE), 'utf8');
  assert.equal(
    readme,
    withPlanReference(readme, example),
    `README.md's plan format reference is out of date. ${FIX}`,
  );
});

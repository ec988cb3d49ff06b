import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectCommands, type ProjectFiles } from './detect-commands.js';

const pkg = (scripts: Record<string, string>) => JSON.stringify({ name: 'p', scripts });
const ALL = { test: 'node --test', lint: 'eslint .', build: 'tsc', typecheck: 'tsc --noEmit', dev: 'vite' };

function runs(files: ProjectFiles): string[] {
  return detectCommands(files).commands.map((c) => `${c.name}: ${c.run.join(' ')}`);
}

test('npm scripts run typecheck, lint, build, test in that order; other scripts are ignored', () => {
  assert.deepEqual(runs({ 'package.json': pkg(ALL), 'package-lock.json': '{}' }), [
    'typecheck: npm run typecheck',
    'lint: npm run lint',
    'build: npm run build',
    'test: npm test',
  ]);
});

test('the package manager comes from the lockfile', () => {
  const cases: [ProjectFiles, string[]][] = [
    [{ 'pnpm-lock.yaml': '' }, ['lint: pnpm run lint', 'test: pnpm test']],
    [{ 'yarn.lock': '' }, ['lint: yarn run lint', 'test: yarn test']],
    // `bun test` is bun's own runner, not the "test" script.
    [{ 'bun.lock': '' }, ['lint: bun run lint', 'test: bun run test']],
    [{ 'bun.lockb': '' }, ['lint: bun run lint', 'test: bun run test']],
    [{}, ['lint: npm run lint', 'test: npm test']],
  ];
  for (const [lockfiles, expected] of cases) {
    assert.deepEqual(runs({ 'package.json': pkg({ lint: 'x', test: 'y' }), ...lockfiles }), expected, JSON.stringify(lockfiles));
  }
  assert.deepEqual(detectCommands({ 'package.json': pkg({}) }).packageManager, { name: 'npm', because: 'package.json without a lockfile' });
});

test('several lockfiles: the first wins and a note says so', () => {
  const detection = detectCommands({ 'package.json': pkg({ test: 'x' }), 'package-lock.json': '', 'yarn.lock': '' });
  assert.equal(detection.packageManager?.name, 'npm');
  assert.match(detection.notes.join('\n'), /Several lockfiles \(package-lock\.json, yarn\.lock\); used npm/);
});

test("npm init's placeholder test script is skipped with a note", () => {
  const detection = detectCommands({ 'package.json': pkg({ test: 'echo "Error: no test specified" && exit 1' }) });
  assert.deepEqual(detection.commands, []);
  assert.match(detection.notes.join('\n'), /placeholder/);
});

test('a package.json that does not parse yields a note, not a crash', () => {
  const detection = detectCommands({ 'package.json': '{ nope' });
  assert.deepEqual(detection.commands, []);
  assert.match(detection.notes.join('\n'), /not valid JSON/);
});

test('cargo, go, pytest and make projects', () => {
  assert.deepEqual(runs({ 'Cargo.toml': '[package]' }), ['test: cargo test']);
  assert.deepEqual(runs({ 'go.mod': 'module x' }), ['test: go test ./...']);
  assert.deepEqual(runs({ 'pytest.ini': '[pytest]' }), ['test: python -m pytest']);
  assert.deepEqual(runs({ 'pyproject.toml': '[tool.pytest.ini_options]\n' }), ['test: python -m pytest']);
  assert.deepEqual(runs({ 'pyproject.toml': '[project]\ndependencies = ["pytest>=8"]\n' }), ['test: python -m pytest']);
  assert.deepEqual(runs({ 'setup.cfg': '[tool:pytest]\n' }), ['test: python -m pytest']);
  assert.deepEqual(runs({ 'pyproject.toml': '[project]\nname = "x"\n' }), []);
  assert.deepEqual(runs({ Makefile: 'all:\n\tcc x.c\n\ntest: all\n\t./run-tests\n' }), ['test: make test']);
  assert.deepEqual(runs({ Makefile: 'test := value\nall:\n' }), []);
});

test('several tools: names stay unique, the first tool command is "test" only when nothing else is', () => {
  assert.deepEqual(runs({ 'package.json': pkg({ test: 'x' }), 'Cargo.toml': '', Makefile: 'test:\n' }), [
    'test: npm test',
    'cargo-test: cargo test',
    'make-test: make test',
  ]);
  assert.deepEqual(runs({ 'go.mod': '', Makefile: 'test:\n' }), ['test: go test ./...', 'make-test: make test']);
});

test('an empty project has no commands', () => {
  assert.deepEqual(detectCommands({}), { packageManager: null, commands: [], notes: [] });
});

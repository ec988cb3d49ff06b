import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectCommands, type ProjectFiles, type WorkspacePackage } from './detect-commands.js';
import { hasTarget, makeTargets } from './detect-make.js';

const pkg = (scripts: Record<string, string>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: 'p', scripts, ...extra });
const ALL = { test: 'node --test', lint: 'eslint .', build: 'tsc', typecheck: 'tsc --noEmit', dev: 'vite' };

function runs(files: ProjectFiles, packages: WorkspacePackage[] = []): string[] {
  return detectCommands(files, packages).commands.map(
    (c) => `${c.name}: ${c.run.join(' ')}${c.optional === true ? ' (optional)' : ''}`,
  );
}

test('npm scripts run typecheck, lint, build, test in that order; other scripts are ignored', () => {
  assert.deepEqual(runs({ 'package.json': pkg(ALL), 'package-lock.json': '{}' }), [
    'typecheck: npm run typecheck',
    'lint: npm run lint',
    'build: npm run build',
    'test: npm test',
  ]);
});

test('a typecheck script under another common name is found', () => {
  assert.deepEqual(runs({ 'package.json': pkg({ 'types:check': 'tsc', test: 'vitest' }) }), [
    'types:check: npm run types:check',
    'test: npm test',
  ]);
  assert.deepEqual(runs({ 'package.json': pkg({ 'type-check': 'tsc', typecheck: 'tsc -b' }) }), [
    'typecheck: npm run typecheck',
  ]);
});

test('the package manager comes from the lockfile, else "packageManager", else a pnpm workspace file', () => {
  const cases: [ProjectFiles, string[]][] = [
    [{ 'pnpm-lock.yaml': '' }, ['lint: pnpm run lint', 'test: pnpm test']],
    [{ 'yarn.lock': '' }, ['lint: yarn run lint', 'test: yarn test']],
    // `bun test` is bun's own runner, not the "test" script.
    [{ 'bun.lock': '' }, ['lint: bun run lint', 'test: bun run test']],
    [{ 'bun.lockb': '' }, ['lint: bun run lint', 'test: bun run test']],
    [{}, ['lint: npm run lint', 'test: npm test']],
  ];
  for (const [lockfiles, expected] of cases) {
    assert.deepEqual(
      runs({ 'package.json': pkg({ lint: 'x', test: 'y' }), ...lockfiles }),
      expected,
      JSON.stringify(lockfiles),
    );
  }
  assert.deepEqual(detectCommands({ 'package.json': pkg({}) }).packageManager, {
    name: 'npm',
    because: 'package.json without a lockfile',
  });
  assert.deepEqual(
    detectCommands({ 'package.json': pkg({}, { packageManager: 'yarn@4.1.0' }) }).packageManager,
    { name: 'yarn', because: 'package.json "packageManager"' },
  );
  assert.deepEqual(
    detectCommands({ 'package.json': pkg({}), 'pnpm-workspace.yaml': 'packages: []' }).packageManager,
    { name: 'pnpm', because: 'pnpm-workspace.yaml' },
  );
});

test('several lockfiles: the first wins and a note says so', () => {
  const detection = detectCommands({
    'package.json': pkg({ test: 'x' }),
    'package-lock.json': '',
    'yarn.lock': '',
  });
  assert.equal(detection.packageManager?.name, 'npm');
  assert.match(detection.notes.join('\n'), /Several lockfiles \(package-lock\.json, yarn\.lock\); used npm/);
});

test("npm init's placeholder test script is skipped with a note", () => {
  const detection = detectCommands({
    'package.json': pkg({ test: 'echo "Error: no test specified" && exit 1' }),
  });
  assert.deepEqual(detection.commands, []);
  assert.match(detection.notes.join('\n'), /placeholder/);
});

test('a package.json that does not parse yields a note, not a crash', () => {
  const detection = detectCommands({ 'package.json': '{ nope' });
  assert.deepEqual(detection.commands, []);
  assert.match(detection.notes.join('\n'), /not valid JSON/);
});

const WORKSPACE = [
  { dir: 'packages/core', text: pkg({ test: 'vitest run', lint: 'eslint .' }) },
  { dir: 'packages/cli', text: pkg({ test: 'vitest run', build: 'tsc' }) },
  { dir: 'packages/docs', text: pkg({ test: 'echo "Error: no test specified" && exit 1' }) },
];

test('monorepo: scripts the root lacks run across the workspace packages, per package manager', () => {
  const root = { 'package.json': pkg({ lint: 'eslint .' }, { workspaces: ['packages/*'] }) };
  assert.deepEqual(runs({ ...root, 'package-lock.json': '{}' }, WORKSPACE), [
    'lint: npm run lint',
    'build: npm run build --workspaces --if-present',
    'test: npm test --workspaces --if-present',
  ]);
  const pnpmRoot = {
    'package.json': pkg({}),
    'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n",
    'pnpm-lock.yaml': '',
  };
  assert.deepEqual(runs(pnpmRoot, WORKSPACE), [
    'lint: pnpm -r run --if-present lint',
    'build: pnpm -r run --if-present build',
    'test: pnpm -r run --if-present test',
  ]);
  assert.deepEqual(runs({ ...root, 'yarn.lock': '__metadata:\n  version: 8\n' }, WORKSPACE).slice(1), [
    'build: yarn workspaces foreach --all run build',
    'test: yarn workspaces foreach --all run test',
  ]);
  assert.deepEqual(runs({ ...root, 'bun.lock': '' }, WORKSPACE).slice(1), [
    'build: bun run --filter * build',
    'test: bun run --filter * test',
  ]);
  const because = detectCommands({ ...root, 'package-lock.json': '' }, WORKSPACE).commands.find(
    (c) => c.name === 'test',
  )?.because;
  assert.equal(because, 'script "test" in 2 of 3 workspace packages (package.json "workspaces")');
});

test('monorepo on yarn 1: `yarn workspaces run` only when every package has the script, else a note', () => {
  const files = {
    'package.json': pkg({}, { workspaces: { packages: ['packages/*'] } }),
    'yarn.lock': '# THIS IS AN AUTOGENERATED FILE.\n# yarn lockfile v1\n',
  };
  const detection = detectCommands(files, WORKSPACE.slice(0, 2));
  assert.deepEqual(
    detection.commands.map((c) => c.run.join(' ')),
    ['yarn workspaces run test'],
  );
  assert.match(
    detection.notes.join('\n'),
    /Only 1 of 2 workspace packages have a "lint" script, and yarn 1's `yarn workspaces run lint` fails/,
  );
});

test('Makefile targets are read as make reads rules', () => {
  const targets = makeTargets(
    [
      'CFLAGS := -O2',
      'test := value',
      'check ?= maybe',
      '.PHONY: lint \\',
      '\tvet',
      'test.o: test.c',
      '\tcc -c test.c -o test.o',
      'all build: deps ## the usual',
      'unit: CFLAGS += -g',
      '%.o: %.c',
      'define RECIPE',
      'fake:',
      'endef',
      'ci:: all',
    ].join('\n'),
  );
  assert.deepEqual([...targets.rules].sort(), ['all', 'build', 'ci', 'test.o']);
  assert.deepEqual([...targets.phony].sort(), ['lint', 'vet']);
  assert.equal(hasTarget(targets, 'test'), false);
  assert.equal(hasTarget(targets, 'vet'), true);
});

test('make: a test or check target; check is optional when both exist', () => {
  assert.deepEqual(runs({ Makefile: 'all:\n\tcc x.c\n\ntest: all\n\t./run-tests\n' }), ['test: make test']);
  assert.deepEqual(runs({ Makefile: '.PHONY: check\ninclude rules.mk\n' }), ['test: make check']);
  assert.deepEqual(runs({ Makefile: 'test:\n\tpytest\ncheck: lint test\n' }), [
    'test: make test',
    'make-check: make check (optional)',
  ]);
  assert.deepEqual(runs({ GNUmakefile: 'check:\n', Makefile: 'test:\n' }), ['test: make check']);
  assert.deepEqual(runs({ Makefile: 'test := value\ntest.o: x\nall:\n' }), []);
});

test('go: vet then test; a Makefile test target makes go test optional, with a note', () => {
  assert.deepEqual(runs({ 'go.mod': 'module x' }), ['go-vet: go vet ./...', 'test: go test ./...']);
  const detection = detectCommands({
    'go.mod': 'module x',
    Makefile: '.PHONY: test\ntest:\n\tgo test -race ./...\n',
  });
  assert.deepEqual(
    detection.commands.map((c) => `${c.name}${c.optional === true ? '?' : ''}`),
    ['go-vet', 'test', 'go-test?'],
  );
  assert.match(
    detection.notes.join('\n'),
    /go-test \(go test \.\/\.\.\.\) is optional: `make test` most likely runs it already/,
  );
});

test('cargo: test, and clippy as an optional command; --workspace for a root package with members', () => {
  assert.deepEqual(runs({ 'Cargo.toml': '[package]\nname = "x"\n' }), [
    'test: cargo test',
    'clippy: cargo clippy --all-targets -- -D warnings (optional)',
  ]);
  assert.deepEqual(runs({ 'Cargo.toml': '[package]\nname = "x"\n\n[workspace]\nmembers = ["crates/*"]\n' }), [
    'test: cargo test --workspace',
    'clippy: cargo clippy --workspace --all-targets -- -D warnings (optional)',
  ]);
  // A virtual manifest: cargo already acts on every member.
  assert.deepEqual(runs({ 'Cargo.toml': '[workspace]\nmembers = ["a", "b"]\n' })[0], 'test: cargo test');
});

test('python: ruff and mypy from their config, pytest from config or a dependency', () => {
  const pyproject =
    '[project]\nname = "x"\n\n[tool.ruff]\nline-length = 100\n\n[tool.ruff.lint]\nselect = ["E"]\n\n[tool.mypy]\nstrict = true\n\n[tool.pytest.ini_options]\naddopts = "-q"\n';
  assert.deepEqual(runs({ 'pyproject.toml': pyproject }), [
    'ruff: ruff check .',
    'mypy: python -m mypy .',
    'test: python -m pytest',
  ]);
  assert.deepEqual(runs({ 'pyproject.toml': '[tool.mypy]\nfiles = ["src"]\n' }), ['mypy: python -m mypy']);
  assert.deepEqual(runs({ 'ruff.toml': 'line-length = 88\n', 'mypy.ini': '[mypy]\npackages = app\n' }), [
    'ruff: ruff check .',
    'mypy: python -m mypy',
  ]);
  assert.deepEqual(runs({ 'setup.cfg': '[mypy]\n[tool:pytest]\n' }), [
    'mypy: python -m mypy .',
    'test: python -m pytest',
  ]);
  assert.deepEqual(runs({ 'pytest.ini': '[pytest]' }), ['test: python -m pytest']);
  assert.deepEqual(runs({ 'pyproject.toml': '[project]\ndependencies = ["pytest>=8"]\n' }), [
    'test: python -m pytest',
  ]);
  assert.deepEqual(runs({ 'pyproject.toml': '[project]\nname = "x"\n# see [tool.ruff] docs\n' }), []);
  assert.equal(
    detectCommands({ 'pyproject.toml': pyproject }).commands[0]?.because,
    'pyproject.toml [tool.ruff]',
  );
});

test('tox and nox are optional; a tox.ini with only tool sections is not tox', () => {
  assert.deepEqual(runs({ 'tox.ini': '[tox]\nenvlist = py312\n\n[testenv]\ncommands = ruff check .\n' }), [
    'tox: tox (optional)',
  ]);
  assert.deepEqual(runs({ 'tox.ini': '[pytest]\naddopts = -q\n\n[flake8]\nmax-line-length = 100\n' }), [
    'test: python -m pytest',
  ]);
  assert.deepEqual(runs({ 'pyproject.toml': '[tool.tox]\nlegacy_tox_ini = ""\n' }), ['tox: tox (optional)']);
  assert.deepEqual(runs({ 'noxfile.py': 'import nox\n' }), ['nox: nox (optional)']);
});

test('pre-commit: its hooks as one optional command, named in "found in"', () => {
  const config =
    'repos:\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n    rev: v0.6.0\n    hooks:\n      - id: ruff\n      - id: ruff-format\n  - repo: local\n    hooks:\n    -   id: "mypy"\n';
  const [command] = detectCommands({ '.pre-commit-config.yaml': config }).commands;
  assert.deepEqual(command, {
    name: 'pre-commit',
    run: ['pre-commit', 'run', '--all-files'],
    because: '.pre-commit-config.yaml (hooks: ruff, ruff-format, mypy)',
    optional: true,
  });
});

test('several tools: names stay unique, the first required test tool is "test" only when nothing else is', () => {
  assert.deepEqual(runs({ 'package.json': pkg({ test: 'x' }), 'Cargo.toml': '', Makefile: 'test:\n' }), [
    'test: npm test',
    'make-test: make test',
    'cargo-test: cargo test (optional)',
    'clippy: cargo clippy --all-targets -- -D warnings (optional)',
  ]);
  assert.deepEqual(runs({ 'go.mod': '', 'pytest.ini': '' }), [
    'go-vet: go vet ./...',
    'test: go test ./...',
    'pytest: python -m pytest',
  ]);
});

test('an empty project has no commands', () => {
  assert.deepEqual(detectCommands({}), { packageManager: null, commands: [], notes: [] });
});

test('a tox.ini whose testenv installs or runs pytest (py.test, its old name) gives pytest itself too', () => {
  // cachetools: no pytest config anywhere but tox.ini's testenv.
  const tox =
    '[tox]\nenvlist = py\n\n[testenv]\ndeps =\n    pytest\n    pytest-cov\ncommands =\n    py.test --basetemp={envtmpdir} {posargs}\n';
  assert.deepEqual(runs({ 'tox.ini': tox }), ['test: python -m pytest', 'tox: tox (optional)']);
  assert.deepEqual(runs({ 'tox.ini': '[testenv]\ncommands = py.test\n' }), [
    'test: python -m pytest',
    'tox: tox (optional)',
  ]);
  assert.deepEqual(runs({ 'tox.ini': '[testenv:lint]\ndeps = flake8\ncommands = flake8\n' }), [
    'tox: tox (optional)',
  ]);
});

test('a virtualenv next to the python commands is named with how to activate it; none without python commands', () => {
  const tox = '[testenv]\ndeps = pytest\n';
  const withVenv = detectCommands({ 'tox.ini': tox, '.venv/pyvenv.cfg': 'home = /usr/bin\n' });
  assert.equal(withVenv.notes.filter((n) => n.includes('source .venv/bin/activate')).length, 1);
  assert.ok(
    detectCommands({ 'tox.ini': tox, 'venv/pyvenv.cfg': '' }).notes.some((n) =>
      n.includes('source venv/bin/activate'),
    ),
  );
  assert.ok(!detectCommands({ 'tox.ini': tox }).notes.some((n) => n.includes('virtualenv')));
  assert.ok(
    !detectCommands({ 'go.mod': 'module x\n', '.venv/pyvenv.cfg': '' }).notes.some((n) =>
      n.includes('virtualenv'),
    ),
  );
});

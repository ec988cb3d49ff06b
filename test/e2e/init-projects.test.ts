/**
 * `aide init` on fixture projects shaped like real ones (a Go module with a Makefile, a Rust
 * crate, a Python project with ruff, mypy, pytest, tox and pre-commit, a pnpm monorepo): what
 * it writes to .aide/sandbox.json, where it says each command was found, and that `aide config`
 * accepts the result.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runAide } from '../helpers/cli.js';
import { gitRepo } from '../helpers/sandbox.js';

const sandboxCommands = (root: string) =>
  (JSON.parse(readFileSync(join(root, '.aide/sandbox.json'), 'utf8')) as { commands: unknown[] }).commands;

const GO_MAKEFILE = `GO ?= go
BIN := bin/server

.PHONY: all build test lint clean

all: build

build: ## Build the server
\t$(GO) build -o $(BIN) ./cmd/server

test: ## Run the tests with the race detector
\t$(GO) test -race ./...

lint:
\tgolangci-lint run

$(BIN): $(wildcard *.go)
\t$(GO) build -o $@ ./cmd/server

clean:
\trm -rf bin
`;

test('a Go module with a Makefile: go vet, make test, and go test kept optional', async (t) => {
  const root = gitRepo(t, {
    'go.mod': 'module example.com/server\n\ngo 1.22\n',
    'main.go': 'package main\n\nfunc main() {}\n',
    Makefile: GO_MAKEFILE,
  });
  const result = await runAide(['init'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(sandboxCommands(root), [
    { name: 'go-vet', run: ['go', 'vet', './...'] },
    { name: 'test', run: ['make', 'test'] },
    { name: 'go-test', run: ['go', 'test', './...'], optional: true },
  ]);
  assert.match(result.stdout, /go-vet\s+go vet \.\/\.\.\.\s+go\.mod\n/);
  assert.match(result.stdout, /test\s+make test\s+Makefile target "test"\n/);
  assert.match(result.stdout, /go-test\s+go test \.\/\.\.\.\s+go\.mod \(optional\)\n/);
  assert.match(result.stdout, /Optional commands run only when asked for: `aide verify --commands go-test`/);
  assert.match(
    result.stdout,
    /note: go-test \(go test \.\/\.\.\.\) is optional: `make test` most likely runs it already/,
  );
});

test('a Rust crate: cargo test, and clippy as an optional command', async (t) => {
  const root = gitRepo(t, {
    'Cargo.toml': '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n',
    'src/lib.rs': 'pub fn add(a: i32, b: i32) -> i32 { a + b }\n',
  });
  const result = await runAide(['init'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(sandboxCommands(root), [
    { name: 'test', run: ['cargo', 'test'] },
    { name: 'clippy', run: ['cargo', 'clippy', '--all-targets', '--', '-D', 'warnings'], optional: true },
  ]);
  assert.match(
    result.stdout,
    /Detected 2 verify commands, run in this order:\n\s+test\s+cargo test\s+Cargo\.toml\n/,
  );
  assert.match(
    result.stdout,
    /clippy\s+cargo clippy --all-targets -- -D warnings\s+Cargo\.toml \(clippy: a rustup component\) \(optional\)/,
  );
});

const PYPROJECT = `[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "tidyrows"
version = "0.3.1"
requires-python = ">=3.10"
dependencies = ["attrs>=23"]

[project.optional-dependencies]
dev = ["pytest>=8", "ruff>=0.6", "mypy>=1.11"]

[tool.ruff]
line-length = 100
target-version = "py310"

[tool.ruff.lint]
select = ["E", "F", "I", "UP"]

[tool.mypy]
strict = true
packages = ["tidyrows"]

[tool.pytest.ini_options]
testpaths = ["tests"]
addopts = "-q"
`;

const TOX_INI = `[tox]
envlist = py310, py311, py312
isolated_build = true

[testenv]
extras = dev
commands = pytest {posargs}
`;

const PRE_COMMIT = `repos:
  - repo: https://github.com/pre-commit/pre-commit-hooks
    rev: v4.6.0
    hooks:
      - id: trailing-whitespace
      - id: end-of-file-fixer
  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: v0.6.4
    hooks:
      - id: ruff
        args: [--fix]
`;

test('a Python project: ruff, mypy and pytest from pyproject.toml; tox and pre-commit optional', async (t) => {
  const root = gitRepo(t, {
    'pyproject.toml': PYPROJECT,
    'tox.ini': TOX_INI,
    '.pre-commit-config.yaml': PRE_COMMIT,
    'src/tidyrows/__init__.py': '',
    'tests/test_rows.py': 'def test_ok():\n    assert True\n',
  });
  const result = await runAide(['init'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(sandboxCommands(root), [
    { name: 'ruff', run: ['ruff', 'check', '.'] },
    { name: 'mypy', run: ['python', '-m', 'mypy'] },
    { name: 'test', run: ['python', '-m', 'pytest'] },
    { name: 'tox', run: ['tox'], optional: true },
    { name: 'pre-commit', run: ['pre-commit', 'run', '--all-files'], optional: true },
  ]);
  assert.match(result.stdout, /ruff\s+ruff check \.\s+pyproject\.toml \[tool\.ruff\]\n/);
  assert.match(result.stdout, /mypy\s+python -m mypy\s+pyproject\.toml \[tool\.mypy\]\n/);
  assert.match(result.stdout, /test\s+python -m pytest\s+pyproject\.toml \[tool\.pytest\.ini_options\]\n/);
  assert.match(
    result.stdout,
    /pre-commit\s+pre-commit run --all-files\s+\.pre-commit-config\.yaml \(hooks: trailing-whitespace, end-of-file-fixer, ruff\) \(optional\)/,
  );
  assert.match(result.stdout, /`aide verify --commands tox,pre-commit`/);
  const config = await runAide(['config'], { cwd: root });
  assert.equal(config.code, 0, config.stderr);
  assert.match(config.stdout, /commands\[3\]\.optional\s+true\s+\.aide\/sandbox\.json/);
});

const pkg = (value: Record<string, unknown>) => `${JSON.stringify(value, null, 2)}\n`;

test('a pnpm monorepo: root scripts first, then the scripts its packages have, run recursively', async (t) => {
  const root = gitRepo(t, {
    'package.json': pkg({
      name: 'acme',
      private: true,
      packageManager: 'pnpm@9.12.0',
      scripts: { lint: 'eslint .', dev: 'turbo dev' },
    }),
    'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
    'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n  - 'apps/*'\n  - '!**/fixtures/**'\n",
    'packages/core/package.json': pkg({
      name: '@acme/core',
      scripts: { build: 'tsc -b', test: 'vitest run', typecheck: 'tsc --noEmit' },
    }),
    'packages/ui/package.json': pkg({ name: '@acme/ui', scripts: { build: 'tsup', test: 'vitest run' } }),
    'packages/ui/fixtures/broken/package.json': pkg({ name: 'fixture', scripts: { test: 'exit 1' } }),
    'apps/web/package.json': pkg({ name: '@acme/web', scripts: { build: 'next build', dev: 'next dev' } }),
    'node_modules/left-pad/package.json': pkg({ name: 'left-pad', scripts: { test: 'tape' } }),
  });
  const result = await runAide(['init'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(sandboxCommands(root), [
    { name: 'typecheck', run: ['pnpm', '-r', 'run', '--if-present', 'typecheck'] },
    { name: 'lint', run: ['pnpm', 'run', 'lint'] },
    { name: 'build', run: ['pnpm', '-r', 'run', '--if-present', 'build'] },
    { name: 'test', run: ['pnpm', '-r', 'run', '--if-present', 'test'] },
  ]);
  assert.match(result.stdout, /\(package manager: pnpm, from pnpm-lock\.yaml\)/);
  assert.match(result.stdout, /lint\s+pnpm run lint\s+package\.json script "lint"\n/);
  assert.match(
    result.stdout,
    /build\s+pnpm -r run --if-present build\s+script "build" in 3 of 3 workspace packages \(pnpm-workspace\.yaml\)\n/,
  );
  assert.match(
    result.stdout,
    /test\s+pnpm -r run --if-present test\s+script "test" in 2 of 3 workspace packages/,
  );
});

test('without sandbox commands, aide verify runs what init would detect, optional ones only when named', async (t) => {
  const root = gitRepo(t, {
    Makefile: '.PHONY: test\ntest:\n\t@echo "make test ran"\n',
    '.pre-commit-config.yaml':
      'repos:\n  - repo: local\n    hooks:\n      - id: no-such-tool\n        name: no such tool\n        entry: no-such-tool\n        language: system\n',
  });
  const result = await runAide(['verify', '--json'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as {
    commandSource: string;
    commands: { name: string; status: string }[];
  };
  assert.equal(report.commandSource, 'detected');
  assert.deepEqual(
    report.commands.map((c) => [c.name, c.status]),
    [['test', 'passed']],
  );
  const named = await runAide(['verify', '--json', '--commands', 'pre-commit'], { cwd: root });
  assert.deepEqual(
    (JSON.parse(named.stdout) as { commands: { name: string }[] }).commands.map((c) => c.name),
    ['pre-commit'],
  );
});

test("without sandbox commands, aide verify runs a monorepo's workspace scripts as init would", async (t) => {
  const root = gitRepo(t, {
    'package.json': pkg({ name: 'mono', private: true, workspaces: ['packages/*'] }),
    'package-lock.json': '{}\n',
    'packages/a/package.json': pkg({
      name: 'a',
      scripts: { test: 'node -e "console.log(\'package a tested\')"' },
    }),
    'packages/b/package.json': pkg({ name: 'b' }),
  });
  const result = await runAide(['verify', '--json'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as {
    commandSource: string;
    commands: { name: string; run: string[]; status: string; logPath: string }[];
  };
  assert.equal(report.commandSource, 'detected');
  assert.deepEqual(
    report.commands.map((c) => [c.name, c.run, c.status]),
    [['test', ['npm', 'test', '--workspaces', '--if-present'], 'passed']],
  );
  assert.match(readFileSync(report.commands[0]?.logPath ?? '', 'utf8'), /package a tested/);
});

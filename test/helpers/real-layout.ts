/**
 * Workspaces shaped like real projects (issue 11): the ignore spellings people actually write,
 * dependency folders that are ignored and linked (node_modules, .venv, PHP's vendor) or tracked
 * (Go's vendor), build outputs left in the workspace (Rust's target), and tests that write caches.
 *
 * Each layout gets a two-step plan: an edit of a source file, then an edit of the .gitignore
 * (a change of the ignore rules makes the scratch sweep its ignored files: the links must stay).
 * Its one verify command is a small node script that fails unless the scratch looks as the
 * project's own tools expect: the dependencies it needs are readable, build outputs of the
 * workspace are not there, and it can write its caches.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { edit, planDoc } from './act.js';
import type { CliResult } from './cli.js';
import { runAideInProcess } from './in-process.js';
import { fingerprint, gitRepo, testEnv, writeTree, type Cleanup } from './sandbox.js';

export interface Layout {
  name: string;
  /** The .gitignore's text (its first line is what step 2 edits after). */
  gitignore: string;
  /** Tracked files. */
  files: Record<string, string>;
  /** Files put in the workspace after the commit: ignored dependencies and build outputs. */
  ignored: Record<string, string>;
  /** sandbox.json `link` (the default, node_modules, when absent). */
  link?: string[];
  /** Paths the verify command must be able to read in the scratch. */
  sees: string[];
  /** Paths of the workspace's ignored files that must not be in the scratch (nothing is copied). */
  absent?: string[];
  /** Files the verify command writes in the scratch, as tests write their caches. */
  writes: string[];
  /** The tracked file step 1 edits: its first line gets a comment appended. */
  source: string;
}

const JS = 'export const answer = 42;\n';

export const LAYOUTS: readonly Layout[] = [
  ...['node_modules', '/node_modules', 'node_modules/', '**/node_modules'].map((spelling): Layout => ({
    name: `npm, .gitignore says ${spelling}`,
    gitignore: `${spelling}\ncoverage/\n`,
    files: { 'package.json': '{ "name": "app", "type": "module" }\n', 'src/index.js': JS },
    ignored: {
      'node_modules/left-pad/index.js': 'module.exports = 1;\n',
      'node_modules/.bin/tool': '#!/bin/sh\n',
    },
    sees: ['node_modules/left-pad/index.js'],
    writes: ['coverage/lcov.info'],
    source: 'src/index.js',
  })),
  {
    name: 'npm workspaces monorepo with nested node_modules',
    gitignore: 'node_modules\n',
    files: {
      'package.json': '{ "name": "mono", "private": true, "workspaces": ["packages/*"] }\n',
      'packages/a/package.json': '{ "name": "a" }\n',
      'packages/a/src/index.js': JS,
      'packages/b/package.json': '{ "name": "b" }\n',
    },
    ignored: {
      'node_modules/shared/index.js': 'shared\n',
      'packages/a/node_modules/only-a/index.js': 'only a\n',
    },
    link: ['node_modules', 'packages/a/node_modules'],
    sees: ['node_modules/shared/index.js', 'packages/a/node_modules/only-a/index.js'],
    writes: ['packages/a/coverage/out.json'],
    source: 'packages/a/src/index.js',
  },
  {
    name: 'Python with .venv and pytest caches',
    gitignore: '.venv\n__pycache__/\n.pytest_cache/\n',
    files: {
      'pyproject.toml': '[project]\nname = "lib"\n',
      'src/lib/__init__.py': 'ANSWER = 42\n',
      'tests/test_lib.py': 'def test_answer():\n    assert True\n',
    },
    ignored: {
      '.venv/lib/python3.12/site-packages/requests/__init__.py': 'x = 1\n',
      '.venv/pyvenv.cfg': 'home = /usr/bin\n',
    },
    link: ['.venv'],
    sees: ['.venv/pyvenv.cfg', '.venv/lib/python3.12/site-packages/requests/__init__.py'],
    writes: [
      '.pytest_cache/v/cache/nodeids',
      'src/lib/__pycache__/__init__.cpython-312.pyc',
      'tests/__pycache__/test_lib.cpython-312.pyc',
    ],
    source: 'src/lib/__init__.py',
  },
  {
    name: 'Rust with a target/ of old builds',
    gitignore: '/target\n',
    files: { 'Cargo.toml': '[package]\nname = "app"\nversion = "0.1.0"\n', 'src/main.rs': 'fn main() {}\n' },
    ignored: { 'target/debug/app': 'old binary\n', 'target/.rustc_info.json': '{}\n' },
    link: [],
    sees: ['Cargo.toml'],
    absent: ['target/debug/app'],
    writes: ['target/debug/deps/app-1234.d', 'target/CACHEDIR.TAG'],
    source: 'src/main.rs',
  },
  {
    name: 'Go with a tracked vendor/',
    gitignore: '/bin/\n',
    files: {
      'go.mod': 'module example.com/app\n',
      'main.go': 'package main\n',
      'vendor/modules.txt': '# example.com/dep v1.0.0\n',
      'vendor/example.com/dep/dep.go': 'package dep\n',
    },
    ignored: { 'bin/app': 'old binary\n' },
    link: ['vendor'],
    sees: ['vendor/example.com/dep/dep.go'],
    absent: ['bin/app'],
    writes: ['bin/app.test'],
    source: 'main.go',
  },
  {
    name: 'PHP with an ignored vendor/ from composer',
    gitignore: '/vendor/\n.phpunit.result.cache\n',
    files: { 'composer.json': '{ "name": "acme/app" }\n', 'src/App.php': '<?php\n' },
    ignored: { 'vendor/autoload.php': '<?php // autoload\n', 'vendor/composer/installed.json': '{}\n' },
    link: ['vendor'],
    sees: ['vendor/autoload.php'],
    writes: ['.phpunit.result.cache'],
    source: 'src/App.php',
  },
];

/** The verify command: reads what it needs, checks nothing of the workspace's builds came along, writes its caches. */
function checkScript(layout: Layout): string {
  return `
const fs = require('fs'), path = require('path');
const fail = (why) => { console.error('layout check: ' + why); process.exit(1); };
for (const p of ${JSON.stringify(layout.sees)}) { try { fs.readFileSync(p); } catch (e) { fail('cannot read ' + p + ': ' + e.code); } }
for (const p of ${JSON.stringify(layout.absent ?? [])}) if (fs.existsSync(p)) fail(p + ' was copied into the scratch');
for (const p of ${JSON.stringify(layout.writes)}) { fs.mkdirSync(path.dirname(p), { recursive: true }); fs.writeFileSync(p, 'cache ' + Date.now() + '\\n'); }
console.log('layout ok');
`;
}

/** The first line of a file's text. */
function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

export function layoutPlan(layout: Layout): string {
  const source = layout.files[layout.source] ?? '';
  return planDoc(`Touch ${layout.name}`, [
    {
      title: 'Edit the source',
      edits: edit(layout.source, firstLine(source), `${firstLine(source)} // edited by aide`),
    },
    {
      title: 'Ignore logs too',
      edits: edit('.gitignore', firstLine(layout.gitignore), `${firstLine(layout.gitignore)}\n*.log`),
    },
  ]);
}

/** A repository laid out as `layout`, committed, with its ignored folders in place. */
export function layoutRepo(t: Cleanup, layout: Layout): string {
  const sandbox = {
    commands: [{ name: 'check', run: ['node', '-e', checkScript(layout)] }],
    flake_reruns: 0,
    ...(layout.link === undefined ? {} : { link: layout.link }),
  };
  const root = gitRepo(t, {
    ...layout.files,
    '.gitignore': layout.gitignore,
    '.aide/.gitignore': 'state/\n',
    '.aide/sandbox.json': JSON.stringify(sandbox, null, 2),
    '.aide/plans/plan.md': layoutPlan(layout),
  });
  writeTree(root, layout.ignored);
  return root;
}

/** `git status --porcelain` of the user's repository: what a user would see changed. */
export function userStatus(root: string): string {
  return execFileSync('git', ['status', '--porcelain'], { cwd: root, env: testEnv(), encoding: 'utf8' });
}

/** Every file of the workspace and its .git, aide's own state left out. */
export function workspacePrint(root: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fingerprint(root)).filter(([path]) => !path.startsWith('.aide/state/')),
  );
}

/**
 * The whole pipeline on one layout, run in this process (runAideInProcess; act.test's first
 * test, act-resume and verify-interrupt run the built bin as a child process): `aide verify`, `aide act --dry-run` (nothing written), then
 * `aide act --yes` (both steps written, nothing else: the ignored folders untouched, no cache
 * of the scratch in the workspace, the user's .git untouched but for the files aide wrote).
 */
export async function exerciseLayout(t: Cleanup, layout: Layout): Promise<void> {
  const root = layoutRepo(t, layout);
  const before = workspacePrint(root);
  const gitBefore = fingerprint(join(root, '.git'));
  const said = (what: string, r: CliResult) =>
    `${layout.name}: ${what} exit ${r.code}\n${r.stdout}\n${r.stderr}`;

  const verify = await runAideInProcess(['verify'], { cwd: root });
  assert.equal(verify.code, 0, said('aide verify', verify));
  assert.deepEqual(workspacePrint(root), before, said('aide verify changed the workspace', verify));

  const dry = await runAideInProcess(['act', '--dry-run'], { cwd: root });
  assert.equal(dry.code, 0, said('aide act --dry-run', dry));
  assert.match(dry.stdout, /2 steps verified \(dry run: nothing written\)/, said('aide act --dry-run', dry));
  assert.deepEqual(workspacePrint(root), before, said('aide act --dry-run changed the workspace', dry));

  const act = await runAideInProcess(['act', '--yes', '--allow-protected'], { cwd: root });
  assert.equal(act.code, 0, said('aide act --yes', act));
  assert.match(act.stdout, /2 steps applied/, said('aide act --yes', act));
  const changed = userStatus(root)
    .split('\n')
    .filter((line) => line !== '' && !line.includes('.aide/'));
  assert.deepEqual(
    changed.sort(),
    [' M .gitignore', ` M ${layout.source}`].sort(),
    said('aide act --yes wrote other files', act),
  );
  const after = workspacePrint(root);
  for (const path of Object.keys(layout.ignored))
    assert.equal(after[path], before[path], `${layout.name}: ${path} is untouched`);
  for (const path of layout.writes)
    assert.equal(
      existsSync(join(root, path)),
      false,
      `${layout.name}: the scratch's ${path} stays out of the workspace`,
    );
  assert.equal(
    readFileSync(join(root, layout.source), 'utf8').split('\n')[0]?.endsWith('// edited by aide'),
    true,
  );
  const gitAfter = fingerprint(join(root, '.git'));
  assert.deepEqual(gitAfter, gitBefore, `${layout.name}: the user's .git is untouched`);
}

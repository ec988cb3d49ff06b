import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runAide } from '../helpers/cli.js';
import { runAideInProcess } from '../helpers/in-process.js';
import { fingerprint, gitRepo, writeTree } from '../helpers/sandbox.js';

const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8');

const NPM_PROJECT = {
  'package.json': JSON.stringify({
    name: 'demo',
    scripts: { test: 'node --test', lint: 'eslint .', typecheck: 'tsc --noEmit', dev: 'vite' },
  }),
  'package-lock.json': '{}\n',
};

test('init in an npm project writes the config, the detected commands and .gitignore', async (t) => {
  const root = gitRepo(t, NPM_PROJECT);
  const result = await runAideInProcess(['init'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    read(root, '.aide/sandbox.json'),
    [
      '{',
      '  "commands": [',
      '    { "name": "typecheck", "run": ["npm", "run", "typecheck"] },',
      '    { "name": "lint", "run": ["npm", "run", "lint"] },',
      '    { "name": "test", "run": ["npm", "test"] }',
      '  ]',
      '}',
      '',
    ].join('\n'),
  );
  assert.deepEqual(JSON.parse(read(root, '.aide/config.json')), {
    model: { endpoint: 'http://127.0.0.1:11434/v1', name: 'qwen2.5-coder:14b', context_tokens: 16384 },
  });
  assert.equal(read(root, '.aide/.gitignore'), 'state/\n');
  assert.match(result.stdout, /created \.aide\/config\.json/);
  assert.match(result.stdout, /created \.aide\/sandbox\.json/);
  assert.match(result.stdout, /Detected 3 verify commands \(package manager: npm, from package-lock\.json\)/);
  assert.match(result.stdout, /typecheck\s+npm run typecheck\s+package\.json script "typecheck"/);
  assert.match(result.stdout, /test\s+npm test/);
});

test('init from a subfolder writes at the top of the work tree', async (t) => {
  const root = gitRepo(t, { ...NPM_PROJECT, 'src/index.js': '' });
  const result = await runAideInProcess(['init', '--cwd', 'src'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  assert.ok(existsSync(join(root, '.aide/config.json')));
  assert.ok(!existsSync(join(root, 'src/.aide')));
});

test('init in an empty repository says no commands were detected and how to add one', async (t) => {
  const root = gitRepo(t);
  const result = await runAideInProcess(['init'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(JSON.parse(read(root, '.aide/sandbox.json')), { commands: [] });
  assert.match(result.stdout, /No verify commands detected/);
  assert.match(result.stdout, /add your checks to "commands" in \.aide\/sandbox\.json/);
});

test('init refuses to replace existing files without --force, and writes nothing', async (t) => {
  const root = gitRepo(t, {
    ...NPM_PROJECT,
    '.aide/config.json': '{ "model": { "name": "mine" } }\n',
    '.aide/notes.txt': 'x',
  });
  const before = fingerprint(root);
  const result = await runAideInProcess(['init'], { cwd: root });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /\.aide\/config\.json already exists; nothing written/);
  assert.match(result.stderr, /aide init --force/);
  assert.deepEqual(fingerprint(root), before);
});

test('init refusal names both files when both exist', async (t) => {
  const root = gitRepo(t, { '.aide/config.json': '{}', '.aide/sandbox.json': '{}' });
  const result = await runAideInProcess(['init', '--json'], { cwd: root });
  assert.equal(result.code, 2);
  const error = (JSON.parse(result.stdout) as { error: { code: string; message: string } }).error;
  assert.equal(error.code, 'config_exists');
  assert.match(error.message, /\.aide\/config\.json and \.aide\/sandbox\.json already exist/);
});

test('init --force replaces the config files and keeps .gitignore as it was', async (t) => {
  const root = gitRepo(t, {
    ...NPM_PROJECT,
    '.aide/config.json': '{ "model": { "name": "mine" } }\n',
    '.aide/sandbox.json': '{}\n',
    '.aide/.gitignore': 'state/\n',
  });
  const result = await runAideInProcess(['init', '--force'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    (JSON.parse(read(root, '.aide/config.json')) as { model: { name: string } }).model.name,
    'qwen2.5-coder:14b',
  );
  assert.equal((JSON.parse(read(root, '.aide/sandbox.json')) as { commands: unknown[] }).commands.length, 3);
  assert.equal(read(root, '.aide/.gitignore'), 'state/\n');
  assert.match(result.stdout, /replaced \.aide\/config\.json/);
  assert.match(result.stdout, /kept \.aide\/\.gitignore/);
});

test('init appends state/ to an existing .aide/.gitignore that lacks it', async (t) => {
  const root = gitRepo(t, { '.aide/.gitignore': 'plans/scratch/' });
  const result = await runAideInProcess(['init'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(read(root, '.aide/.gitignore'), 'plans/scratch/\nstate/\n');
  assert.match(result.stdout, /added "state\/" to \.aide\/\.gitignore/);
});

test('init points $schema at the schemas of an installed aide', async (t) => {
  const root = gitRepo(t);
  writeTree(root, {
    'node_modules/aide/schemas/config.schema.json': '{}',
    'node_modules/aide/schemas/sandbox.schema.json': '{}',
  });
  const result = await runAideInProcess(['init'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    (JSON.parse(read(root, '.aide/config.json')) as { $schema: string }).$schema,
    '../node_modules/aide/schemas/config.schema.json',
  );
  assert.equal(
    (JSON.parse(read(root, '.aide/sandbox.json')) as { $schema: string }).$schema,
    '../node_modules/aide/schemas/sandbox.schema.json',
  );
});

test('init --json reports the files and the commands', async (t) => {
  const root = gitRepo(t, { 'go.mod': 'module demo\n' });
  const result = await runAideInProcess(['init', '--json'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as Record<string, unknown>;
  assert.equal(report['schema'], 'aide.init/1');
  assert.deepEqual(report['files'], [
    { path: '.aide/config.json', action: 'created' },
    { path: '.aide/sandbox.json', action: 'created' },
    { path: '.aide/.gitignore', action: 'created' },
  ]);
  assert.deepEqual(report['commands'], [
    { name: 'go-vet', run: ['go', 'vet', './...'], because: 'go.mod' },
    { name: 'test', run: ['go', 'test', './...'], because: 'go.mod' },
  ]);
});

test('what init writes passes aide config', async (t) => {
  const root = gitRepo(t, NPM_PROJECT);
  assert.equal((await runAideInProcess(['init'], { cwd: root })).code, 0);
  const result = await runAideInProcess(['config'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /commands\[0\]\.run\s+\["npm","run","typecheck"\]\s+\.aide\/sandbox\.json:3/);
});

test('aide --help lists init and config; init --help has an example', async (t) => {
  const cwd = gitRepo(t);
  const help = await runAide(['--help'], { cwd });
  assert.match(help.stdout, /aide init\s+Write \.aide\/config\.json and \.aide\/sandbox\.json/);
  assert.match(help.stdout, /aide config\s+Show every setting in effect/);
  const initHelp = await runAide(['init', '--help'], { cwd });
  assert.equal(initHelp.code, 0);
  assert.match(initHelp.stdout, /--force/);
  assert.match(initHelp.stdout, /aide init --force --json/);
});

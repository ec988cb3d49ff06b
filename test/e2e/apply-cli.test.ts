import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runAide } from '../helpers/cli.js';
import { runAideInProcess } from '../helpers/in-process.js';
import { fingerprint, gitRepo, tempDir, writeTree } from '../helpers/sandbox.js';

const APP = 'export function greet(name: string) {\n  return `Hello, ${name}`;\n}\n';
const REPLY = [
  'Sure, here is the change:',
  '',
  'src/app.ts',
  '```ts',
  '<<<<<<< SEARCH',
  '  return `Hello, ${name}`;',
  '=======',
  '  return `Hello, ${name}!`;',
  '>>>>>>> REPLACE',
  '```',
  '',
].join('\n');

test('applies a reply from a file, prints what changed, leaves .git alone', async (t) => {
  const repo = gitRepo(t, { 'src/app.ts': APP });
  writeFileSync(join(repo, 'reply.md'), REPLY);
  const gitBefore = fingerprint(repo, '.git');
  const result = await runAide(['apply', 'reply.md'], { cwd: repo });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /1 edit changed 1 file/);
  assert.match(result.stdout, /M src\/app\.ts\s+\+1 -1\s+block 1 \(exact\)/);
  assert.equal(readFileSync(join(repo, 'src/app.ts'), 'utf8'), APP.replace('${name}`', '${name}!`'));
  assert.deepEqual(fingerprint(repo, '.git'), gitBefore);
});

test('reads the reply from stdin with - and when no file is given', async (t) => {
  for (const args of [['apply', '-'], ['apply']]) {
    const repo = gitRepo(t, { 'src/app.ts': APP });
    const result = await runAide(args, { cwd: repo, input: REPLY });
    assert.equal(result.code, 0, result.stderr);
    assert.match(readFileSync(join(repo, 'src/app.ts'), 'utf8'), /Hello, \$\{name\}!/);
  }
});

test('--dry-run prints the diff and writes nothing', async (t) => {
  const repo = gitRepo(t, { 'src/app.ts': APP });
  const before = fingerprint(repo);
  const result = await runAideInProcess(['apply', '--dry-run', '-'], { cwd: repo, input: REPLY });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^--- a\/src\/app\.ts$/m);
  assert.match(result.stdout, /^- {2}return `Hello, \$\{name\}`;$/m);
  assert.match(result.stdout, /^\+ {2}return `Hello, \$\{name\}!`;$/m);
  assert.match(result.stdout, /dry run: nothing written/);
  assert.deepEqual(fingerprint(repo), before);
});

test('--json reports files and blocks', async (t) => {
  const repo = gitRepo(t, { 'src/app.ts': APP });
  const result = await runAideInProcess(['apply', '--json', '-'], { cwd: repo, input: REPLY });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as {
    schema: string;
    ok: boolean;
    written: boolean;
    files: Array<{ path: string; action: string; added: number; removed: number }>;
    blocks: Array<{ ok: boolean; strategy: string }>;
  };
  assert.equal(report.schema, 'aide.apply/1');
  assert.deepEqual([report.ok, report.written], [true, true]);
  assert.deepEqual(
    report.files.map((f) => [f.path, f.action, f.added, f.removed]),
    [['src/app.ts', 'modified', 1, 1]],
  );
  assert.deepEqual(
    report.blocks.map((b) => [b.ok, b.strategy]),
    [[true, 'exact']],
  );
});

test('a failing block writes nothing, exits 1 and shows the closest lines', async (t) => {
  const repo = gitRepo(t, { 'src/app.ts': APP, 'src/other.ts': 'export const x = 1;\n' });
  const reply = `src/other.ts\n<<<<<<< SEARCH\nexport const x = 1;\n=======\nexport const x = 2;\n>>>>>>> REPLACE\n\n${REPLY.replace('return `Hello', 'return `Hi')}`;
  const before = fingerprint(repo);
  const result = await runAideInProcess(['apply', '-'], { cwd: repo, input: reply });
  assert.equal(result.code, 1);
  assert.match(result.stdout, /nothing written: 1 of 2 edits failed/);
  assert.match(result.stdout, /block 2 src\/app\.ts \(response line \d+\): the SEARCH text was not found/);
  assert.match(result.stdout, /closest lines in the file \(2-2/);
  assert.match(result.stdout, /block 1 \(exact\) src\/other\.ts: would apply/);
  assert.deepEqual(fingerprint(repo), before);
});

test('--json on failure carries the feedback for the model', async (t) => {
  const repo = gitRepo(t, { 'src/app.ts': APP });
  const result = await runAideInProcess(['apply', '--json', '-'], {
    cwd: repo,
    input: REPLY.replace('return `Hello', 'return `Hi'),
  });
  assert.equal(result.code, 1);
  const report = JSON.parse(result.stdout) as {
    ok: boolean;
    forModel: string;
    blocks: Array<{ failure?: { kind: string } }>;
  };
  assert.equal(report.ok, false);
  assert.equal(report.blocks[0]?.failure?.kind, 'not-found');
  assert.match(report.forModel, /None of your edits were applied/);
  assert.match(report.forModel, /```\n {2}return `Hello, \$\{name\}`;\n```/);
});

test('a reply without edits is a failure', async (t) => {
  const repo = gitRepo(t, { 'src/app.ts': APP });
  const result = await runAideInProcess(['apply', '-'], {
    cwd: repo,
    input: 'Run `npm test`:\n```sh\nnpm test\n```\n',
  });
  assert.equal(result.code, 1);
  assert.match(result.stdout, /no edits found/);
});

test('paths are relative to the repository root, also from a subfolder and with --cwd', async (t) => {
  const repo = gitRepo(t, { 'src/app.ts': APP });
  mkdirSync(join(repo, 'docs'));
  const fromSub = await runAideInProcess(['apply', '-'], { cwd: join(repo, 'docs'), input: REPLY });
  assert.equal(fromSub.code, 0, fromSub.stdout + fromSub.stderr);
  const other = gitRepo(t, { 'src/app.ts': APP });
  const outside = tempDir(t);
  const withCwd = await runAideInProcess(['apply', '--cwd', other, '-'], { cwd: outside, input: REPLY });
  assert.equal(withCwd.code, 0, withCwd.stdout + withCwd.stderr);
  assert.match(readFileSync(join(other, 'src/app.ts'), 'utf8'), /Hello, \$\{name\}!/);
});

test('works outside a git repository, in the current directory', async (t) => {
  const dir = tempDir(t);
  writeTree(dir, { 'src/app.ts': APP });
  const result = await runAideInProcess(['apply', '-'], { cwd: dir, input: REPLY });
  assert.equal(result.code, 0, result.stderr);
  assert.match(readFileSync(join(dir, 'src/app.ts'), 'utf8'), /Hello, \$\{name\}!/);
});

test('an executable file keeps its mode', async (t) => {
  const repo = gitRepo(t, { 'run.sh': '#!/bin/sh\necho one\n' });
  chmodSync(join(repo, 'run.sh'), 0o755);
  const reply = 'run.sh\n```sh\n<<<<<<< SEARCH\necho one\n=======\necho two\n>>>>>>> REPLACE\n```\n';
  const result = await runAideInProcess(['apply', '-'], { cwd: repo, input: reply });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(statSync(join(repo, 'run.sh')).mode & 0o777, 0o755);
  assert.equal(readFileSync(join(repo, 'run.sh'), 'utf8'), '#!/bin/sh\necho two\n');
});

test('a missing reply file is a usage error', async (t) => {
  const repo = gitRepo(t);
  const result = await runAideInProcess(['apply', 'nope.md'], { cwd: repo });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /cannot read nope\.md: no such file/);
});

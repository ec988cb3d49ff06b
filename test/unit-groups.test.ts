// scripts/run-tests.mjs runs the unit test files several to a process. That is sound only while
// no unit file does something that would reach the other files of its process, and while a
// failure still names the file it is in.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDir, writeTree } from './helpers/sandbox.js';

/** dist/test/unit-groups.test.js → the repository root. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function unitTestFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return unitTestFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function withoutTestContext(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  delete copy['NODE_TEST_CONTEXT'];
  return copy;
}

test('no unit test file has a top-level hook or changes the process for the files beside it', () => {
  const files = unitTestFiles(join(ROOT, 'src'));
  assert.ok(files.length > 100, `found only ${files.length} unit test files`);
  // A top-level before/after hook would run for every test of the group; a changed working
  // folder or umask would hold for the files run after it.
  const reaching = /^(?:before|after|beforeEach|afterEach)\s*\(|process\.chdir\(|process\.umask\(\s*[^)\s]/m;
  const offenders = files.filter((file) => reaching.test(readFileSync(file, 'utf8')));
  assert.deepEqual(
    offenders.map((file) => file.slice(ROOT.length)),
    [],
    'scope the hook inside a describe(), or restore the process state in a finally',
  );
});

test('grouped unit files: every test runs, and a failure names its own file and line', (t) => {
  const cwd = tempDir(t);
  const files: Record<string, string> = { 'package.json': '{ "type": "module" }\n' };
  // Each test writes down the process it ran in.
  const pid = `appendFileSync(new URL('../../pids.txt', import.meta.url), process.pid + '\\n');`;
  for (let i = 0; i < 9; i++) {
    files[`dist/src/m${i}.test.js`] =
      `import { appendFileSync } from 'node:fs';\nimport { test } from 'node:test';\n` +
      (i === 4 ? `test('m4 fails', () => {\n  throw new Error('planted');\n});\n` : '') +
      `test('m${i} passes', () => {\n  ${pid}\n});\n`;
  }
  files['dist/test/e2e/alone.test.js'] = `import { test } from 'node:test';\ntest('e2e passes', () => {});\n`;
  writeTree(cwd, files);
  const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'run-tests.mjs')], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
    // Without the variable node:test sets in its children, or the inner runner would skip its files.
    env: { ...withoutTestContext(process.env), AIDE_TEST_TMPDIR: cwd },
  });
  assert.equal(run.status, 1, run.stdout + run.stderr);
  assert.match(run.stdout, /^# tests 11$/m);
  assert.match(run.stdout, /^# pass 10$/m);
  assert.match(run.stdout, /^# fail 1$/m);
  // TAP names the failing test's own file and line, not the group's.
  assert.match(run.stdout, /not ok \d+ - m4 fails[\s\S]*?location: '[^']*dist\/src\/m4\.test\.js:3:1'/);
  // Nine unit files, eight to a group at most: two processes ran them.
  const pids = readFileSync(join(cwd, 'pids.txt'), 'utf8').trim().split('\n');
  assert.equal(pids.length, 9);
  assert.equal(new Set(pids).size, 2);
  // The slowest-files table counts per member file: the nine unit files and the e2e one.
  assert.match(run.stdout, /; 10 files, /);
  // The groups are files of the run's own temp folder, removed at its end.
  assert.deepEqual(
    readdirSync(cwd).filter((name) => name.startsWith('aide-tests-')),
    [],
  );
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runAide } from '../helpers/cli.js';
import { tempDir } from '../helpers/sandbox.js';

test('--help lists the commands and exits 0', async (t) => {
  const cwd = tempDir(t);
  const result = await runAide(['--help'], { cwd });
  assert.equal(result.code, 0);
  assert.match(result.stdout, /aide apply \[file\]/);
  assert.match(result.stdout, /--json/);
  assert.match(result.stdout, /--cwd/);
});

test('--version prints the package version', async (t) => {
  const cwd = tempDir(t);
  const result = await runAide(['--version'], { cwd });
  assert.equal(result.code, 0);
  assert.match(result.stdout.trim(), /^\d+\.\d+\.\d+/);
});

test('an unknown command is a usage error (exit 2) with a hint', async (t) => {
  const cwd = tempDir(t);
  const result = await runAide(['aply'], { cwd });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /unknown command "aply"/i);
  assert.match(result.stderr, /did you mean "apply"/i);
});

test('an unknown option is a usage error (exit 2)', async (t) => {
  const cwd = tempDir(t);
  const result = await runAide(['apply', '--dryrun'], { cwd });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /Unknown argument: dryrun/);
});

test('an option given without its value is a usage error (exit 2) naming the option, not an internal error', async (t) => {
  const cwd = tempDir(t);
  for (const args of [['act', '--junit'], ['act', '--patch-out'], ['verify', '--junit'], ['status', '--cwd']]) {
    const result = await runAide(args, { cwd });
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, new RegExp(`^aide: Not enough arguments following: ${args[1]?.slice(2) ?? ''}\\n {2}hint: Run .aide --help`), args.join(' '));
  }
});

test('no command at all is a usage error (exit 2)', async (t) => {
  const cwd = tempDir(t);
  const result = await runAide([], { cwd });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /Name a command/);
});

test('--json errors are JSON on stdout', async (t) => {
  const cwd = tempDir(t);
  const result = await runAide(['apply', 'missing.md', '--json'], { cwd });
  assert.equal(result.code, 2);
  const parsed = JSON.parse(result.stdout) as { ok: boolean; error: { code: string; message: string } };
  assert.equal(parsed.ok, false);
  assert.equal(parsed.error.code, 'input_unreadable');
  assert.match(parsed.error.message, /missing\.md/);
});

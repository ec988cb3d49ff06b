import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runAide } from '../helpers/cli.js';
import { gitRepo, tempDir } from '../helpers/sandbox.js';

test('--help lists the commands and exits 0', async (t) => {
  const cwd = tempDir(t);
  const result = await runAide(['--help'], { cwd });
  assert.equal(result.code, 0);
  assert.match(result.stdout, /aide apply \[file\]/);
  assert.match(result.stdout, /--json/);
  assert.match(result.stdout, /--cwd/);
  // Every exit code of the contract, as the README lists them.
  for (const code of [
    '0 ok',
    '1 failed',
    '2 usage or',
    '3 model unavailable',
    '4 approval needed',
    '5 aborted',
    '6 workspace conflict',
    '70 internal error',
    '130 interrupted',
  ]) {
    assert.ok(result.stdout.replace(/\s+/g, ' ').includes(code), `--help lists exit code ${code}`);
  }
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
  assert.match(
    result.stderr,
    /^aide: `aide apply`: unknown option --dryrun \(did you mean --dry-run\?\)\n {2}hint: Usage: aide apply \[file\] \[options\]\. `aide apply --help` lists its options/,
  );
});

test("usage errors say what is wrong and what to type, never yargs' or Node's raw text", async (t) => {
  const sandbox = JSON.stringify({ commands: [{ name: 'check', run: ['node', '-e', '0'] }] });
  const cwd = gitRepo(t, { 'a.txt': 'a\n', 'folder/b.txt': 'b\n', '.aide/sandbox.json': sandbox });
  const cases: Array<[string[], RegExp]> = [
    [
      ['restore'],
      /^aide: `aide restore` needs a checkpoint id\n {2}hint: `aide checkpoints` lists them.*Usage: aide restore <id> \[options\]/,
    ],
    [['checkpoints', 'show'], /^aide: `aide checkpoints show` needs a checkpoint id\n/],
    [
      ['checkpoints', 'diff'],
      /^aide: `aide checkpoints diff` needs a checkpoint id\n.*Usage: aide checkpoints diff <id> \[id2\]/,
    ],
    [['restore', 'a', 'b'], /^aide: `aide restore`: unexpected argument "b"\n/],
    [['doctor', 'one', 'two'], /^aide: `aide doctor`: unexpected arguments "one", "two"\n/],
    [
      ['checkpoints', '--sesion', 'x'],
      /^aide: `aide checkpoints`: unknown option --sesion \(did you mean --session\?\)/,
    ],
    [['act', '-q'], /^aide: `aide act`: unknown option -q\n/],
    [['checkpoints', '--limit', 'x'], /^aide: --limit needs a whole number above 0, e\.g\. --limit 50\n/],
    [['checkpoints', 'prune', '--older-than', '0'], /^aide: --older-than needs a number above 0/],
    [
      ['act', 'nope.md'],
      /^aide: cannot read the plan nope\.md: no such file\n {2}hint: Give the path of a plan document/,
    ],
    [['act', 'folder'], /^aide: cannot read the plan folder: it is a folder, not a file\n/],
    [['apply', 'folder'], /^aide: cannot read folder: it is a folder, not a file\n/],
    [
      ['verify', '--junit', 'folder'],
      /aide: cannot write the JUnit report to folder: it is a folder, not a file\n/,
    ],
    [['checkpoints', 'save', '-m'], /^aide: `aide checkpoints save`: -m needs a value\n/],
    [
      ['status', '--cwd', 'a.txt'],
      /^aide: --cwd a\.txt is a file, not a folder\n {2}hint: Give --cwd the folder to run in/,
    ],
  ];
  for (const [args, expected] of cases) {
    const result = await runAide(args, { cwd });
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, expected, args.join(' '));
    assert.doesNotMatch(
      result.stderr,
      /non-option|Unknown argument|ENOENT|EISDIR|Invalid input|internal error/,
      args.join(' '),
    );
  }
});

test('an option given without its value is a usage error (exit 2) naming the option, not an internal error', async (t) => {
  const cwd = tempDir(t);
  for (const args of [
    ['act', '--junit'],
    ['act', '--patch-out'],
    ['verify', '--junit'],
    ['status', '--cwd'],
  ]) {
    const result = await runAide(args, { cwd });
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(
      result.stderr,
      new RegExp(
        `^aide: \`aide ${args[0] ?? ''}\`: ${args[1] ?? ''} needs a value\\n {2}hint: Write it after the option`,
      ),
      args.join(' '),
    );
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

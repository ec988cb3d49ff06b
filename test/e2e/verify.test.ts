/**
 * `aide verify` end to end: real commands in a real scratch copy, the verdict, logs, reruns,
 * timeouts, the source trees (working tree, --staged, --ref) and the user's files untouched.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runAide } from '../helpers/cli.js';
import { fingerprint, git, gitRepo, tempDir, testEnv, writeTree } from '../helpers/sandbox.js';
import { processesMatching, uniqueSeconds, verifyJson, verifyRepo, withoutState } from '../helpers/verify.js';

const NODE_TESTS = `import { test } from 'node:test';
test('one', () => {});
test('two', () => {});
test('three', () => {});
`;

test('all commands pass: exit 0, tests counted, one log per command', async (t) => {
  const root = verifyRepo(
    t,
    [
      { name: 'lint', run: ['node', '-e', 'console.log("lint clean")'] },
      { name: 'test', run: ['node', '--test', '--test-reporter=tap', 'unit.test.mjs'] },
    ],
    {},
    { 'unit.test.mjs': NODE_TESTS },
  );
  const { result, report } = await verifyJson(root);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(report.schema, 'aide.verify/1');
  assert.equal(report.verdict, 'passed');
  assert.equal(report.summary, 'verified: 2 commands, 3 tests passed');
  assert.deepEqual(
    report.commands.map((c) => [c.name, c.status]),
    [
      ['lint', 'passed'],
      ['test', 'passed'],
    ],
  );
  assert.deepEqual(report.commands[1]?.tests, {
    runner: 'node:test',
    passed: 3,
    failed: 0,
    skipped: 0,
    total: 3,
  });
  const log = report.commands[0]?.logPath ?? '';
  assert.ok(log.startsWith(join(root, '.aide/state/sessions', report.session, 'logs')), log);
  assert.match(readFileSync(log, 'utf8'), /lint clean/);
});

test('a failing command stops the run: exit 1, its tail and log shown, later commands not run', async (t) => {
  const root = verifyRepo(
    t,
    [
      { name: 'build', run: 'echo building; echo "error TS2304: cannot find name x" >&2; exit 3' },
      { name: 'test', run: ['node', '-e', 'require("fs").writeFileSync("/dev/null", "")'] },
    ],
    { flake_reruns: 0 },
  );
  const text = await runAide(['verify'], { cwd: root });
  assert.equal(text.code, 1, text.stderr);
  assert.match(text.stdout, /✗ build exited 3/);
  assert.match(text.stdout, /│ error TS2304: cannot find name x/);
  assert.match(text.stdout, /log: \.aide\/state\/sessions\/verify-[\w-]+\/logs\/01-build\.log/);
  assert.match(text.stdout, /- test not run/);
  assert.match(text.stdout, /failed: build exited 3\n$/);
  const { report } = await verifyJson(root);
  assert.deepEqual(
    report.commands.map((c) => c.status),
    ['failed', 'not_run'],
  );
  assert.equal(report.commands[0]?.exitCode, 3);
  assert.match(report.commands[0]?.tail ?? '', /building\nerror TS2304/);
});

test('flake guard: a command that fails once then passes is flaky, both runs recorded', async (t) => {
  // The command's own TMPDIR lasts for the session: the second run sees what the first left.
  const flag = '"$TMPDIR/ran-once"';
  const root = verifyRepo(t, [
    {
      name: 'test',
      run: `if [ -e ${flag} ]; then echo second; exit 0; else touch ${flag}; echo first; exit 1; fi`,
    },
  ]);
  const { result, report } = await verifyJson(root);
  assert.equal(result.code, 0, result.stderr);
  const command = report.commands[0];
  assert.equal(command?.status, 'flaky');
  assert.equal(command?.flaky, true);
  assert.deepEqual(
    command?.runs.map((r) => r.exitCode),
    [1, 0],
  );
  assert.notEqual(command?.runs[0]?.logPath, command?.runs[1]?.logPath);
  assert.match(readFileSync(command?.runs[0]?.logPath ?? '', 'utf8'), /first/);
  assert.match(report.summary, /^verified: 1 command \(flaky: test\)/);
});

test('a command that fails every run fails, with every run recorded', async (t) => {
  const root = verifyRepo(t, [{ name: 'test', run: 'echo nope; exit 2' }], { flake_reruns: 2 });
  const { result, report } = await verifyJson(root);
  assert.equal(result.code, 1);
  assert.deepEqual(
    report.commands[0]?.runs.map((r) => r.attempt),
    [1, 2, 3],
  );
  assert.equal(report.summary, 'failed: test exited 2, in all 3 runs');
});

test('timeout: a process tree that ignores TERM is killed, nothing survives', async (t) => {
  const marker = uniqueSeconds();
  const root = verifyRepo(
    t,
    [
      {
        name: 'hang',
        run: `trap '' TERM; (trap '' TERM; sleep ${marker}) & sleep ${marker}; wait`,
        timeout_ms: 800,
      },
    ],
    { flake_reruns: 0 },
  );
  const started = Date.now();
  const { result, report } = await verifyJson(root);
  assert.equal(result.code, 1);
  assert.ok(Date.now() - started < 15_000, 'aide returned long after the timeout');
  assert.equal(report.commands[0]?.status, 'timed_out');
  assert.match(report.summary, /^failed: hang timed out after 0\.8 s/);
  assert.deepEqual(processesMatching(`sleep ${marker}`), []);
});

test('a daemon that keeps the output pipe open neither hangs aide nor survives it', async (t) => {
  const marker = uniqueSeconds();
  const root = verifyRepo(t, [
    { name: 'daemon', run: `(sleep ${marker} &) ; setsid sleep ${marker} & echo started` },
  ]);
  const started = Date.now();
  const { result, report } = await verifyJson(root);
  assert.equal(result.code, 0, result.stderr);
  assert.ok(Date.now() - started < 15_000);
  assert.match(report.commands[0]?.tail ?? '', /started/);
  assert.deepEqual(processesMatching(`sleep ${marker}`), []);
});

test('100 MB of output: the log is capped with a marker and the tail is the real end', async (t) => {
  const root = verifyRepo(
    t,
    [{ name: 'loud', run: `yes 'a line of output that repeats' | head -c 100000000; echo; echo THE-END` }],
    { output_log_bytes: 1048576 },
  );
  const { result, report } = await verifyJson(root);
  assert.equal(result.code, 0, result.stderr);
  const command = report.commands[0];
  assert.equal(command?.runs[0]?.truncated, true);
  const log = command?.logPath ?? '';
  assert.ok(statSync(log).size < 1048576 + 4096, `log is ${statSync(log).size} bytes`);
  assert.match(readFileSync(log, 'utf8'), /truncated/);
  assert.match(command?.tail ?? '', /THE-END\n?$/);
});

test('the working tree is verified as it is, uncommitted and untracked files included', async (t) => {
  const root = verifyRepo(
    t,
    [{ name: 'check', run: 'test "$(cat value.txt)" = edited && test -f new.txt' }],
    { flake_reruns: 0 },
    { 'value.txt': 'committed' },
  );
  writeTree(root, { 'value.txt': 'edited', 'new.txt': 'untracked' });
  const { result } = await verifyJson(root);
  assert.equal(result.code, 0, result.stderr);
});

test('--staged verifies exactly the index; unstaged edits stay byte for byte, the index untouched', async (t) => {
  const root = verifyRepo(
    t,
    [{ name: 'check', run: 'test "$(cat value.txt)" = staged' }],
    { flake_reruns: 0 },
    { 'value.txt': 'committed' },
  );
  writeTree(root, { 'value.txt': 'staged' });
  git(root, ['add', 'value.txt']);
  writeTree(root, { 'value.txt': 'unstaged' });
  const before = fingerprint(root, '.git');
  const staged = await verifyJson(root, ['--staged']);
  assert.equal(staged.result.code, 0, staged.result.stderr);
  assert.equal(staged.report.source.kind, 'staged');
  assert.equal(readFileSync(join(root, 'value.txt'), 'utf8'), 'unstaged');
  assert.deepEqual(fingerprint(root, '.git'), before);
  const worktree = await verifyJson(root);
  assert.equal(worktree.result.code, 1, 'the working tree holds "unstaged", so the same check fails there');
});

test('--staged inside a git hook verifies the index git names in GIT_INDEX_FILE', async (t) => {
  const root = verifyRepo(
    t,
    [{ name: 'check', run: 'test "$(cat value.txt)" = partial-commit' }],
    { flake_reruns: 0 },
    { 'value.txt': 'committed' },
  );
  // `git commit <paths>` hands hooks a temporary index; here one built the same way.
  writeTree(root, { 'value.txt': 'partial-commit' });
  execFileSync('git', ['add', 'value.txt'], {
    cwd: root,
    env: { ...testEnv(), GIT_INDEX_FILE: join(root, '.git/alt-index') },
  });
  writeTree(root, { 'value.txt': 'unstaged' });
  const inHook = await verifyJson(root, ['--staged'], { GIT_INDEX_FILE: '.git/alt-index' });
  assert.equal(inHook.result.code, 0, inHook.result.stderr);
  const plain = await verifyJson(root, ['--staged']);
  assert.equal(plain.result.code, 1, 'the default index still holds "committed"');
});

test('--ref verifies a commit; an unknown ref is a usage error', async (t) => {
  const root = verifyRepo(
    t,
    [{ name: 'check', run: 'test "$(cat value.txt)" = one' }],
    { flake_reruns: 0 },
    { 'value.txt': 'one' },
  );
  writeTree(root, { 'value.txt': 'two' });
  git(root, ['commit', '-qam', 'two']);
  const { result, report } = await verifyJson(root, ['--ref', 'HEAD~1']);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(report.source.commit, git(root, ['rev-parse', 'HEAD~1']).trim());
  const head = await verifyJson(root, ['--ref', 'HEAD']);
  assert.equal(head.result.code, 1);
  const missing = await runAide(['verify', '--ref', 'no-such-branch'], { cwd: root });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /--ref no-such-branch: no such commit/);
});

test('--commands runs a subset in the configured order; an unknown name is a usage error', async (t) => {
  const root = verifyRepo(t, [
    { name: 'lint', run: 'echo lint' },
    { name: 'types', run: 'echo types' },
    { name: 'test', run: 'echo test' },
  ]);
  const { result, report } = await verifyJson(root, ['--commands', 'test,lint']);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(
    report.commands.map((c) => c.name),
    ['lint', 'test'],
  );
  const typo = await runAide(['verify', '--commands', 'tset'], { cwd: root });
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /no command named "tset" \(did you mean "test"\?\)/);
});

test('an optional command is skipped unless --commands names it', async (t) => {
  const root = verifyRepo(t, [
    { name: 'lint', run: 'echo lint' },
    { name: 'e2e', run: 'echo e2e', optional: true },
    { name: 'test', run: 'echo test' },
  ]);
  const plain = await runAide(['verify'], { cwd: root });
  assert.equal(plain.code, 0, plain.stderr);
  assert.match(plain.stdout, /^aide verify: .*, 2 commands$/m);
  assert.doesNotMatch(plain.stdout, /→ e2e/);
  assert.match(plain.stdout, /optional, not run: e2e \(name them with --commands to run them\)/);
  const { result, report } = await verifyJson(root, ['--commands', 'test,e2e']);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(
    report.commands.map((c) => [c.name, c.status]),
    [
      ['e2e', 'passed'],
      ['test', 'passed'],
    ],
  );
});

test('no commands anywhere: exit 2 naming the file and what to write', async (t) => {
  const root = gitRepo(t, { 'README.md': 'nothing to run\n' });
  const result = await runAide(['verify'], { cwd: root });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /no verify commands: \.aide\/sandbox\.json lists none/);
  assert.match(result.stderr, /"commands"/);
});

test('without sandbox commands, the detected ones run and the report says so', async (t) => {
  const root = gitRepo(t, {
    'package.json': JSON.stringify({
      name: 'x',
      version: '1.0.0',
      scripts: { test: 'node -e "console.log(42)"' },
    }),
  });
  const { result, report } = await verifyJson(root);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(report.commandSource, 'detected');
  assert.deepEqual(
    report.commands.map((c) => c.name),
    ['test'],
  );
});

test('an invalid sandbox.json is a configuration error naming the file and field', async (t) => {
  const root = gitRepo(t, {
    '.aide/sandbox.json': '{ "commands": [{ "name": "test", "run": "npm test", "timeout": 5 }] }',
  });
  const result = await runAide(['verify'], { cwd: root });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /\.aide\/sandbox\.json:1:\d+/);
  assert.match(result.stderr, /timeout/);
});

test('--junit writes one test case per command', async (t) => {
  const root = verifyRepo(
    t,
    [
      { name: 'ok', run: 'echo fine' },
      { name: 'bad', run: 'echo "broken <here> & there"; exit 1' },
    ],
    { flake_reruns: 0 },
  );
  const out = join(tempDir(t), 'verify.xml');
  const result = await runAide(['verify', '--junit', out], { cwd: root });
  assert.equal(result.code, 1);
  const xml = readFileSync(out, 'utf8');
  assert.match(xml, /^<\?xml version="1\.0" encoding="UTF-8"\?>/);
  assert.match(xml, /<testcase[^>]*name="ok"/);
  assert.match(xml, /<testcase[^>]*name="bad"[\s\S]*<failure/);
  assert.match(xml, /broken &lt;here&gt; &amp; there/);
});

test("the user's files and .git are untouched by a verify run", async (t) => {
  const root = verifyRepo(
    t,
    [{ name: 'mess', run: 'echo junk > junk.txt; rm -f value.txt; git add -A >/dev/null 2>&1; echo done' }],
    {},
    { 'value.txt': 'keep me' },
  );
  writeTree(root, { 'value.txt': 'keep me too' });
  const before = fingerprint(root);
  const { result } = await verifyJson(root);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(withoutState(fingerprint(root)), withoutState(before));
  assert.equal(existsSync(join(root, 'junk.txt')), false);
});

test('a command that cannot start is reported, not crashed on', async (t) => {
  const root = verifyRepo(t, [{ name: 'ghost', run: ['definitely-not-a-program-aide', '--version'] }], {
    flake_reruns: 0,
  });
  const { result, report } = await verifyJson(root);
  assert.equal(result.code, 1);
  // Spawned directly it cannot start; through the isolation wrapper's shell it exits 127.
  assert.match(report.summary, /^failed: ghost (could not start|exited 127)/);
  assert.match(`${report.commands[0]?.tail ?? ''} ${report.summary}`, /not found|ENOENT/);
});

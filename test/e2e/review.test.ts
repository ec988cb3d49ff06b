/**
 * `aide review` in real git repositories: each static check failing on a staged change and
 * passing on a clean one, a secret never shown whole, verify run on the staged content only,
 * the user's unstaged, untracked and partially staged files, status and index byte-identical
 * after, a branch range, AIDE_SKIP and --skip.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FAKE_TOKENS } from '../../src/core/security/fake-tokens.js';
import type { CliResult } from '../helpers/cli.js';
import { runAideInProcess } from '../helpers/in-process.js';
import { fingerprint, git, leaveMergeConflict, tempDir, writeTree } from '../helpers/sandbox.js';
import { verifyRepo } from '../helpers/verify.js';

/** Fails when a.js holds BROKEN: the verify command reads the scratch's copy. */
const CHECK = {
  name: 'check',
  run: "node -e \"process.exit(require('fs').readFileSync('a.js','utf8').includes('BROKEN')?1:0)\"",
};

function repo(t: Parameters<typeof verifyRepo>[0]): string {
  return verifyRepo(t, [CHECK], {}, { 'a.js': 'export const a = 1;\n', 'b.txt': 'one\ntwo\nthree\n' });
}

// In this process (the built CLI's runCli): hooks.test.ts runs the same review as a real process
// under real `git commit`s.
const review = (root: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
  runAideInProcess(['review', ...args], { cwd: root, env });

function lineOf(stdout: string, check: string): string {
  const line = stdout.split('\n').find((l) => l.startsWith(`${check}.`));
  assert.ok(line !== undefined, `no line for ${check}:\n${stdout}`);
  return line;
}

function stage(root: string, files: Record<string, string>): void {
  writeTree(root, files);
  git(root, ['add', ...Object.keys(files)]);
}

test('a clean staged change passes every check, one 80-column line each; model is Skipped (none configured)', async (t) => {
  const root = repo(t);
  stage(root, { 'a.js': 'export const a = 2;\n' });
  const result = await review(root, ['--staged']);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  for (const check of [
    'invisible-unicode',
    'conflict-markers',
    'protected-paths',
    'secrets',
    'large-files',
    'verify',
  ]) {
    const line = lineOf(result.stdout, check);
    assert.match(line, /\.Passed$/);
    assert.equal(line.length, 80);
  }
  assert.match(lineOf(result.stdout, 'model'), /\.Skipped \(no model configured\)$/);
});

test('a staged secret fails, and the token is masked in stdout, stderr and --json', async (t) => {
  for (const [id, token] of FAKE_TOKENS.filter((_, i) => i % 4 === 0)) {
    const root = repo(t);
    stage(root, { 'config.js': `// settings\nexport const key = "${token}";\n` });
    // verify is not what this test is about: skipped, to keep two dozen runs fast.
    const text = await review(root, ['--staged'], { AIDE_SKIP: 'verify' });
    const json = await review(root, ['--staged', '--json'], { AIDE_SKIP: 'verify' });
    assert.equal(text.code, 1, id);
    assert.equal(json.code, 1, id);
    assert.match(lineOf(text.stdout, 'secrets'), /\.Failed$/);
    assert.match(text.stdout, new RegExp(`config\\.js:2: error: .*\\(${id}\\)`));
    for (const out of [text.stdout, text.stderr, json.stdout, json.stderr]) {
      assert.ok(!out.includes(token), `${id}: the token was printed`);
      assert.ok(!out.includes(token.slice(6, 16)), `${id}: part of the token was printed`);
    }
    const report = JSON.parse(json.stdout) as {
      verdict: string;
      checks: Array<{ name: string; findings: unknown[] }>;
    };
    assert.equal(report.verdict, 'failed');
    assert.ok((report.checks.find((c) => c.name === 'secrets')?.findings.length ?? 0) >= 1);
  }
});

test('a secret already committed does not fail an unrelated change; the allow comment silences one', async (t) => {
  const [, token] = FAKE_TOKENS[0] ?? ['', ''];
  const root = verifyRepo(t, [CHECK], {}, { 'a.js': 'x\n', 'old.js': `"${token}"\n` });
  stage(root, { 'a.js': 'y\n', 'new.js': `"${token}" // aide:allow-secret\n` });
  const result = await review(root, ['--staged']);
  assert.equal(result.code, 0, result.stdout);
});

test('a staged conflict marker fails with file and line', async (t) => {
  const root = repo(t);
  stage(root, { 'b.txt': 'one\n<<<<<<< HEAD\ntwo\n=======\n2\n>>>>>>> topic\nthree\n' });
  const result = await review(root, ['--staged']);
  assert.equal(result.code, 1);
  assert.match(lineOf(result.stdout, 'conflict-markers'), /\.Failed$/);
  assert.match(result.stdout, /b\.txt:2: error: merge conflict marker/);
  assert.match(result.stdout, /b\.txt:6: error/);
});

test('a staged invisible character fails, named', async (t) => {
  const root = repo(t);
  stage(root, { 'a.js': 'export const a = 1;\nconst admin\u202E = false;\n' });
  const result = await review(root, ['--staged']);
  assert.equal(result.code, 1);
  assert.match(lineOf(result.stdout, 'invisible-unicode'), /\.Failed$/);
  assert.match(result.stdout, /a\.js:2: error: U\+202E RIGHT-TO-LEFT OVERRIDE/);
});

test('a .gitattributes that marks files binary or -diff hides none of their added lines from the checks, staged or in a range', async (t) => {
  const token = FAKE_TOKENS.find(([id]) => id.startsWith('github'))?.[1] ?? '';
  const body = `one\n<<<<<<< HEAD\nconst key = "${token}";\nconst admin\u202E = false;\n`;
  for (const attributes of ['*.txt -diff\n', '*.txt binary\n', '* diff=hidden\n[attr]hidden -diff\n']) {
    const root = repo(t);
    stage(root, { '.gitattributes': attributes, 'b.txt': body });
    const staged = await review(root, ['--staged'], { AIDE_SKIP: 'verify' });
    assert.equal(staged.code, 1, `${attributes}${staged.stdout}`);
    for (const check of ['conflict-markers', 'secrets', 'invisible-unicode'])
      assert.match(lineOf(staged.stdout, check), /\.Failed$/, `${attributes}${check}`);
    assert.match(staged.stdout, /b\.txt:2: error: merge conflict marker/);
    git(root, ['commit', '-q', '-m', 'attributes']);
    const range = await review(root, ['--from-ref', 'HEAD~1', '--to-ref', 'HEAD'], { AIDE_SKIP: 'verify' });
    assert.equal(range.code, 1, `${attributes}${range.stdout}`);
    assert.match(lineOf(range.stdout, 'secrets'), /\.Failed$/);
  }
});

test('a large staged file fails; an LFS pointer does not', async (t) => {
  const root = repo(t);
  stage(root, {
    'big.bin': 'x'.repeat(600 * 1024),
    'lfs.bin': 'version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 9000000\n',
  });
  const result = await review(root, ['--staged', '--json']);
  assert.equal(result.code, 1);
  const report = JSON.parse(result.stdout) as {
    checks: Array<{ name: string; findings: Array<{ file: string }> }>;
  };
  assert.deepEqual(
    report.checks.find((c) => c.name === 'large-files')?.findings.map((f) => f.file),
    ['big.bin'],
  );
});

/** Everything of the user's: work-tree files (aide's state aside), .git byte for byte, and git status. */
function userState(root: string): {
  files: Record<string, string>;
  git: Record<string, string>;
  status: string;
} {
  const files = Object.fromEntries(
    Object.entries(fingerprint(root)).filter(
      ([path]) => !path.startsWith('.git/') && !path.startsWith('.aide/state/'),
    ),
  );
  return { files, git: fingerprint(root, '.git'), status: git(root, ['status', '--porcelain']) };
}

test('verify runs on the staged content only; unstaged, untracked and partially staged files, status and .git byte-identical', async (t) => {
  const root = repo(t);
  // Partially staged: b.txt's first line staged, its last line changed only in the work tree.
  stage(root, { 'b.txt': 'ONE\ntwo\nthree\n' });
  writeTree(root, {
    'b.txt': 'ONE\ntwo\nTHREE unstaged\n',
    'a.js': 'BROKEN unstaged edit\n',
    'notes.txt': 'untracked\n',
  });
  const before = userState(root);
  assert.match(before.status, /^MM b\.txt$/m);
  assert.match(before.status, /^\?\? notes\.txt$/m);
  const passing = await review(root, ['--staged']);
  assert.equal(passing.code, 0, passing.stdout + passing.stderr);
  assert.match(lineOf(passing.stdout, 'verify'), /\.Passed$/);
  assert.deepEqual(userState(root), before);
  assert.ok(readFileSync(join(root, '.git', 'index')).length > 0);

  // The same broken edit staged fails verify, with the command's name under it.
  git(root, ['add', 'a.js']);
  const staged = userState(root);
  const failing = await review(root, ['--staged']);
  assert.equal(failing.code, 1, failing.stdout);
  assert.match(lineOf(failing.stdout, 'verify'), /\.Failed$/);
  assert.match(failing.stdout, /check: failed/);
  assert.deepEqual(userState(root), staged);
});

test('inside a hook, the index git names in GIT_INDEX_FILE is the one reviewed (git commit <path>)', async (t) => {
  const root = repo(t);
  stage(root, { 'a.js': 'export const a = 2;\n' });
  // What `git commit b.txt` does: a temporary index holding only that path's new content.
  writeTree(root, { 'b.txt': '<<<<<<< HEAD\n' });
  const temporary = join(root, '.git', 'next-index');
  git(root, ['read-tree', '--index-output=.git/next-index', 'HEAD']);
  execFileSync('git', ['add', 'b.txt'], { cwd: root, env: { ...process.env, GIT_INDEX_FILE: temporary } });
  const hook = await review(root, ['--staged'], { GIT_INDEX_FILE: temporary, AIDE_SKIP: 'verify' });
  assert.equal(hook.code, 1, hook.stdout + hook.stderr);
  assert.match(hook.stdout, /b\.txt:1: error: merge conflict marker/);
  const plain = await review(root, ['--staged'], { AIDE_SKIP: 'verify' });
  assert.equal(plain.code, 0, plain.stdout);
});

test('--from-ref/--to-ref reviews a branch range, checked out only in the scratch', async (t) => {
  const root = repo(t);
  git(root, ['checkout', '-q', '-b', 'topic']);
  stage(root, { 'a.js': 'BROKEN\n', 'c.txt': 'x\u200By\n' });
  git(root, ['commit', '-q', '-m', 'topic']);
  git(root, ['checkout', '-q', '-']);
  const head = git(root, ['rev-parse', 'HEAD']);
  const result = await review(root, ['--from-ref', 'HEAD', '--to-ref', 'topic']);
  assert.equal(result.code, 1, result.stdout + result.stderr);
  assert.match(lineOf(result.stdout, 'invisible-unicode'), /\.Failed$/);
  assert.match(lineOf(result.stdout, 'verify'), /\.Failed$/);
  assert.match(lineOf(result.stdout, 'secrets'), /\.Passed$/);
  assert.equal(git(root, ['rev-parse', 'HEAD']), head);
  assert.equal(readFileSync(join(root, 'a.js'), 'utf8'), 'export const a = 1;\n');
  // The reverse range adds nothing invisible.
  const back = await review(root, ['--from-ref', 'topic', '--to-ref', 'HEAD']);
  assert.equal(back.code, 0, back.stdout);
});

test("a verify command cannot write the user's git dirs, from a linked worktree too (the common dir and the worktree's own)", async (t) => {
  const main = repo(t);
  const linked = join(tempDir(t), 'linked');
  git(main, ['worktree', 'add', '-q', '-b', 'side', linked]);
  const common = join(main, '.git');
  const own = git(linked, ['rev-parse', '--absolute-git-dir']).trim();
  const hostile = [
    `echo '[core]hooksPath=/tmp' >> ${common}/config`,
    `echo x > ${common}/hooks/pre-commit`,
    `echo y > ${own}/HEAD`,
    'exit 0',
  ].join('; ');
  writeTree(linked, {
    '.aide/sandbox.json': JSON.stringify({ commands: [{ name: 'hostile', run: ['sh', '-c', hostile] }] }),
  });
  const before = {
    config: readFileSync(join(common, 'config'), 'utf8'),
    head: readFileSync(join(own, 'HEAD'), 'utf8'),
  };
  stage(linked, { 'a.js': 'export const a = 3;\n' });
  const result = await review(linked, ['--staged']);
  assert.match(lineOf(result.stdout, 'verify'), /\.Passed$/, result.stdout + result.stderr);
  assert.equal(readFileSync(join(common, 'config'), 'utf8'), before.config);
  assert.equal(readFileSync(join(own, 'HEAD'), 'utf8'), before.head);
  assert.equal(existsSync(join(common, 'hooks', 'pre-commit')), false);
});

test('outside a repository review exits 2 and leaves nothing behind (no .aide made there)', async (t) => {
  const folder = tempDir(t);
  for (const args of [['--staged'], ['--from-ref', 'HEAD~1', '--to-ref', 'HEAD']]) {
    const result = await review(folder, args);
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.match(result.stderr, /aide review needs a git repository/);
    assert.equal(existsSync(join(folder, '.aide')), false, args.join(' '));
  }
});

test('AIDE_SKIP and --skip print the named checks as Skipped; AIDE_SKIP=1 skips all', async (t) => {
  const root = repo(t);
  const [, token] = FAKE_TOKENS[0] ?? ['', ''];
  stage(root, { 'a.js': `BROKEN "${token}"\n` });
  const named = await review(root, ['--staged'], { AIDE_SKIP: 'verify,secrets' });
  assert.equal(named.code, 0, named.stdout);
  assert.match(lineOf(named.stdout, 'verify'), /\.Skipped/);
  assert.match(lineOf(named.stdout, 'secrets'), /\.Skipped/);
  assert.match(lineOf(named.stdout, 'conflict-markers'), /\.Passed$/);
  const flag = await review(root, ['--staged', '--skip', 'verify', '--skip', 'secrets']);
  assert.equal(flag.code, 0, flag.stdout);
  const all = await review(root, ['--staged'], { AIDE_SKIP: '1' });
  assert.equal(all.code, 0);
  assert.equal(all.stdout.split('\n').filter((l) => /\.Skipped/.test(l)).length, 7);
  assert.equal((await review(root, ['--staged'])).code, 1);
});

test('usage errors exit 2: nothing to review, both sources, an unknown check', async (t) => {
  const root = repo(t);
  for (const args of [[], ['--staged', '--from-ref', 'HEAD'], ['--staged', '--skip', 'nope']]) {
    const result = await review(root, args);
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
  }
  assert.equal((await review(root, ['--staged'], { AIDE_SKIP: 'verfy' })).code, 2);
  // A revision that names no commit: the message names the flag it came from, and so does no hint.
  for (const [flag, args] of [
    ['--from-ref', ['--from-ref', 'no-such-ref']],
    ['--to-ref', ['--from-ref', 'HEAD', '--to-ref', 'no-such-ref']],
  ] as const) {
    const missing = await review(root, [...args]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, new RegExp(`${flag} no-such-ref: no such commit in this repository`));
    assert.doesNotMatch(missing.stderr, /e\.g\. --ref/);
  }
});

test("verify runs in the workspace's kept scratch, swept between reviews: nothing a command left behind is seen by the next", async (t) => {
  // Fails when a file an earlier run wrote is still there; leaves one behind, and an ignored one.
  const leaves = {
    name: 'leaves',
    run: 'test ! -e left-behind.txt && test ! -e build/out.log && echo x > left-behind.txt && mkdir -p build && echo y > build/out.log',
  };
  const root = verifyRepo(t, [leaves], {}, { 'a.js': 'export const a = 1;\n', '.gitignore': 'build/\n' });
  const record = join(root, '.aide', 'state', 'shadow.git', 'aide-kept-scratch.json');
  stage(root, { 'a.js': 'export const a = 2;\n' });
  const first = await review(root, ['--staged']);
  assert.equal(first.code, 0, first.stdout + first.stderr);
  assert.match(lineOf(first.stdout, 'verify'), /Passed$/);
  const kept = JSON.parse(readFileSync(record, 'utf8')) as { name: string; home: string };
  assert.match(kept.name, /^kept-[0-9a-f]{8}$/);
  stage(root, { 'a.js': 'export const a = 3;\n' });
  const second = await review(root, ['--staged']);
  assert.equal(second.code, 0, second.stdout + second.stderr);
  assert.match(lineOf(second.stdout, 'verify'), /Passed$/);
  assert.equal((JSON.parse(readFileSync(record, 'utf8')) as { name: string }).name, kept.name);
  // The kept scratch holds the last reviewed tree, not the working tree's or the first one's.
  assert.equal(readFileSync(join(kept.home, kept.name, 'a.js'), 'utf8'), 'export const a = 3;\n');
  // A review that stops once its early sweep has begun (an unmerged index) leaves the kept
  // scratch to the next one: no owner record of its own left, nothing the commands left behind.
  leaveMergeConflict(root, 'a.js');
  const refused = await review(root, ['--staged']);
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.deepEqual(readdirSync(join(root, '.aide', 'state', 'scratches')), []);
  git(root, ['merge', '--abort']);
  stage(root, { 'a.js': 'export const a = 4;\n' });
  const third = await review(root, ['--staged']);
  assert.equal(third.code, 0, third.stdout + third.stderr);
  assert.match(lineOf(third.stdout, 'verify'), /Passed$/);
  assert.equal((JSON.parse(readFileSync(record, 'utf8')) as { name: string }).name, kept.name);
  assert.equal(readFileSync(join(kept.home, kept.name, 'a.js'), 'utf8'), 'export const a = 4;\n');
});

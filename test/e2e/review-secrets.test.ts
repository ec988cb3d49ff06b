/**
 * The secrets check of `aide review` end to end: key-like assignments found by the entropy
 * rule, the value never printed in any output, `.aide/review-ignore` read from the reviewed tree
 * (a staged entry silences its finding), and a malformed ignore file refused with its line.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FAKE_ASSIGNMENTS } from '../../src/core/security/fake-tokens.js';
import { runAide, type CliResult } from '../helpers/cli.js';
import { git, gitRepo, writeTree } from '../helpers/sandbox.js';

const ENV = { AIDE_SKIP: 'verify' };

function stage(root: string, files: Record<string, string>): void {
  writeTree(root, files);
  git(root, ['add', ...Object.keys(files)]);
}

const review = (root: string, args: string[] = []): Promise<CliResult> =>
  runAide(['review', '--staged', ...args], { cwd: root, env: ENV });

/** The value of a fake assignment line: what must never be printed. */
function valueOf(line: string): string {
  return /[A-Za-z0-9+/=_.~-]{16,}/.exec(line.split(/[=:]/).slice(1).join(':'))?.[0] ?? line;
}

test('key-like assignments fail secrets with the value masked in text and --json', async (t) => {
  const root = gitRepo(t, { 'a.txt': 'a\n' });
  const lines = FAKE_ASSIGNMENTS.map(([, line]) => line);
  stage(root, { 'settings.env': `${lines.join('\n')}\n` });
  const text = await review(root);
  const json = await review(root, ['--json']);
  assert.equal(text.code, 1, text.stdout + text.stderr);
  assert.match(
    text.stdout,
    /settings\.env:1: error: random-looking value of 32 characters assigned to API_KEY/,
  );
  const report = JSON.parse(json.stdout) as { checks: Array<{ name: string; findings: unknown[] }> };
  assert.equal(report.checks.find((c) => c.name === 'secrets')?.findings.length, lines.length);
  for (const line of lines) {
    const value = valueOf(line);
    for (const out of [text.stdout, text.stderr, json.stdout, json.stderr])
      assert.ok(!out.includes(value.slice(0, 12)), `${line}: the value was printed`);
  }
});

test('.aide/review-ignore in the staged tree silences the finding it names, and only that one', async (t) => {
  const root = gitRepo(t, { 'a.txt': 'a\n' });
  const [, first] = FAKE_ASSIGNMENTS[0] ?? ['', ''];
  const [, second] = FAKE_ASSIGNMENTS[1] ?? ['', ''];
  stage(root, { 'fixture.env': `${first}\n${second}\n` });
  stage(root, { '.aide/review-ignore': '# a test fixture\nfixture.env:generic-secret-assignment:1\n' });
  const one = await review(root);
  assert.equal(one.code, 1, one.stdout);
  assert.doesNotMatch(one.stdout, /fixture\.env:1:/);
  assert.match(one.stdout, /fixture\.env:2: error/);
  stage(root, { '.aide/review-ignore': 'fixture.env:generic-secret-assignment\n' });
  const none = await review(root);
  assert.equal(none.code, 0, none.stdout);
  // An entry only in the work tree, not staged: the reviewed tree has no such entry.
  writeTree(root, { '.aide/review-ignore': 'other.env:generic-secret-assignment\n' });
  stage(root, { 'other.env': `${first}\n` });
  assert.equal((await review(root)).code, 1);
});

test('a malformed .aide/review-ignore is a configuration error naming its line (exit 2)', async (t) => {
  const root = gitRepo(t, { 'a.txt': 'a\n' });
  stage(root, { '.aide/review-ignore': 'ok.js:github-pat\nnot a fingerprint\n' });
  const result = await review(root);
  assert.equal(result.code, 2, result.stdout + result.stderr);
  assert.match(result.stderr, /\.aide\/review-ignore:2: cannot read "not a fingerprint"/);
});

test('added lines of a file whose name holds a space are checked (git ends its +++ line with a TAB)', async (t) => {
  const root = gitRepo(t, { 'a.txt': 'a\n' });
  const [, line] = FAKE_ASSIGNMENTS[0] ?? ['', ''];
  stage(root, { 'my settings.env': `${line}\n`, 'café notes.txt': 'a\u202eb\n' });
  const result = await review(root);
  assert.equal(result.code, 1, result.stdout + result.stderr);
  assert.match(result.stdout, /my settings\.env:1: error: random-looking value/);
  assert.match(result.stdout, /café notes\.txt:1: /);
});

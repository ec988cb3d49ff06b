/**
 * `aide review --junit FILE`: one test case per check in a well-formed JUnit file, a failed
 * check's findings (masked) as its failure text, skipped checks with their reason, the file
 * written whole (no temporary left) and an unwritable path refused as a usage error.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CHECK_NAMES } from '../../src/core/review/checks.js';
import { FAKE_ASSIGNMENTS, FAKE_TOKENS } from '../../src/core/security/fake-tokens.js';
import { runAide } from '../helpers/cli.js';
import { git, gitRepo, writeTree } from '../helpers/sandbox.js';
import { child, children, parseXml } from '../helpers/xml.js';

test('--junit: one test case per check; failures carry their findings, masked; skips their reason', async (t) => {
  const root = gitRepo(t, { 'a.txt': 'a\n' });
  const [, token] = FAKE_TOKENS[2] ?? ['', ''];
  const [, assignment] = FAKE_ASSIGNMENTS[0] ?? ['', ''];
  writeTree(root, { 'config.js': `export const k = "${token}";\n${assignment}\n`, 'b.txt': '=======\n' });
  git(root, ['add', 'config.js', 'b.txt']);
  const result = await runAide(['review', '--staged', '--junit', 'out/review.xml'], {
    cwd: root,
    env: { AIDE_SKIP: 'verify' },
  });
  assert.equal(result.code, 2, 'the folder does not exist yet: a usage error');
  assert.match(result.stderr, /cannot write the JUnit report to out\/review\.xml/);

  const ran = await runAide(['review', '--staged', '--junit', 'review.xml'], {
    cwd: root,
    env: { AIDE_SKIP: 'verify' },
  });
  assert.equal(ran.code, 1, ran.stdout + ran.stderr);
  const text = readFileSync(join(root, 'review.xml'), 'utf8');
  assert.ok(!text.includes(token.slice(4, 14)), 'the token is in the JUnit file');
  assert.ok(!text.includes(assignment.slice(8, 20)), 'the assigned value is in the JUnit file');
  assert.deepEqual(
    readdirSync(root).filter((f) => f.endsWith('.tmp')),
    [],
  );

  const suites = parseXml(text);
  assert.equal(suites.name, 'testsuites');
  const suite = child(suites, 'testsuite');
  assert.ok(suite);
  assert.equal(suite.attributes['name'], 'aide review');
  const cases = children(suite, 'testcase');
  assert.deepEqual(
    cases.map((c) => [c.attributes['classname'], c.attributes['name']]),
    CHECK_NAMES.map((name) => ['aide.review', name]),
  );
  const byName = (name: string) => cases.find((c) => c.attributes['name'] === name);
  const secrets = child(byName('secrets') ?? suite, 'failure');
  assert.equal(secrets?.attributes['message'], '2 problems');
  assert.match(secrets?.text ?? '', /config\.js:1: error: GitHub token \(github-pat\) ghp_…/);
  assert.match(secrets?.text ?? '', /config\.js:2: error: random-looking value/);
  assert.match(child(byName('conflict-markers') ?? suite, 'failure')?.text ?? '', /b\.txt:1/);
  assert.equal(child(byName('verify') ?? suite, 'skipped')?.attributes['message'], '--skip or AIDE_SKIP');
  assert.equal(byName('invisible-unicode')?.children.length, 0);
  assert.equal(suite.attributes['tests'], String(CHECK_NAMES.length));
  assert.equal(suite.attributes['failures'], '2');
  assert.ok(existsSync(join(root, 'review.xml')));
});

/**
 * The CI job of a plan with a model step: `aide act --dry-run --patch-out --junit` in a fresh
 * clone, without a terminal, against the replay model. The clone's files stay as checked out; the
 * patch applies with `git apply` to another clone of the same commit, whose tests then pass; the
 * JUnit report has the step as a passing case.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROJECT, planDoc, sandbox } from '../helpers/act.js';
import { runAide } from '../helpers/cli.js';
import { gitRepo, tempDir } from '../helpers/sandbox.js';

const SUB_TEST =
  "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { sub } from '../src/calc.js';\n\ntest('sub', () => {\n  assert.equal(sub(5, 3), 2);\n});\n";
const WRITE = `<write_file>\n<path>src/calc.js</path>\n<content>\n${PROJECT['src/calc.js']}\nexport function sub(a, b) {\n  return a - b;\n}\n</content>\n</write_file>`;
const DONE = '<attempt_completion>\n<result>Added sub.</result>\n</attempt_completion>';

const clone = (from: string, to: string) => execFileSync('git', ['clone', '-q', from, to]);

test(
  'the --dry-run CI job in a fresh clone: a patch git apply takes elsewhere, its tests pass there',
  { timeout: 120_000 },
  async (t) => {
    const origin = gitRepo(t, {
      ...PROJECT,
      'test/sub.test.js': SUB_TEST,
      '.aide/sandbox.json': sandbox(),
      '.aide/plans/plan.md': planDoc('Add sub', [
        { title: 'Add sub', intent: 'Add `sub(a, b)` to src/calc.js.' },
      ]),
    });
    const work = tempDir(t);
    const ci = join(work, 'ci');
    clone(origin, ci);
    const replies = join(work, 'replies.jsonl');
    writeFileSync(replies, [WRITE, DONE].map((reply) => JSON.stringify({ reply })).join('\n') + '\n');
    const patch = join(work, 'aide.patch');
    const junit = join(work, 'junit.xml');
    const args = ['act', '--dry-run', '--patch-out', patch, '--junit', junit, '--model', `replay:${replies}`];
    const result = await runAide(args, { cwd: ci, env: { CI: 'true' } });
    assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
    assert.match(result.stdout, /✓ attempt 1 passed/);
    assert.match(result.stdout, /1 step verified \(dry run: nothing written\)/);
    // The checkout is as it was: nothing tracked changed.
    assert.equal(
      execFileSync('git', ['status', '--porcelain', '--', 'src', 'test'], { cwd: ci, encoding: 'utf8' }),
      '',
    );
    assert.match(
      readFileSync(junit, 'utf8'),
      /<testcase [^>]*name="Step 1: Add sub"[^>]*>(?![\s\S]*<failure)/,
    );
    const other = join(work, 'other');
    clone(origin, other);
    execFileSync('git', ['apply', '--check', patch], { cwd: other });
    execFileSync('git', ['apply', patch], { cwd: other });
    assert.match(
      readFileSync(join(other, 'src/calc.js'), 'utf8'),
      /export function sub\(a, b\) \{\n {2}return a - b;/,
    );
    execFileSync(process.execPath, ['--test', 'test/'], { cwd: other, stdio: 'pipe' });
  },
);

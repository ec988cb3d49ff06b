/**
 * The edit corpus, end to end: every case in test/fixtures/edits/ runs `aide apply
 * <response.md> --json` in a fresh git repository holding the case's `before/` tree, then checks
 * the tree byte for byte against `after/`, or, for replies that must be refused, the exit code,
 * the failure kinds and that nothing at all was written. Every case runs aide's CLI in this
 * process (runCli: the same commands and output, without starting node 84 times, which made this
 * the longest file of the suite, 33-64 s); a few also run the built CLI as a child process.
 *
 * Each sandbox is <tmp>/repo (the workspace) next to an empty <tmp>/outside, so a path that
 * escapes the workspace would land somewhere the test can see.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runAide, type CliResult } from '../helpers/cli.js';
import { runAideInProcess } from '../helpers/in-process.js';
import { listCases, loadCase, type CaseExpectation, type CorpusCase } from '../helpers/edit-corpus.js';
import { fingerprint, git, tempDir, type Cleanup } from '../helpers/sandbox.js';
import { describeTreeDifference, readTree } from '../helpers/tree.js';

/** dist/test/e2e/edit-corpus.test.js → <repo>/test/fixtures/edits/ */
const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/edits/', import.meta.url));
const MIN_CASES = 45;

type BlockReport =
  | { index: number; path: string; ok: true; action: string; strategy: string | null }
  | {
      index: number;
      path: string;
      ok: false;
      failure: { kind: string; message: string; hint: string; closest?: unknown };
    };

interface ApplyReport {
  schema: string;
  ok: boolean;
  blockCount: number;
  problems: Array<{ line: number; message: string }>;
  blocks: BlockReport[];
  forModel: string;
}

interface Sandbox {
  repo: string;
  outside: string;
}

/** A git repository holding a copy of `before` (symlinks as they are). */
function sandbox(t: Cleanup, before: string | undefined): Sandbox {
  const root = tempDir(t, 'aide-corpus-');
  const box = { repo: join(root, 'repo'), outside: join(root, 'outside') };
  mkdirSync(box.repo);
  mkdirSync(box.outside);
  // `git init` is all aide apply needs to find the workspace root; committing the tree would
  // only cost two more git processes per case.
  git(box.repo, ['init', '-q', '-b', 'main']);
  if (before !== undefined) cpSync(before, box.repo, { recursive: true, verbatimSymlinks: true });
  return box;
}

function parseReport(result: CliResult): ApplyReport {
  try {
    return JSON.parse(result.stdout) as ApplyReport;
  } catch {
    return assert.fail(
      `stdout is not a JSON report (exit ${String(result.code)}):\n${result.stdout}\n${result.stderr}`,
    );
  }
}

/** One line per block and problem: what the engine made of the reply. */
function summarize(report: ApplyReport): string {
  const blocks = report.blocks.map((b) =>
    b.ok
      ? `  block ${b.index} ${b.path}: ${b.action} (${b.strategy ?? 'no match needed'})`
      : `  block ${b.index} ${b.path}: ${b.failure.kind}: ${b.failure.message}`,
  );
  const problems = report.problems.map((p) => `  problem at response line ${p.line}: ${p.message}`);
  return ['report:', ...blocks, ...problems].join('\n');
}

function failureKinds(report: ApplyReport): string[] {
  return report.blocks.flatMap((b) => (b.ok ? [] : [b.failure.kind]));
}

/** Every refusal says what failed and what to change; a SEARCH not found shows the closest lines. */
function assertExplained(report: ApplyReport): void {
  for (const b of report.blocks) {
    if (b.ok) continue;
    assert.ok(b.failure.message !== '' && b.failure.hint !== '', `block ${b.index} has no message or hint`);
    if (b.failure.kind === 'not-found')
      assert.ok(b.failure.closest !== undefined, `block ${b.index}: not-found without the closest lines`);
  }
  if (!report.ok) assert.ok(report.forModel !== '', 'a failed apply has no feedback for the model');
}

function assertTree(expectedRoot: string | undefined, repo: string, what: string): void {
  const difference = describeTreeDifference(readTree(expectedRoot), readTree(repo, ['.git']));
  if (difference !== undefined) assert.fail(`${what}\n${difference}`);
}

function checkApplied(
  c: CorpusCase,
  afterTree: string,
  box: Sandbox,
  result: CliResult,
  report: ApplyReport,
): void {
  assert.equal(
    result.code,
    0,
    `expected every block to apply (exit 0), got exit ${String(result.code)}\n${summarize(report)}`,
  );
  assert.equal(report.ok, true, summarize(report));
  const strategies = c.settings.strategies;
  if (strategies !== undefined) {
    const used = report.blocks.map((b) => (b.ok ? b.strategy : `failed: ${b.failure.kind}`));
    assert.deepEqual(used, strategies, `matching strategies per block\n${summarize(report)}`);
  }
  // Every apply that writes takes a checkpoint first; aide's runtime state is not part of the tree.
  const wrote = (report as ApplyReport & { written: boolean }).written;
  assert.equal(
    existsSync(join(box.repo, '.aide', 'state', 'shadow.git')),
    wrote,
    wrote ? 'no checkpoint was taken' : 'a shadow repository appeared without a write',
  );
  rmSync(join(box.repo, '.aide', 'state'), { recursive: true, force: true });
  if (wrote && readdirSync(join(box.repo, '.aide')).length === 0)
    rmSync(join(box.repo, '.aide'), { recursive: true });
  assertTree(afterTree, box.repo, `the tree after apply is not after/\n${summarize(report)}`);
}

function checkRefused(
  c: CorpusCase,
  expect: CaseExpectation,
  box: Sandbox,
  result: CliResult,
  report: ApplyReport,
): void {
  assert.equal(result.code, expect.exit, `exit code\n${summarize(report)}`);
  if (expect.failures !== undefined)
    assert.deepEqual(
      failureKinds(report),
      expect.failures,
      `failure kinds in block order\n${summarize(report)}`,
    );
  if (expect.problems !== undefined)
    assert.equal(report.problems.length, expect.problems, `parse problems\n${summarize(report)}`);
  if (expect.blocks !== undefined)
    assert.equal(report.blockCount, expect.blocks, `edit blocks found\n${summarize(report)}`);
  assertExplained(report);
  for (const text of expect.stdoutIncludes)
    assert.ok(
      result.stdout.includes(text),
      `stdout should include ${JSON.stringify(text)}\n${result.stdout}`,
    );
  assertTree(
    c.before,
    box.repo,
    `the tree changed although the reply must not be applied\n${summarize(report)}`,
  );
}

type Runner = typeof runAide;

async function runCase(t: Cleanup, name: string, run: Runner): Promise<void> {
  const c = loadCase(FIXTURES, name);
  const box = sandbox(t, c.before);
  const gitBefore = fingerprint(box.repo, '.git');
  // The corpus is about matching: real replies edit tests, CI files and package scripts, whose
  // protection (a second yes) is covered by apply-protected.test.ts.
  const result = await run(['apply', c.response, '--json', '--allow-protected', ...c.settings.args], {
    cwd: box.repo,
  });
  assert.notEqual(result.code, 70, `internal error (exit 70):\n${result.stdout}\n${result.stderr}`);
  assert.equal(result.signal, null, `killed by ${String(result.signal)}`);
  const report = parseReport(result);
  assert.equal(report.schema, 'aide.apply/1');
  if (c.outcome.kind === 'after') checkApplied(c, c.outcome.tree, box, result, report);
  else checkRefused(c, c.outcome.expect, box, result, report);
  assert.deepEqual(fingerprint(box.repo, '.git'), gitBefore, '.git changed');
  assert.equal(readTree(box.outside).size, 0, 'something was written outside the repository');
}

const names = listCases(FIXTURES);

test('the edit corpus has enough cases', () => {
  assert.ok(names.length >= MIN_CASES, `only ${names.length} cases in ${FIXTURES}`);
});

// Each case spends most of its time waiting on git: run several at once.
describe('edit corpus', { concurrency: Math.max(4, availableParallelism()) }, () => {
  for (const name of names) {
    test(name, (t) => runCase(t, name, runAideInProcess));
  }
});

/** Through the built CLI too: an apply with its checkpoint, a dry run, a refusal at a symlink, CRLF and a BOM. */
const SMOKE = [
  '01-aider-python-two-blocks',
  '30-crlf-bom-file-crlf-response-diff',
  '52-dry-run-writes-nothing',
  '62-fail-path-symlink-outside',
];

describe('edit corpus through the built CLI', { concurrency: Math.max(2, availableParallelism()) }, () => {
  test('the smoke cases are in the corpus', () => {
    assert.deepEqual(
      SMOKE.filter((name) => !names.includes(name)),
      [],
    );
  });
  for (const name of SMOKE) {
    test(name, (t) => runCase(t, name, runAide));
  }
});

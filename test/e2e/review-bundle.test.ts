/**
 * `aide review`'s own bundle (dist/bundle/aide-review.cjs, scripts/bundle.mjs), which the bin runs
 * for `aide review …`: the same command line as the whole CLI's (aide-cli.cjs) to the byte — its
 * help, its usage and configuration errors, its exit codes, its report — without what only the
 * other commands run.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import type { CliIo } from '../../src/cli/io.js';
import { FAKE_ASSIGNMENTS } from '../../src/core/security/fake-tokens.js';
import { cliBundleFile, loadCli, type CliBundle } from '../../src/launch/cli-bundle.js';
import { git, gitRepo, testEnv, writeTree } from '../helpers/sandbox.js';

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

const bundles = new Map<CliBundle, ReturnType<typeof loadCli>>();

/** `args` run by one bundle's own runCli, in `cwd`, as the bin would run it there. */
async function runBundle(
  bundle: CliBundle,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (chunk: string) => (stdout += chunk), isTTY: false },
    stderr: { write: (chunk: string) => (stderr += chunk), isTTY: false },
    stdin: Object.assign(Readable.from([]), { isTTY: false }),
    env: testEnv(undefined, env),
    cwd,
  };
  const cli = bundles.get(bundle) ?? loadCli({}, bundle);
  bundles.set(bundle, cli);
  const code = await cli.runCli(args, io);
  return { code, stdout, stderr };
}

/** Both bundles' outcomes of `args`, which must be the same; returns that outcome. */
async function same(
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Outcome> {
  const whole = await runBundle('aide-cli', args, cwd, env);
  const review = await runBundle('aide-review', args, cwd, env);
  assert.deepEqual(review, whole, `aide ${args.join(' ')}`);
  return review;
}

test('review --help, --version and usage errors are the same from both bundles', async (t) => {
  const repo = gitRepo(t, { 'a.js': '1\n' });
  const help = await same(['review', '--help'], repo);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--staged/);
  assert.match(help.stdout, /Exit codes: 0 every check passed/);
  assert.equal((await same(['review', '--version'], repo)).code, 0);
  // A mistyped flag (with its suggestion), a flag without its value, a second command, JSON errors.
  for (const args of [
    ['review', '--stagd'],
    ['review', '--staged', '--junit'],
    ['review', 'status'],
    ['review', '--json', '--nope'],
    ['review', '--staged', '--skip', 'lint'],
    ['review', '--staged', '--from-ref', 'HEAD'],
  ]) {
    const outcome = await same(args, repo);
    assert.equal(outcome.code, 2, `aide ${args.join(' ')}: ${outcome.stdout}${outcome.stderr}`);
  }
});

test('a configuration error, a missing revision and a report are the same from both bundles', async (t) => {
  const repo = gitRepo(t, { 'a.js': '1\n' });
  const badRef = await same(['review', '--from-ref', 'nope'], repo);
  assert.equal(badRef.code, 2);
  assert.match(badRef.stderr, /--from-ref nope/);

  writeTree(repo, { '.env': `${FAKE_ASSIGNMENTS[0]?.[1] ?? ''}\n` });
  git(repo, ['add', '.env']);
  const report = await same(['review', '--staged', '--json'], repo, { AIDE_SKIP: 'verify,model' });
  assert.equal(report.code, 1, report.stdout + report.stderr);
  const checks = (JSON.parse(report.stdout) as { checks: { name: string; status: string }[] }).checks;
  assert.equal(checks.find((c) => c.name === 'secrets')?.status, 'failed', report.stdout);

  writeTree(repo, { '.aide/config.json': '{"review": {"protected": "deny"}}\n' });
  const config = await same(['review', '--staged'], repo);
  assert.equal(config.code, 2, config.stdout + config.stderr);
  assert.match(config.stderr, /review\.protected/);
});

test('the review bundle holds none of what only the other commands run, and refuses them', async (t) => {
  const review = readFileSync(cliBundleFile('aide-review'), 'latin1');
  for (const left of [
    'node_modules/yaml/',
    'node_modules/enquirer/',
    'node_modules/execa/',
    'src/core/edit/',
  ])
    assert.doesNotMatch(review, new RegExp(`^// .*${left}`, 'm'), left);
  assert.ok(
    statSync(cliBundleFile('aide-review')).size < 0.6 * statSync(cliBundleFile('aide-cli')).size,
    'the review bundle is well under the whole CLI',
  );
  // The bin never sends another command here; the bundle says so instead of running half of one.
  const repo = gitRepo(t, { 'a.js': '1\n' });
  const status = await runBundle('aide-review', ['status'], repo);
  assert.equal(status.code, 70, status.stderr);
  assert.match(status.stderr, /aide-review\.cjs runs `aide review` only; `aide status` is in aide-cli\.cjs/);
  assert.equal((await runBundle('aide-cli', ['status'], repo)).code, 0);
});

/**
 * `aide hooks` end to end: the hook installed in real repositories and run by real `git commit`s
 * (a broken staged change refused, a passing one committed), a foreign hook kept, run first and put
 * back byte for byte, husky's core.hooksPath, a linked worktree, a minimal PATH, aide gone, AIDE_SKIP.
 * The hook runs `aide review --staged` (HOOK_ARGS in core/hooks).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { HOOK_ARGS, HOOK_MARKER } from '../../src/core/hooks/hook-script.js';
import { runAide } from '../helpers/cli.js';
import { git, tempDir, testEnv, testHome, writeTree, type Cleanup } from '../helpers/sandbox.js';
import { verifyRepo } from '../helpers/verify.js';

const MINIMAL_PATH = '/usr/bin:/bin';

/** A repository whose one check passes only when the staged value.txt says "good". */
function checkedRepo(t: Cleanup): string {
  return verifyRepo(
    t,
    [{ name: 'check', run: 'test "$(cat value.txt)" = good' }],
    {},
    { 'value.txt': 'good\n' },
  );
}

/** `git commit` as a user would run it: the hooks run; the combined output (hooks print to stderr). */
function commit(cwd: string, env: Record<string, string> = {}, args: string[] = []) {
  const result = spawnSync('git', ['commit', '-q', '-m', 'change', ...args], {
    cwd,
    env: testEnv(testHome(), env),
    encoding: 'utf8',
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

const head = (cwd: string) => git(cwd, ['rev-parse', 'HEAD']).trim();

function stage(root: string, value: string): void {
  writeTree(root, { 'value.txt': `${value}\n` });
  git(root, ['add', 'value.txt']);
}

async function install(root: string, ...args: string[]) {
  const result = await runAide(['hooks', 'install', ...args], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  return result;
}

/** The hook's script with its recorded node and entry pointing nowhere (aide moved or removed). */
function forgetRecordedRunner(hook: string): void {
  const text = readFileSync(hook, 'utf8')
    .replace(/^aide_node=.*$/m, "aide_node='/nonexistent/node'")
    .replace(/^aide_entry=.*$/m, "aide_entry='/nonexistent/bin.js'");
  writeFileSync(hook, text);
}

test('install writes a marked, executable hook that runs the aide command it records', async (t) => {
  const root = checkedRepo(t);
  const result = await install(root);
  const hook = join(root, '.git', 'hooks', 'pre-commit');
  assert.match(result.stdout, /Installed pre-commit hook: .*\.git\/hooks\/pre-commit/);
  const text = readFileSync(hook, 'utf8');
  assert.ok(text.startsWith(`#!/bin/sh\n${HOOK_MARKER}`), text);
  assert.equal(statSync(hook).mode & 0o111, 0o111);
  assert.match(text, new RegExp(`^aide_node='${process.execPath}'$`, 'm'));
  assert.match(text, /^aide_entry='.*\/dist\/bundle\/aide\.js'$/m);
  assert.ok(text.includes(`exec "$aide_node" "$aide_entry" ${HOOK_ARGS['pre-commit'].join(' ')}\n`), text);
  // Twice is the same as once: no chained copy of itself.
  const again = await install(root);
  assert.match(again.stdout, /Reinstalled/);
  assert.equal(readFileSync(hook, 'utf8'), text);
  assert.equal(existsSync(join(root, '.git', 'hooks', 'pre-commit.aide-chained')), false);
});

test('with the recorded aide gone, the hook falls back to `aide` on PATH with the same arguments', async (t) => {
  const root = checkedRepo(t);
  await install(root);
  const hook = join(root, '.git', 'hooks', 'pre-commit');
  forgetRecordedRunner(hook);
  const bin = tempDir(t);
  const log = join(bin, 'args.txt');
  writeFileSync(
    join(bin, 'aide'),
    `#!/bin/sh\necho "$@" > '${log}'\necho "AIDE_SKIP=$AIDE_SKIP" >> '${log}'\n`,
  );
  chmodSync(join(bin, 'aide'), 0o755);
  const result = spawnSync(hook, [], {
    cwd: root,
    env: testEnv(testHome(), { PATH: `${bin}:${MINIMAL_PATH}`, AIDE_SKIP: 'model' }),
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
  // Named skips are aide's to interpret: the hook passes AIDE_SKIP through.
  assert.equal(readFileSync(log, 'utf8'), `${HOOK_ARGS['pre-commit'].join(' ')}\nAIDE_SKIP=model\n`);
});

test('a real commit: a broken staged change is refused (no new commit), a passing one commits', async (t) => {
  const root = checkedRepo(t);
  await install(root);
  const before = head(root);
  stage(root, 'bad');
  const refused = commit(root);
  assert.notEqual(refused.code, 0, refused.output);
  assert.equal(head(root), before, 'no commit was made');
  assert.match(refused.output, /^verify\.+Failed$/m);
  stage(root, 'good');
  writeTree(root, { 'other.txt': 'x\n' });
  git(root, ['add', 'other.txt']);
  const passed = commit(root);
  assert.equal(passed.code, 0, passed.output);
  assert.match(passed.output, /^verify\.+Passed$/m, 'aide ran and passed');
  assert.notEqual(head(root), before);
});

test('AIDE_SKIP=1 lets a failing commit through with a Skipped line; --no-verify as git defines', async (t) => {
  const root = checkedRepo(t);
  await install(root);
  const before = head(root);
  stage(root, 'bad');
  const skipped = commit(root, { AIDE_SKIP: '1' });
  assert.equal(skipped.code, 0, skipped.output);
  assert.match(skipped.output, /^aide \(AIDE_SKIP=1\)\.+Skipped$/m);
  assert.notEqual(head(root), before);
  writeTree(root, { 'value.txt': 'worse\n' });
  git(root, ['add', 'value.txt']);
  const noVerify = commit(root, {}, ['--no-verify']);
  assert.equal(noVerify.code, 0, noVerify.output);
});

test('a foreign hook is kept, runs first (both must pass) and comes back byte for byte', async (t) => {
  const root = checkedRepo(t);
  const hook = join(root, '.git', 'hooks', 'pre-commit');
  const mark = join(root, 'foreign-ran');
  const foreign = `#!/bin/sh\n# a team's own hook\ntouch '${mark}'\n[ ! -e '${root}/block' ]\n`;
  writeFileSync(hook, foreign, { mode: 0o751 });
  const result = await install(root);
  assert.match(result.stdout, /kept and runs first: .*pre-commit\.aide-chained/);
  assert.equal(readFileSync(join(root, '.git', 'hooks', 'pre-commit.aide-chained'), 'utf8'), foreign);
  await install(root);
  assert.equal(readFileSync(join(root, '.git', 'hooks', 'pre-commit.aide-chained'), 'utf8'), foreign);

  // The foreign hook fails: refused, and aide's check (which would pass) does not rescue it.
  writeFileSync(join(root, 'block'), '');
  stage(root, 'good');
  git(root, ['add', '-f', 'value.txt']);
  writeTree(root, { 'new.txt': 'n\n' });
  git(root, ['add', 'new.txt']);
  const before = head(root);
  assert.notEqual(commit(root).code, 0);
  assert.ok(existsSync(mark), 'the foreign hook ran');
  assert.equal(head(root), before);
  // The foreign hook passes, aide's check fails: refused too.
  spawnSync('rm', [join(root, 'block'), mark]);
  stage(root, 'bad');
  assert.notEqual(commit(root).code, 0);
  assert.ok(existsSync(mark), 'the foreign hook ran first');
  assert.equal(head(root), before);

  const removed = await runAide(['hooks', 'uninstall'], { cwd: root });
  assert.equal(removed.code, 0, removed.stderr);
  assert.match(removed.stdout, /put back the one it kept/);
  assert.equal(readFileSync(hook, 'utf8'), foreign);
  assert.equal(statSync(hook).mode & 0o777, 0o751);
  assert.equal(existsSync(join(root, '.git', 'hooks', 'pre-commit.aide-chained')), false);
  // Uninstall never removes a hook aide did not write.
  const again = await runAide(['hooks', 'uninstall', '--hook', 'pre-commit'], { cwd: root });
  assert.match(again.stdout, /is not aide's; left alone/);
  assert.equal(readFileSync(hook, 'utf8'), foreign);
});

test("core.hooksPath in husky's folder: the line to add and exit 1; --force adds it; uninstall takes it out", async (t) => {
  const root = checkedRepo(t);
  mkdirSync(join(root, '.husky', '_'), { recursive: true });
  const huskyHook = join(root, '.husky', 'pre-commit');
  writeFileSync(huskyHook, 'npm test\n');
  git(root, ['config', 'core.hooksPath', '.husky/_']);

  const refused = await runAide(['hooks', 'install'], { cwd: root });
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stdout, /husky's folder/);
  assert.ok(refused.stdout.includes(`\n  aide ${HOOK_ARGS['pre-commit'].join(' ')} ${HOOK_MARKER}`));
  assert.equal(existsSync(join(root, '.husky', '_', 'pre-commit')), false);
  assert.equal(readFileSync(huskyHook, 'utf8'), 'npm test\n');

  await install(root, '--force');
  const added = readFileSync(huskyHook, 'utf8');
  assert.match(added, /^npm test\naide .*# installed by aide.*\n$/);
  await install(root, '--force');
  assert.equal(readFileSync(huskyHook, 'utf8'), added, 'once only');
  const status = await runAide(['hooks', 'status'], { cwd: root });
  assert.match(status.stdout, /pre-commit: aide's line present/);

  const removed = await runAide(['hooks', 'uninstall'], { cwd: root });
  assert.equal(removed.code, 0, removed.stderr);
  assert.equal(readFileSync(huskyHook, 'utf8'), 'npm test\n');
});

test('another core.hooksPath folder gets the hook there, and git runs it from there', async (t) => {
  const root = checkedRepo(t);
  git(root, ['config', 'core.hooksPath', 'githooks']);
  await install(root);
  assert.ok(existsSync(join(root, 'githooks', 'pre-commit')));
  assert.equal(existsSync(join(root, '.git', 'hooks', 'pre-commit')), false);
  stage(root, 'bad');
  const before = head(root);
  assert.notEqual(commit(root).code, 0);
  assert.equal(head(root), before);
});

test('from a linked worktree the hook goes where git looks (the common hooks folder) and runs there', async (t) => {
  const root = checkedRepo(t);
  const linked = join(tempDir(t), 'linked');
  git(root, ['worktree', 'add', '-q', '-b', 'side', linked]);
  await install(linked);
  assert.ok(existsSync(join(root, '.git', 'hooks', 'pre-commit')));
  stage(linked, 'bad');
  const before = head(linked);
  const refused = commit(linked);
  assert.notEqual(refused.code, 0, refused.output);
  assert.equal(head(linked), before);
  stage(linked, 'good');
  writeTree(linked, { 'side.txt': 's\n' });
  git(linked, ['add', 'side.txt']);
  const passed = commit(linked);
  assert.equal(passed.code, 0, passed.output);
  assert.match(passed.output, /^verify\.+Passed$/m);
});

test('a GUI-like minimal PATH: the recorded node and entry still run aide', async (t) => {
  const root = checkedRepo(t);
  await install(root);
  assert.equal(existsSync('/usr/bin/aide') || existsSync('/bin/aide'), false, 'no aide on the minimal PATH');
  stage(root, 'bad');
  const before = head(root);
  const refused = commit(root, { PATH: MINIMAL_PATH });
  assert.notEqual(refused.code, 0, refused.output);
  assert.doesNotMatch(refused.output, /cannot run aide/);
  assert.equal(head(root), before);
  stage(root, 'good');
  writeTree(root, { 'gui.txt': 'g\n' });
  git(root, ['add', 'gui.txt']);
  const passed = commit(root, { PATH: MINIMAL_PATH });
  assert.equal(passed.code, 0, passed.output);
  assert.match(passed.output, /^verify\.+Passed$/m);
});

test('when aide cannot be found the hook says why and refuses the commit; status says it would not run', async (t) => {
  const root = checkedRepo(t);
  await install(root);
  forgetRecordedRunner(join(root, '.git', 'hooks', 'pre-commit'));
  stage(root, 'good');
  writeTree(root, { 'more.txt': 'm\n' });
  git(root, ['add', 'more.txt']);
  const before = head(root);
  const refused = commit(root, { PATH: MINIMAL_PATH });
  assert.equal(refused.code, 1, refused.output);
  assert.match(refused.output, /cannot run aide: .*no `aide` on PATH/);
  assert.equal(head(root), before);
  const status = await runAide(['hooks', 'status'], { cwd: root, env: { PATH: MINIMAL_PATH } });
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, /pre-commit: installed, would NOT run: cannot find aide/);
  assert.match(status.stdout, /pre-push: not installed/);
});

test('status of a working hook; every subcommand outside a repository exits 2 with the fix', async (t) => {
  const root = checkedRepo(t);
  await install(root, '--hook', 'pre-push');
  const status = await runAide(['hooks', 'status'], { cwd: root });
  assert.match(status.stdout, /pre-push: installed, would run \(runs aide with /);
  assert.match(status.stdout, /pre-commit: not installed/);
  const outside = tempDir(t);
  for (const sub of ['install', 'uninstall', 'status']) {
    const result = await runAide(['hooks', sub], { cwd: outside });
    assert.equal(result.code, 2, `${sub}: ${result.stderr}`);
    assert.match(result.stderr, /is not in a git repository/);
    assert.match(result.stderr, /git init/);
  }
});

test("`git commit -a` is checked through git's temporary index; a partly staged file's rest stays", async (t) => {
  const root = checkedRepo(t);
  await install(root);
  const before = head(root);
  // Only the working tree says "bad": the index git builds for -a is what the hook checks.
  writeTree(root, { 'value.txt': 'bad\n' });
  const refused = commit(root, {}, ['-a']);
  assert.notEqual(refused.code, 0, refused.output);
  assert.equal(head(root), before);
  assert.equal(readFileSync(join(root, 'value.txt'), 'utf8'), 'bad\n');
  stage(root, 'good');
  writeTree(root, { 'notes.txt': 'staged\n' });
  git(root, ['add', 'notes.txt']);
  writeTree(root, { 'notes.txt': 'staged\nunstaged\n' });
  const passed = commit(root);
  assert.equal(passed.code, 0, passed.output);
  assert.equal(git(root, ['show', 'HEAD:notes.txt']), 'staged\n');
  assert.equal(readFileSync(join(root, 'notes.txt'), 'utf8'), 'staged\nunstaged\n');
});

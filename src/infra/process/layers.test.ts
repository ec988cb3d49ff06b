// Verify commands on a throwaway overlay over the scratch (CommandRun.layer): the scratch stays
// byte for byte what aide last wrote, whatever the command does, so act needs no sweep after it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type { CommandRun } from '../../core/ports/commands.js';
import { ProcessCommandRunner } from './command-runner.js';
import { prepareIsolation } from './isolation.js';

const PATH = `${dirname(process.execPath)}:/usr/bin:/bin:/usr/sbin:/sbin`;

function tempDir(t: TestContext, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Every file under `dir` with its text, folders as "name/": what a user would see with `find`. */
function contents(dir: string, prefix = ''): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) {
      found[`${rel}/`] = '';
      Object.assign(found, contents(dir, rel));
    } else found[rel] = readFileSync(join(dir, rel), 'utf8');
  }
  return found;
}

interface Setup {
  runner: ProcessCommandRunner;
  scratch: string;
  run: (script: string, layer?: string) => Promise<{ exitCode: number | null; tail: string }>;
}

async function setup(t: TestContext): Promise<Setup> {
  const workspace = tempDir(t, 'aide-ws-');
  const scratch = tempDir(t, 'aide-scratch-');
  const logs = tempDir(t, 'aide-logs-');
  writeFileSync(join(scratch, 'tracked.txt'), 'one\n');
  mkdirSync(join(scratch, 'dir'));
  writeFileSync(join(scratch, 'dir', 'f'), 'f\n');
  const isolation = await prepareIsolation({
    allowNetwork: false,
    readOnlyPaths: [workspace],
    env: { PATH },
    layers: true,
  });
  t.after(() => {
    isolation.dispose();
  });
  const runner = new ProcessCommandRunner({ isolation, killGraceMs: 300 });
  let runs = 0;
  const run = async (script: string, layer?: string) => {
    const command: CommandRun = {
      name: 'test',
      run: script,
      cwd: scratch,
      env: { PATH },
      timeoutMs: 10_000,
      // Never in the scratch: aide writes the log while the command's overlay is mounted over it.
      logFile: join(logs, `${++runs}.log`),
      maxLogBytes: 1 << 20,
      tailBytes: 4096,
      ...(layer === undefined ? {} : { layer }),
    };
    const result = await runner.run(command);
    return { exitCode: result.exitCode, tail: result.tail };
  };
  return { runner, scratch, run };
}

test('a layered run leaves the scratch as it was; runs of one layer see each other; a new layer starts from the scratch', async (t) => {
  const { runner, scratch, run } = await setup(t);
  assert.equal(runner.layers, true, `no overlay here: ${runner.isolation.detail ?? ''}`);
  assert.equal(runner.isolation.mechanism, 'unshare');
  const before = contents(scratch);
  const first = await run(
    // A modified file, a new one, a folder removed and made again (an opaque folder), a rename.
    'echo two > tracked.txt && echo new > made.txt && rm -rf dir && mkdir dir && echo g > dir/g && mv made.txt moved.txt && cat tracked.txt',
    'A',
  );
  assert.deepEqual(first, { exitCode: 0, tail: 'two' });
  assert.deepEqual(contents(scratch), before, 'the scratch after a layered run');
  const same = await run(
    'test "$(cat tracked.txt)" = two && test -f moved.txt && test -f dir/g && ! test -e dir/f',
    'A',
  );
  assert.equal(same.exitCode, 0, same.tail);
  const fresh = await run(
    'test "$(cat tracked.txt)" = one && ! test -e moved.txt && test -f dir/f && ! test -e dir/g',
    'B',
  );
  assert.equal(fresh.exitCode, 0, fresh.tail);
  assert.deepEqual(contents(scratch), before);
  // The control: without a layer the command writes the scratch itself.
  assert.equal((await run('echo three > tracked.txt')).exitCode, 0);
  assert.equal(readFileSync(join(scratch, 'tracked.txt'), 'utf8'), 'three\n');
});

test('a hostile layered command cannot reach the scratch beneath its overlay', async (t) => {
  const { runner, scratch, run } = await setup(t);
  assert.equal(runner.layers, true);
  const before = contents(scratch);
  // Each attempt prints what it got; none may change the scratch. The overlay itself is
  // writable, so "pwned" is written there, and must stay there.
  const attack = [
    // Only what the attempts print is read: a failed redirection's own message (sh reports it
    // on stderr, which arrives apart from stdout) must not land among those lines.
    'exec 2>/dev/null',
    'here=$PWD',
    'echo pwned > tracked.txt',
    'umount "$here" 2>/dev/null && echo "umount worked"',
    'umount -l "$here" 2>/dev/null && echo "lazy umount worked"',
    // All capabilities in a user namespace of its own (no uid map: /proc is read-only): the
    // overlay is locked to what it covers.
    'unshare -Um sh -c \'umount -l "$1" && echo nested > "$1/tracked.txt" && echo "nested umount worked"\' sh "$here" 2>/dev/null',
    "unshare -Um sh -c 'echo nested-ran'",
    'for p in /proc/[0-9]*/root /proc/[0-9]*/cwd; do echo proc > "$p$here/tracked.txt" 2>/dev/null; echo proc > "$p/tracked.txt" 2>/dev/null; done',
    'mount -t overlay overlay -o "lowerdir=$here,upperdir=/tmp/u,workdir=/tmp/w" /tmp 2>/dev/null && echo "mount worked"',
    'echo layer > "$HOME/../layer/upper/tracked.txt" 2>/dev/null && echo "upper reached"',
    'grep -c aide-layer /proc/self/mountinfo',
    'cat tracked.txt',
  ].join('\n');
  const result = await run(attack, 'A');
  assert.equal(result.exitCode, 0, result.tail);
  const lines = result.tail.trim().split('\n');
  assert.ok(!lines.some((line) => line.endsWith('worked') || line === 'upper reached'), result.tail);
  // The nested namespace did start, so its refused unmount was really tried.
  assert.ok(lines.includes('nested-ran'), result.tail);
  assert.equal(lines.at(-2), '1', 'one overlay, over the scratch');
  assert.ok(['pwned', 'proc'].includes(lines.at(-1) ?? ''), result.tail);
  assert.deepEqual(contents(scratch), before, 'the scratch after the attack');
});

test('where no overlay can be mounted (a temp folder whose path has a ","), the commands run under bwrap without layers and write the scratch', async (t) => {
  const temp = join(tempDir(t, 'aide-layers-'), 'a,b');
  mkdirSync(temp);
  const workspace = tempDir(t, 'aide-ws-');
  const isolation = await prepareIsolation({
    allowNetwork: false,
    readOnlyPaths: [workspace],
    env: { PATH, TMPDIR: temp },
    layers: true,
  });
  t.after(() => {
    isolation.dispose();
  });
  assert.equal(isolation.layers, false);
  assert.equal(isolation.report.mechanism, 'bwrap');
  assert.equal(isolation.report.detail, null, 'the same protections as the overlay plan: nothing to report');
});

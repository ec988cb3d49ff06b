// Runs every compiled test file with node:test.
// Node 20's runner does not expand globs and exits 0 on "0 tests", so the list is built here
// and an empty list is an error (see LESSONS.md).
import { mkdtempSync, readdirSync, rmSync, statfsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism, tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const roots = ['dist/test', 'dist/src'];
const filter = process.argv.slice(2);

function collect(dir, out) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) collect(path, out);
    else if (name.endsWith('.test.js')) out.push(path);
  }
  return out;
}

// The end-to-end files first: they are the long ones (up to ~40 s each, against well under 2 s
// for a unit file), and the runner starts files in this order, so the short ones fill the cores
// at the end instead of one long file running alone there.
const files = roots
  .flatMap((root) => collect(root, []).sort())
  .filter((file) => filter.length === 0 || filter.some((f) => file.includes(f)));
if (files.length === 0) {
  console.error(`run-tests: no test files found under ${roots.join(', ')} (did the build run?)`);
  process.exit(1);
}
// Node 20 runs one test file at a time on a 2-core machine (cores - 1); most of the suite waits
// on child processes, so run at least four (on 2 cores, same CPU: 150 s against 182 s with two).
const concurrency = Math.max(4, availableParallelism());
// No test may hang: one that runs past this fails (and names itself) instead of holding CI until
// its own limit. The longest today, in a full run at load 14-21 on 2 cores: the edit corpus suite
// (74 s) and the git-dir suite (67 s).
const timeout = Number(process.env.AIDE_TEST_TIMEOUT_MS ?? 180_000);
// Node's own choice of reporter (spec on a terminal, tap otherwise), plus the slowest files at the
// end (scripts/test-times.mjs): naming a reporter replaces the default, so both are named.
const reporters = [
  '--test-reporter',
  process.stdout.isTTY ? 'spec' : 'tap',
  '--test-reporter-destination',
  'stdout',
  '--test-reporter',
  fileURLToPath(new URL('./test-times.mjs', import.meta.url)),
  '--test-reporter-destination',
  'stdout',
];
/**
 * Where the tests make their repositories, scratch copies and homes. They create and delete tens
 * of thousands of files; on ext4 without a journal (this machine and CI) every file created soon
 * after a delete pays a scan of the recently freed inodes (`recently_deleted`: 15% of all the CPU
 * of the edit corpus file, by perf). So without a TMPDIR of the caller's own, the run uses a
 * folder of its own on /dev/shm when that is a tmpfs with room, and removes it at the end.
 * `AIDE_TEST_TMPDIR` names another parent (`AIDE_TEST_TMPDIR=/tmp` runs on the disk).
 */
const TMPFS_MAGIC = 0x01021994;
function testTempParent() {
  const chosen = process.env.AIDE_TEST_TMPDIR;
  if (chosen !== undefined && chosen !== '') return chosen;
  if (process.env.TMPDIR !== undefined && process.env.TMPDIR !== '') return tmpdir();
  try {
    const shm = statfsSync('/dev/shm');
    // Room for the suite's temp files at their peak (well under 1 GiB today), with a margin.
    if (shm.type === TMPFS_MAGIC && shm.bavail * shm.bsize > 2 * 1024 ** 3) return '/dev/shm';
  } catch {
    // No /dev/shm: the system's temp folder.
  }
  return tmpdir();
}
const testTemp = mkdtempSync(join(testTempParent(), 'aide-tests-'));
const removeTestTemp = () => rmSync(testTemp, { recursive: true, force: true });
// spawnSync holds the loop until the tests end, Ctrl-C included (they get it too): then this runs.
process.on('exit', removeTestTemp);

const result = spawnSync(
  process.execPath,
  ['--test', `--test-concurrency=${concurrency}`, `--test-timeout=${timeout}`, ...reporters, ...files],
  { stdio: 'inherit', env: { ...process.env, TMPDIR: testTemp } },
);
process.exit(result.status ?? 1);

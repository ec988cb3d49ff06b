// Runs every compiled test file with node:test.
// Node 20's runner does not expand globs and exits 0 on "0 tests", so the list is built here
// and an empty list is an error (see LESSONS.md).
import { mkdtempSync, readdirSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { availableParallelism, tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

/**
 * The unit test files (dist/src) run a few to a process. node:test gives each file a process of
 * its own, and for a unit file that start (node, then the modules it shares with the others: zod,
 * the schemas, the edit engine) costs more than its tests: the 150 unit files took 76 CPU-s one to
 * a process and 45 CPU-s in six groups, with the same 1328 tests passing. A group is a file that
 * imports its members, so each keeps its own module and `import.meta.url`, and a failure's
 * location names the member's own file and line. The unit files have no top-level hooks (they
 * would apply to the whole group: a test below keeps it so) and leave no global state behind.
 * The end-to-end files keep a process each: they start servers, signal children, change the
 * environment of their process, and are the long ones. Few unit files (a developer's subset) run
 * as they are.
 */
const UNIT_GROUPS = 10;
const GROUP_BELOW = 8;
function grouped(all) {
  const unit = all.filter((file) => file.startsWith(join('dist', 'src')));
  if (unit.length < GROUP_BELOW) return all;
  // The largest files first, each to the lightest group: sizes stand in for their cost.
  const bySize = unit.map((file) => ({ file, size: statSync(file).size })).sort((a, b) => b.size - a.size);
  const count = Math.min(UNIT_GROUPS, Math.ceil(unit.length / GROUP_BELOW));
  const groups = Array.from({ length: count }, () => ({ size: 0, files: [] }));
  for (const { file, size } of bySize) {
    const lightest = groups.reduce((a, b) => (b.size < a.size ? b : a));
    lightest.size += size;
    lightest.files.push(file);
  }
  const groupFiles = groups.map((group, i) => {
    const path = join(testTemp, `unit-group-${i + 1}-of-${groups.length}.test.mjs`);
    const imports = group.files
      .sort()
      .map((file) => `import ${JSON.stringify(pathToFileURL(resolve(file)).href)};`);
    writeFileSync(
      path,
      `// Unit test files run in one process (scripts/run-tests.mjs).\n${imports.join('\n')}\n`,
    );
    return path;
  });
  return [...all.filter((file) => !unit.includes(file)), ...groupFiles];
}

/**
 * The tests' environment: the caller's, with TMPDIR above and without NODE_EXTRA_CA_CERTS. Node
 * reads and parses that file of certificates at every start, before any code runs: with the
 * system bundle (this machine sets it to /etc/ssl/certs/ca-certificates.crt, 220 KB) a bare
 * `node -e 0` took 0.14 s of CPU instead of 0.02-0.04 under the suite's load, and the suite starts
 * node thousands of times (the CLI under test, fake servers, scripts): 455 user CPU-s against 227
 * the session before it was set. No test speaks TLS (model servers are plain HTTP on 127.0.0.1),
 * so nothing reads those certificates.
 */
function testEnvironment() {
  const env = { ...process.env, TMPDIR: testTemp };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

const result = spawnSync(
  process.execPath,
  [
    '--test',
    `--test-concurrency=${concurrency}`,
    `--test-timeout=${timeout}`,
    ...reporters,
    ...grouped(files),
  ],
  { stdio: 'inherit', env: testEnvironment() },
);
process.exit(result.status ?? 1);

/**
 * The bin and its code caches (src/launch/cli-bundle.ts), on the built package: the build's
 * cache is used as it is; an installed copy, whose files the build's cache does not name, writes
 * the user's cache once and then uses it; a damaged cache never breaks a start.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { BIN, runAide } from '../helpers/cli.js';
import { gitRepo, tempDir } from '../helpers/sandbox.js';

const USER_CACHE = ['.cache', 'aide', 'cli-code-cache.bin'];
const USER_REVIEW_CACHE = ['.cache', 'aide', 'review-code-cache.bin'];

/** The package as npm installs it: same files, other inodes and times than the build's caches name. */
function installedCopy(t: Parameters<typeof tempDir>[0]): string {
  const pkg = tempDir(t, 'aide-pkg-');
  const from = join(dirname(BIN), '..', '..');
  writeFileSync(join(pkg, 'package.json'), readFileSync(join(from, 'package.json')));
  mkdirSync(join(pkg, 'dist'));
  cpSync(join(from, 'dist', 'bundle'), join(pkg, 'dist', 'bundle'), { recursive: true });
  return pkg;
}

test("the built bin uses the build's cache and writes none of the user's", async (t) => {
  assert.ok(existsSync(join(dirname(BIN), 'aide-cli.cjs.cache')), 'the build wrote its code cache');
  const home = tempDir(t, 'aide-home-');
  const repo = gitRepo(t, { 'README.md': '# x\n' });
  const result = await runAide(['status'], { cwd: repo, home });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /No aide act session/);
  assert.equal(existsSync(join(home, ...USER_CACHE)), false);
});

test("an installed copy writes the user's cache once, uses it, and a damaged one costs nothing", async (t) => {
  const pkg = installedCopy(t);
  const bin = join(pkg, 'dist', 'bundle', 'aide.js');
  const home = tempDir(t, 'aide-home-');
  const cache = join(home, ...USER_CACHE);
  const repo = gitRepo(t, { 'README.md': '# x\n' });
  const status = async () => {
    const result = await runAide(['status'], { cwd: repo, home, bin });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /No aide act session/);
  };

  await status();
  assert.ok(existsSync(cache), "the first start wrote the user's cache");
  const header = readFileSync(cache).toString('latin1').split('\n')[0] ?? '';
  assert.match(header, /^aide code cache 1 /);
  assert.match(header, new RegExp(`"size":${statSync(join(pkg, 'dist', 'bundle', 'aide-cli.cjs')).size}`));
  const written = statSync(cache).mtimeMs;

  await status();
  assert.equal(statSync(cache).mtimeMs, written, 'a start that found a cache it could use wrote none');

  // Damaged after its header: V8 refuses it, the start goes on without, and the cache is made again.
  const bytes = readFileSync(cache);
  bytes.fill(0x5a, header.length + 1);
  writeFileSync(cache, bytes);
  await status();
  assert.notDeepEqual(readFileSync(cache), bytes);

  // The bundle rebuilt (another time): the old cache is not offered; a new one replaces it.
  const later = new Date(Date.now() + 10_000);
  utimesSync(join(pkg, 'dist', 'bundle', 'aide-cli.cjs'), later, later);
  await status();
  const newHeader = readFileSync(cache).toString('latin1').split('\n')[0] ?? '';
  assert.notEqual(newHeader, header);
});

test("`aide review` starts from its own bundle and cache: the build's, else the user's own", async (t) => {
  assert.ok(existsSync(join(dirname(BIN), 'aide-review.cjs.cache')), 'the build wrote its code cache');
  const repo = gitRepo(t, { 'README.md': '# x\n' });
  const review = async (bin: string, home: string) => {
    const result = await runAide(['review', '--staged'], {
      cwd: repo,
      home,
      bin,
      env: { AIDE_SKIP: 'verify' },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /every check passed or was skipped/);
  };
  const builtHome = tempDir(t, 'aide-home-');
  await review(BIN, builtHome);
  assert.equal(existsSync(join(builtHome, '.cache', 'aide')), false, "the build's caches fit: none written");

  const pkg = installedCopy(t);
  const home = tempDir(t, 'aide-home-');
  await review(join(pkg, 'dist', 'bundle', 'aide.js'), home);
  const header =
    readFileSync(join(home, ...USER_REVIEW_CACHE))
      .toString('latin1')
      .split('\n')[0] ?? '';
  assert.match(header, new RegExp(`"size":${statSync(join(pkg, 'dist', 'bundle', 'aide-review.cjs')).size}`));
  assert.equal(existsSync(join(home, ...USER_CACHE)), false, 'the whole CLI did not start');
});

test("a start under other node flags keeps its own cache and leaves the build's to the others", async (t) => {
  const repo = gitRepo(t, { 'README.md': '# x\n' });
  const home = tempDir(t, 'aide-home-');
  const cache = join(home, ...USER_REVIEW_CACHE);
  // A V8 flag: V8 refuses a cache made without it, and one made with it for a start without it.
  const flagged = { NODE_OPTIONS: '--max-semi-space-size=32' };
  const review = async (env: Record<string, string>) => {
    const result = await runAide(['review', '--staged'], {
      cwd: repo,
      home,
      env: { AIDE_SKIP: 'verify', ...env },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /every check passed or was skipped/);
  };

  await review(flagged);
  const written = readFileSync(cache);
  const header = written.toString('latin1').split('\n')[0] ?? '';
  assert.match(
    header,
    /"flags":"--max-semi-space-size=32"/,
    'the flagged start wrote a cache naming its flags',
  );
  // Without the flag (a GUI's git running the hook): the build's cache, the flagged one left alone.
  await review({});
  assert.deepEqual(
    readFileSync(cache),
    written,
    "a start without the flag wrote nothing: the build's cache fit",
  );
  await review(flagged);
  assert.deepEqual(readFileSync(cache), written, 'the flagged start took its own cache again');
});

// Writes a build's code cache (dist/bundle/<bundle>.cjs.cache, src/launch/cli-bundle.ts) for the
// bundle named by the first argument, aide-cli or aide-review: compiles the bundle, runs the
// commands most of its starts are made of, in a throwaway repository with a throwaway home, and
// saves the bytecode V8 has made by then. Run by scripts/bundle.mjs, once per bundle, each in a
// process of its own (a fresh V8 with node's default flags, as the bin will have).
//
// What runs here decides what a start finds compiled; the rest is compiled as it is first called,
// as it would be without a cache. More is not free: V8 reads the whole cache back at every start.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { cacheHeader, compileCommonJs, writeCache } from '../dist/src/infra/code-cache/compiled-commonjs.js';
import { builtCacheFile, cliBundleFile } from '../dist/src/launch/cli-bundle.js';

const bundleName = process.argv[2];
if (bundleName !== 'aide-cli' && bundleName !== 'aide-review')
  throw new Error(`usage: warm-code-cache.mjs aide-cli|aide-review, not ${bundleName}`);

const root = mkdtempSync(join(tmpdir(), 'aide-warm-'));
try {
  const repo = join(root, 'repo');
  const home = join(root, 'home');
  // The scratch copies (a verified review keeps one) go under the throwaway folder too.
  const temp = join(root, 'tmp');
  mkdirSync(repo);
  mkdirSync(home);
  mkdirSync(temp);
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TMPDIR: temp,
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_CONFIG_HOME: join(home, '.config'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'aide',
    GIT_AUTHOR_EMAIL: 'aide@example.invalid',
    GIT_COMMITTER_NAME: 'aide',
    GIT_COMMITTER_EMAIL: 'aide@example.invalid',
    NO_COLOR: '1',
  };
  const git = (...args) => {
    const result = spawnSync('git', args, { cwd: repo, env, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  };
  git('init', '-q');
  writeFileSync(join(repo, 'README.md'), '# warm\n');
  writeFileSync(join(repo, 'index.js'), 'export const answer = 41;\n');
  git('add', '-A');
  git('commit', '-qm', 'first');

  const bundle = cliBundleFile(bundleName);
  const { exports: cli, script } = compileCommonJs(bundle, undefined, true);
  const quiet = { write: () => true, isTTY: false };
  const run = (...args) =>
    cli.runCli(args, {
      stdout: quiet,
      stderr: quiet,
      stdin: Object.assign(Readable.from([]), { isTTY: false }),
      env,
      cwd: repo,
    });
  const reply = join(root, 'reply.md');
  writeFileSync(
    reply,
    'index.js\n```\n<<<<<<< SEARCH\nexport const answer = 41;\n=======\nexport const answer = 42;\n>>>>>>> REPLACE\n```\n',
  );
  // Exit codes do not matter here (a machine without a sandbox refuses verify): what ran did.
  if (bundleName === 'aide-review') {
    // What a hook runs, in a workspace set up as `aide init` leaves it (init is not in this bundle),
    // with a verify command, as a hook that verifies has: the scratch, the sandbox and the verify
    // flow are most of a verified review's code (compiled without a cache: about 5 ms a commit).
    // The first review, which makes the kept scratch, runs in a process of its own: what only it
    // runs would make every start read a larger cache. This one takes the scratch up, as every
    // later review does.
    const aide = (...args) => {
      const result = spawnSync(
        process.execPath,
        [fileURLToPath(new URL('../dist/bundle/aide.js', import.meta.url)), ...args],
        { cwd: repo, env, encoding: 'utf8' },
      );
      if (args[0] === 'init' && result.status !== 0)
        throw new Error(`aide init: ${result.stdout}${result.stderr}`);
    };
    aide('init');
    writeFileSync(
      join(repo, '.aide', 'sandbox.json'),
      `${JSON.stringify({ commands: [{ name: 'check', run: 'true' }] })}\n`,
    );
    writeFileSync(join(repo, 'index.js'), 'export const answer = 42;\n');
    git('add', '-A');
    aide('review', '--staged');
    writeFileSync(join(repo, 'index.js'), 'export const answer = 43;\n');
    git('add', '-A');
    await run('review', '--staged');
  } else {
    await run('init');
    await run('status');
    await run('status', '--help');
    await run('apply', reply, '--dry-run');
    await run('apply', reply);
    await run('checkpoints');
    git('add', '-A');
    await run('review', '--staged');
    await run('verify');
  }
  writeCache(builtCacheFile(bundle), cacheHeader(statSync(bundle)), script.createCachedData());
  // writeCache never throws (a start must not fail on a cache); a build must know it has one.
  statSync(builtCacheFile(bundle));
} finally {
  rmSync(root, { recursive: true, force: true });
}

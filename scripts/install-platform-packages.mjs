// After `npm ci --omit=optional` (.ci/run): installs the two optional platform packages the build
// and the tests load, for this machine only, at the version and integrity package-lock.json pins.
//
// Why: a plain `npm ci` installs every optional package whose os and cpu match, and for
// node-llama-cpp (the grammar tests' llama.cpp parser, run on the CPU) that includes its CUDA and
// Vulkan builds: 630 MB of the 886 MB of node_modules, and 20 of npm ci's 34 seconds with a warm
// npm cache. npm has no way to leave out one optional package (an `overrides` entry pointing at a
// placeholder fails npm ci's own lock check), so CI leaves out all of them and adds back these:
//   @esbuild/<platform>-<arch>       the bundler's binary (npm run build)
//   @node-llama-cpp/<platform>-<arch> llama.cpp for the CPU (test/helpers/llama-grammar.ts)
// A plain `npm ci` on a developer's machine needs none of this.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const wanted = [
  `@esbuild/${process.platform}-${process.arch}`,
  `@node-llama-cpp/${process.platform}-${process.arch}`,
];

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (result.error !== undefined || result.status !== 0) {
    const why = result.error?.message ?? result.stderr.trim();
    throw new Error(`${command} ${args.join(' ')} failed: ${why}`);
  }
  return result.stdout;
}

const downloads = mkdtempSync(join(tmpdir(), 'aide-platform-packages-'));
try {
  const pinned = wanted.map((name) => {
    const entry = lock.packages?.[`node_modules/${name}`];
    if (entry === undefined) {
      throw new Error(
        `package-lock.json has no ${name}: this platform (${process.platform}-${process.arch}) is not one ` +
          'the lock file knows. Run a plain `npm ci` instead.',
      );
    }
    return { name, version: entry.version, integrity: entry.integrity };
  });
  // One npm process for both; --prefer-offline: npm ci has just filled the cache it can use.
  const packed = JSON.parse(
    run('npm', [
      'pack',
      ...pinned.map((p) => `${p.name}@${p.version}`),
      '--json',
      '--prefer-offline',
      '--pack-destination',
      downloads,
    ]),
  );
  for (const want of pinned) {
    const got = packed.find((p) => p.name === want.name);
    if (got?.integrity !== want.integrity) {
      throw new Error(
        `${want.name}@${want.version}: the registry's integrity ${got?.integrity} is not the lock file's ${want.integrity}`,
      );
    }
    const target = join('node_modules', want.name);
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target, { recursive: true });
    run('tar', ['-xzf', join(downloads, got.filename), '-C', target, '--strip-components=1']);
    console.log(`installed ${want.name}@${want.version}`);
  }
} finally {
  rmSync(downloads, { recursive: true, force: true });
}

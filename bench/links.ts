/**
 * Linked-folder benchmark: what linking node_modules entry by entry (a real folder of symlinks,
 * caches left out: src/infra/shadow/scratch/links.ts) costs a scratch, against an empty
 * node_modules (one entry), on a node_modules of `--entries` top-level entries (1,000 by
 * default; a tenth of them scoped `@org` folders). Measured: opening and disposing a scratch
 * (median of `--runs`), and the glob resolution of the default `link` on a monorepo-shaped tree
 * of `--packages` packages, each with its own node_modules.
 *
 * Run: npm run build && node dist/bench/links.js [--entries 1000] [--runs 9] [--packages 200]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveLinkPaths } from '../src/infra/shadow/scratch/links.js';
import { ShadowScratches } from '../src/infra/shadow/scratch/worktree-scratch.js';
import { ShadowStore } from '../src/infra/shadow/shadow-store.js';
import { DEFAULT_LINKS } from '../src/shared/links.js';
import { checkFlags } from './stats.js';

const USAGE = 'npm run build && node dist/bench/links.js [--entries 1000] [--runs 9] [--packages 200]';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

function gitEnv(home: string): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'b',
    GIT_AUTHOR_EMAIL: 'b@example.invalid',
    GIT_COMMITTER_NAME: 'b',
    GIT_COMMITTER_EMAIL: 'b@example.invalid',
  };
}

function workspace(dir: string, entries: number): string {
  const root = join(dir, `ws-${entries}`);
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, '.gitignore'), 'node_modules\n');
  writeFileSync(join(root, 'src/index.js'), 'export {};\n');
  mkdirSync(join(root, 'node_modules'));
  for (let i = 0; i < entries; i++) {
    const name = i % 10 === 0 ? `@org${i}/pkg` : `pkg-${i}`;
    mkdirSync(join(root, 'node_modules', name), { recursive: true });
    writeFileSync(join(root, 'node_modules', name, 'index.js'), 'module.exports = 1;\n');
  }
  execFileSync('git', ['init', '-q'], { cwd: root, env: gitEnv(dir) });
  execFileSync('git', ['add', '-A'], { cwd: root, env: gitEnv(dir) });
  execFileSync('git', ['commit', '-qm', 'init'], { cwd: root, env: gitEnv(dir) });
  return root;
}

async function openDispose(root: string, home: string, runs: number): Promise<number> {
  const store = await ShadowStore.open(root, gitEnv(home), { maxFileBytes: 1 << 20, command: 'bench' });
  try {
    const scratches = new ShadowScratches(store.git, store.workspace, {
      tempRoot: mkdtempSync(join(home, 'tmp-')),
      links: ['node_modules'],
    });
    const tree = (await store.snapshot()).tree;
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      const scratch = await scratches.open(`b${i}`, tree);
      await scratch.dispose();
      times.push(performance.now() - start);
    }
    return median(times);
  } finally {
    await store.close();
  }
}

function monorepo(dir: string, packages: number): string {
  const root = join(dir, 'mono');
  for (let i = 0; i < packages; i++) {
    const pkg = join(root, i % 2 === 0 ? 'packages' : 'apps', `p${i}`);
    mkdirSync(join(pkg, 'src/lib'), { recursive: true });
    mkdirSync(join(pkg, 'node_modules/dep/node_modules/inner'), { recursive: true });
  }
  mkdirSync(join(root, 'node_modules/dep'), { recursive: true });
  return root;
}

async function main(): Promise<void> {
  checkFlags(process.argv.slice(2), USAGE);
  const entries = option('entries', 1000);
  const runs = option('runs', 9);
  const packages = option('packages', 200);
  const dir = mkdtempSync(join(tmpdir(), 'aide-bench-links-'));
  try {
    const full = await openDispose(workspace(dir, entries), dir, runs);
    const empty = await openDispose(workspace(dir, 1), dir, runs);
    console.log(
      `scratch open + dispose, node_modules of ${entries} entries: ${full.toFixed(1)} ms (median of ${runs})`,
    );
    console.log(`scratch open + dispose, node_modules of 1 entry: ${empty.toFixed(1)} ms`);
    console.log(
      `linking entry by entry: ${(full - empty).toFixed(1)} ms for ${entries} entries (${(((full - empty) / entries) * 1000).toFixed(1)} µs an entry)`,
    );
    const mono = monorepo(dir, packages);
    const times: number[] = [];
    let found = 0;
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      found = (await resolveLinkPaths(mono, DEFAULT_LINKS)).length;
      times.push(performance.now() - start);
    }
    console.log(
      `default link globs on a monorepo of ${packages} packages: ${found} folders in ${median(times).toFixed(1)} ms`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

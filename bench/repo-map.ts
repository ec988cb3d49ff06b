/**
 * Repository map benchmark: the time to load tree-sitter's WASM runtime and one grammar, then to
 * build the map (definitions and text) cold (empty cache) and warm (the cache from the cold run),
 * for a generated repository of mixed languages or for a real git checkout.
 *
 * Goal: the warm map a small fraction of the cold one (it parses nothing: every blob is cached).
 *
 * Run: npm run bench:repo-map [-- --files 2000] [--repo PATH] [--task TEXT] [--print]
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRepoMap } from '../src/core/agent/repo-map.js';
import type { RepoFile, RepoReader } from '../src/core/ports/repo-reader.js';
import { TreeSitterDefinitionIndex } from '../src/infra/repo-map/tree-sitter-index.js';
import { checkFlags } from './stats.js';

const USAGE = 'npm run bench:repo-map [-- --files 2000] [--repo PATH] [--task TEXT] [--print]';

/** A snapshot in memory, or read from a checkout (the files `git ls-files -s` lists, with their blob). */
interface Snapshot {
  files: RepoFile[];
  reader: RepoReader;
}

function readerOf(files: RepoFile[], read: (path: string) => Uint8Array | null): RepoReader {
  return {
    id: 'bench',
    listFiles: () => Promise.resolve(files),
    readFile: (path) => {
      const bytes = read(path);
      return Promise.resolve(bytes === null ? { ok: false, reason: 'missing' } : { ok: true, bytes });
    },
    search: () => Promise.resolve({ ok: true, hits: [], truncated: false }),
  };
}

function generated(count: number): Snapshot {
  const makers: Array<[string, (i: number) => string]> = [
    [
      'ts',
      (i) =>
        `export interface Item${i} { id: number }\nexport class Store${i}<T> {\n  add(x: T) {}\n  remove(x: T) {}\n}\nexport function make${i}(a: number, b: string): Item${i} {\n  return { id: a };\n}\n`,
    ],
    [
      'js',
      (i) =>
        `const helper${i} = (a, b) => a + b;\nfunction load${i}(path) {\n  return helper${i}(path, 1);\n}\nmodule.exports = { helper${i}, load${i} };\n`,
    ],
    [
      'py',
      (i) =>
        `import os\n\nclass Model${i}:\n    def __init__(self, x):\n        self.x = x\n\n    def run(self):\n        return self.x\n\ndef main${i}(argv):\n    return Model${i}(argv).run()\n`,
    ],
    [
      'go',
      (i) =>
        `package p${i % 20}\n\ntype Thing${i} struct{ n int }\n\nfunc (t *Thing${i}) Get() int { return t.n }\n\nfunc New${i}(n int) *Thing${i} { return &Thing${i}{n} }\n`,
    ],
    ['md', (i) => `# Notes ${i}\n\nSome prose.\n`],
  ];
  const contents = new Map<string, Uint8Array>();
  for (let i = 0; i < count; i++) {
    const maker = makers[i % makers.length];
    if (maker === undefined) continue;
    const [ext, make] = maker;
    const body = make(i).repeat(1 + (i % 4));
    contents.set(`pkg${i % 37}/sub${i % 5}/file${i}.${ext}`, new TextEncoder().encode(body));
  }
  const files = [...contents].map(([path, bytes]) => ({
    path,
    bytes: bytes.length,
    kind: 'file' as const,
    blob: createHash('sha1').update(bytes).digest('hex'),
  }));
  files.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { files, reader: readerOf(files, (path) => contents.get(path) ?? null) };
}

function checkout(root: string): Snapshot {
  const listing = execFileSync('git', ['-C', root, 'ls-files', '-s', '-z'], {
    maxBuffer: 1 << 28,
  }).toString();
  const files: RepoFile[] = [];
  for (const entry of listing.split('\0')) {
    const match = /^(\d+) ([0-9a-f]+) \d\t(.*)$/s.exec(entry);
    if (match === null || match[1] === '160000') continue;
    let bytes = 0;
    try {
      bytes = readFileSync(join(root, match[3] ?? '')).length;
    } catch {
      continue;
    }
    files.push({
      path: match[3] ?? '',
      bytes,
      kind: match[1] === '120000' ? 'symlink' : 'file',
      blob: match[2] ?? '',
    });
  }
  return {
    files,
    reader: readerOf(files, (path) => {
      try {
        return readFileSync(join(root, path));
      } catch {
        return null;
      }
    }),
  };
}

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await run();
  return [value, performance.now() - start];
}

async function main(): Promise<void> {
  checkFlags(process.argv.slice(2), USAGE);
  const argv = process.argv.slice(2);
  const at = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  const repo = at('--repo');
  const snapshot = repo === undefined ? generated(Number(at('--files') ?? 2000)) : checkout(repo);
  const dir = mkdtempSync(join(tmpdir(), 'aide-bench-map-'));
  try {
    const one = readerOf([{ path: 'a.js', bytes: 16, kind: 'file', blob: 'x' }], () =>
      new TextEncoder().encode('function a() {}\n'),
    );
    const [, loadMs] = await timed(() =>
      new TreeSitterDefinitionIndex().definitions(
        [{ path: 'a.js', bytes: 16, kind: 'file', blob: 'x' }],
        one,
      ),
    );
    console.log(`WASM runtime + JavaScript grammar, loaded and one file parsed: ${loadMs.toFixed(1)} ms`);

    const cachePath = join(dir, 'cache', 'definitions.json');
    const build = async () => {
      const index = new TreeSitterDefinitionIndex({ cachePath });
      const definitions = await index.definitions(snapshot.files, snapshot.reader);
      const map = buildRepoMap({
        files: snapshot.files,
        definitions,
        task: at('--task') ?? 'Fix the report',
        budgetTokens: 3200,
        estimateTokens: (text) => Math.ceil(text.length / 4),
      });
      return { index, map };
    };
    const [cold, coldMs] = await timed(build);
    const [warm, warmMs] = await timed(build);
    const label = repo ?? `generated (${snapshot.files.length} files)`;
    console.log(`${label}: ${snapshot.files.length} files`);
    console.log(`cold: ${coldMs.toFixed(0)} ms (${JSON.stringify(cold.index.stats)})`);
    console.log(`warm: ${warmMs.toFixed(0)} ms (${JSON.stringify(warm.index.stats)})`);
    if (argv.includes('--print')) console.log(cold.map);
    console.log(
      `warm/cold: ${(warmMs / coldMs).toFixed(3)}; map ${cold.map.length} chars, same text: ${cold.map === warm.map}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

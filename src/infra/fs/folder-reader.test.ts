import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { compilePattern, FolderReader } from './folder-reader.js';

describe('the folder reader of a scratch', () => {
  let base: string;
  let root: string;

  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'aide-folder-reader-')));
    root = join(base, 'scratch');
    const outside = join(base, 'outside');
    await mkdir(join(root, 'src/deep'), { recursive: true });
    await mkdir(join(root, '.git'), { recursive: true });
    await mkdir(join(root, 'pkg/node_modules/dep'), { recursive: true });
    await mkdir(join(root, 'dist'), { recursive: true });
    await mkdir(outside);
    await writeFile(join(outside, 'secret.txt'), 'TOKEN=1\n');
    await writeFile(join(root, 'src/a.ts'), 'export const total = 1;\nexport function totalOf() {}\n');
    await writeFile(join(root, 'src/deep/b.py'), 'def total():\n    return 2\n');
    await writeFile(join(root, 'run.sh'), '#!/bin/sh\necho total\n');
    await chmod(join(root, 'run.sh'), 0o755);
    await writeFile(join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0, 0, 0x74, 0x6f, 0x74, 0x61, 0x6c]));
    await writeFile(join(root, '.git/config'), 'total\n');
    await writeFile(join(root, 'pkg/node_modules/dep/index.js'), 'total\n');
    await writeFile(join(root, 'dist/out.js'), 'total\n');
    await symlink(join(outside, 'secret.txt'), join(root, 'leak.txt'));
    await symlink(outside, join(root, 'linked'));
  });

  after(() => rm(base, { recursive: true, force: true }));

  const reader = (ignored: string[] = []) =>
    new FolderReader({
      root,
      id: 'scratch:1',
      ignored: (paths) => Promise.resolve(paths.filter((p) => ignored.includes(p)).map((path) => ({ path }))),
    });

  test('lists files sorted, symlinks as symlinks, without .git, node_modules and ignored files', async () => {
    const files = await reader(['dist/out.js']).listFiles();
    assert.deepEqual(
      files.map((f) => [f.path, f.kind]),
      [
        ['leak.txt', 'symlink'],
        ['linked', 'symlink'],
        ['logo.png', 'file'],
        ['run.sh', 'executable'],
        ['src/a.ts', 'file'],
        ['src/deep/b.py', 'file'],
      ],
    );
    const a = files.find((f) => f.path === 'src/a.ts');
    const gitBlob = execFileSync('git', ['hash-object', join(root, 'src/a.ts')], { encoding: 'utf8' }).trim();
    assert.equal(a?.blob, gitBlob, "blob ids are git's, so caches keyed on them hit");
    assert.equal(files.find((f) => f.path === 'leak.txt')?.bytes, join(base, 'outside/secret.txt').length);
  });

  test('reads a file as it is now, and never through a symlink or into .git', async () => {
    const r = reader();
    const read = await r.readFile('src/a.ts');
    assert.ok(read.ok);
    assert.match(new TextDecoder().decode(read.bytes), /export const total/);
    await writeFile(join(root, 'src/a.ts'), 'export const total = 10;\n');
    const again = await r.readFile('src/a.ts');
    assert.ok(again.ok);
    assert.equal(new TextDecoder().decode(again.bytes), 'export const total = 10;\n');
    assert.deepEqual(await r.readFile('leak.txt'), {
      ok: false,
      reason: 'symlink',
      target: join(base, 'outside/secret.txt'),
    });
    assert.equal((await r.readFile('linked/secret.txt')).ok, false);
    assert.deepEqual(await r.readFile('.git/config'), { ok: false, reason: 'missing' });
    assert.deepEqual(await r.readFile('src'), { ok: false, reason: 'directory' });
    assert.deepEqual(await r.readFile('src/none.ts'), { ok: false, reason: 'missing' });
    assert.deepEqual(await r.readFile('../outside/secret.txt'), { ok: false, reason: 'missing' });
  });

  test('searches text files by ERE with counts and lines, under a path and a glob, capped', async () => {
    const r = reader(['dist/out.js']);
    const all = await r.search({ pattern: 'total', maxFiles: 50, maxLinesPerFile: 1 });
    assert.ok(all.ok);
    assert.deepEqual(
      all.hits.map((h) => [h.path, h.count]),
      [
        ['run.sh', 1],
        ['src/a.ts', 1],
        ['src/deep/b.py', 1],
      ],
      'no binary, symlink, .git, node_modules or ignored file',
    );
    const py = await r.search({
      pattern: 'def [[:alpha:]]+\\(',
      glob: '*.py',
      maxFiles: 50,
      maxLinesPerFile: 5,
    });
    assert.ok(py.ok);
    assert.deepEqual(py.hits, [
      { path: 'src/deep/b.py', count: 1, lines: [{ line: 1, text: 'def total():' }] },
    ]);
    const under = await r.search({ pattern: 'total', path: 'src/deep', maxFiles: 50, maxLinesPerFile: 5 });
    assert.ok(under.ok);
    assert.deepEqual(
      under.hits.map((h) => h.path),
      ['src/deep/b.py'],
    );
    const capped = await r.search({ pattern: 'total', maxFiles: 2, maxLinesPerFile: 5 });
    assert.ok(capped.ok);
    assert.equal(capped.hits.length, 2);
    assert.equal(capped.truncated, true);
  });

  test('a pattern that is not a regular expression is a bad_pattern answer', async () => {
    const bad = await reader().search({ pattern: 'a(b', maxFiles: 5, maxLinesPerFile: 5 });
    assert.equal(bad.ok, false);
    assert.equal(compilePattern('[[:digit:]]+').ok, true);
  });

  test('the walk stops at maxFiles', async () => {
    const files = await new FolderReader({ root, id: 'x', maxFiles: 2 }).listFiles();
    assert.equal(files.length, 2);
  });
});

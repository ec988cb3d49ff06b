import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { tempDir, writeTree } from '../../../test/helpers/sandbox.js';
import { NodeFileSystem } from './node-file-system.js';

const fs = new NodeFileSystem();
const bytes = (text: string) => new TextEncoder().encode(text);

/** Every file and folder under root, relative, sorted: leftover temp files show up here. */
function listing(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      out.push(relative(root, full));
      if (statSync(full).isDirectory()) walk(full);
    }
  };
  walk(root);
  return out;
}

const mode = (path: string) => statSync(path).mode & 0o777;

test('commit replaces a file and leaves no temp file behind', async (t) => {
  const root = tempDir(t);
  writeTree(root, { 'a.txt': 'old\n' });
  await fs.commit([{ kind: 'write', path: join(root, 'a.txt'), content: bytes('new\n'), previous: bytes('old\n') }]);
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'new\n');
  assert.deepEqual(listing(root), ['a.txt']);
});

test('commit keeps the mode of an executable script', async (t) => {
  const root = tempDir(t);
  writeTree(root, { 'run.sh': '#!/bin/sh\necho old\n' });
  chmodSync(join(root, 'run.sh'), 0o755);
  await fs.commit([{ kind: 'write', path: join(root, 'run.sh'), content: bytes('#!/bin/sh\necho new\n'), previous: bytes('#!/bin/sh\necho old\n') }]);
  assert.equal(mode(join(root, 'run.sh')), 0o755);
  assert.equal(readFileSync(join(root, 'run.sh'), 'utf8'), '#!/bin/sh\necho new\n');
});

test('commit creates missing folders for a new file', async (t) => {
  const root = tempDir(t);
  await fs.commit([{ kind: 'write', path: join(root, 'new/deep/file.ts'), content: bytes('x\n'), previous: null }]);
  assert.equal(readFileSync(join(root, 'new/deep/file.ts'), 'utf8'), 'x\n');
  assert.deepEqual(listing(root), ['new', 'new/deep', 'new/deep/file.ts']);
});

test('commit deletes a file', async (t) => {
  const root = tempDir(t);
  writeTree(root, { 'gone.txt': 'bye\n', 'kept.txt': 'hi\n' });
  await fs.commit([{ kind: 'delete', path: join(root, 'gone.txt'), previous: bytes('bye\n') }]);
  assert.deepEqual(listing(root), ['kept.txt']);
});

/** A target that cannot be renamed over, even as root: a folder with a file in it. */
function blockedTarget(root: string): string {
  writeTree(root, { 'blocked/inside.txt': 'keep\n' });
  return join(root, 'blocked');
}

test('a failed second write rolls the first back to its previous bytes and leaves no temp file', async (t) => {
  const root = tempDir(t);
  writeTree(root, { 'a.txt': 'before\n' });
  const blocked = blockedTarget(root);
  const commit = fs.commit([
    { kind: 'write', path: join(root, 'a.txt'), content: bytes('after\n'), previous: bytes('before\n') },
    { kind: 'write', path: blocked, content: bytes('x\n'), previous: null },
  ]);
  await assert.rejects(commit, { code: 'EISDIR' });
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'before\n');
  assert.deepEqual(listing(root), ['a.txt', 'blocked', 'blocked/inside.txt']);
});

test('a failed commit removes the files and folders it created', async (t) => {
  const root = tempDir(t);
  const blocked = blockedTarget(root);
  const commit = fs.commit([
    { kind: 'write', path: join(root, 'new/dir/file.ts'), content: bytes('x\n'), previous: null },
    { kind: 'write', path: blocked, content: bytes('x\n'), previous: null },
  ]);
  await assert.rejects(commit);
  assert.deepEqual(listing(root), ['blocked', 'blocked/inside.txt']);
});

test('a failed commit puts back a file it had already deleted', async (t) => {
  const root = tempDir(t);
  writeTree(root, { 'gone.txt': 'bye\n' });
  const blocked = blockedTarget(root);
  const commit = fs.commit([
    { kind: 'delete', path: join(root, 'gone.txt'), previous: bytes('bye\n') },
    { kind: 'write', path: blocked, content: bytes('x\n'), previous: null },
  ]);
  await assert.rejects(commit);
  assert.equal(readFileSync(join(root, 'gone.txt'), 'utf8'), 'bye\n');
  assert.deepEqual(listing(root), ['blocked', 'blocked/inside.txt', 'gone.txt']);
});

test('a write that fails while staging (its folder would go through a file) changes nothing', async (t) => {
  const root = tempDir(t);
  writeTree(root, { 'a.txt': 'before\n', 'plain.txt': 'p\n' });
  const commit = fs.commit([
    { kind: 'write', path: join(root, 'a.txt'), content: bytes('after\n'), previous: bytes('before\n') },
    { kind: 'write', path: join(root, 'plain.txt/sub/x.ts'), content: bytes('x\n'), previous: null },
  ]);
  await assert.rejects(commit, { code: 'ENOTDIR' });
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'before\n');
  assert.deepEqual(listing(root), ['a.txt', 'plain.txt']);
});

test(
  'a rolled-back file keeps its mode',
  async (t) => {
    const root = tempDir(t);
    writeTree(root, { 'run.sh': '#!/bin/sh\n' });
    chmodSync(join(root, 'run.sh'), 0o755);
    const commit = fs.commit([
      { kind: 'write', path: join(root, 'run.sh'), content: bytes('#!/bin/sh\nexit 1\n'), previous: bytes('#!/bin/sh\n') },
      { kind: 'write', path: blockedTarget(root), content: bytes('x\n'), previous: null },
    ]);
    await assert.rejects(commit);
    assert.equal(readFileSync(join(root, 'run.sh'), 'utf8'), '#!/bin/sh\n');
    assert.equal(mode(join(root, 'run.sh')), 0o755);
  },
);

test('readFile of a missing file, or of a path through a file, is null', async (t) => {
  const root = tempDir(t);
  writeTree(root, { 'a.txt': 'a' });
  assert.equal(await fs.readFile(join(root, 'missing.txt')), null);
  assert.equal(await fs.readFile(join(root, 'a.txt/b')), null);
  assert.equal(new TextDecoder().decode((await fs.readFile(join(root, 'a.txt'))) ?? undefined), 'a');
});

test('lstat reports symlinks as symlinks and missing paths as null; realpath resolves them', async (t) => {
  const root = tempDir(t);
  mkdirSync(join(root, 'dir'));
  writeFileSync(join(root, 'dir/f.txt'), 'f');
  symlinkSync('dir/f.txt', join(root, 'link'));
  assert.equal((await fs.lstat(join(root, 'link')))?.kind, 'symlink');
  assert.equal((await fs.lstat(join(root, 'dir')))?.kind, 'directory');
  assert.equal((await fs.lstat(join(root, 'dir/f.txt')))?.kind, 'file');
  assert.equal(await fs.lstat(join(root, 'nope')), null);
  assert.equal(await fs.realpath(join(root, 'link')), await fs.realpath(join(root, 'dir/f.txt')));
  assert.equal(await fs.realpath(join(root, 'nope')), null);
});

import assert from 'node:assert/strict';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { tempDir, writeTree } from '../../../test/helpers/sandbox.js';
import { NodeFileSystem, sweepTempFiles, tempStem } from './node-file-system.js';

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
  await fs.commit([
    { kind: 'write', path: join(root, 'a.txt'), content: bytes('new\n'), previous: bytes('old\n') },
  ]);
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'new\n');
  assert.deepEqual(listing(root), ['a.txt']);
});

test('commit keeps the mode of an executable script', async (t) => {
  const root = tempDir(t);
  writeTree(root, { 'run.sh': '#!/bin/sh\necho old\n' });
  chmodSync(join(root, 'run.sh'), 0o755);
  await fs.commit([
    {
      kind: 'write',
      path: join(root, 'run.sh'),
      content: bytes('#!/bin/sh\necho new\n'),
      previous: bytes('#!/bin/sh\necho old\n'),
    },
  ]);
  assert.equal(mode(join(root, 'run.sh')), 0o755);
  assert.equal(readFileSync(join(root, 'run.sh'), 'utf8'), '#!/bin/sh\necho new\n');
});

test('commit creates missing folders for a new file', async (t) => {
  const root = tempDir(t);
  await fs.commit([
    { kind: 'write', path: join(root, 'new/deep/file.ts'), content: bytes('x\n'), previous: null },
  ]);
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

test('commit writes content given as pieces, each asked for only while the file is written', async (t) => {
  const root = tempDir(t);
  writeTree(root, { 'a.txt': 'old\n' });
  const asked: string[] = [];
  const pieces = (name: string, texts: string[]) => ({
    *chunks() {
      for (const text of texts) {
        asked.push(`${name}:${text}`);
        yield bytes(text);
      }
    },
  });
  await fs.commit([
    {
      kind: 'write',
      path: join(root, 'a.txt'),
      content: pieces('a', ['new ', '', 'text\n']),
      previous: null,
    },
    { kind: 'write', path: join(root, 'sub', 'b.txt'), content: pieces('b', ['café ☕\n']), previous: null },
  ]);
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'new text\n');
  assert.equal(readFileSync(join(root, 'sub', 'b.txt'), 'utf8'), 'café ☕\n');
  assert.deepEqual(asked, ['a:new ', 'a:', 'a:text\n', 'b:café ☕\n']);
  assert.deepEqual(listing(root), ['a.txt', 'sub', 'sub/b.txt']);
});

test('a source of pieces that throws half way leaves the old file and no temp file', async (t) => {
  const root = tempDir(t);
  writeTree(root, { 'a.txt': 'before\n' });
  const commit = fs.commit([
    {
      kind: 'write',
      path: join(root, 'a.txt'),
      content: {
        *chunks() {
          yield bytes('half');
          throw new Error('encoding failed');
        },
      },
      previous: bytes('before\n'),
    },
  ]);
  await assert.rejects(commit, /encoding failed/);
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'before\n');
  assert.deepEqual(listing(root), ['a.txt']);
});

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

test('a rolled-back file keeps its mode', async (t) => {
  const root = tempDir(t);
  writeTree(root, { 'run.sh': '#!/bin/sh\n' });
  chmodSync(join(root, 'run.sh'), 0o755);
  const commit = fs.commit([
    {
      kind: 'write',
      path: join(root, 'run.sh'),
      content: bytes('#!/bin/sh\nexit 1\n'),
      previous: bytes('#!/bin/sh\n'),
    },
    { kind: 'write', path: blockedTarget(root), content: bytes('x\n'), previous: null },
  ]);
  await assert.rejects(commit);
  assert.equal(readFileSync(join(root, 'run.sh'), 'utf8'), '#!/bin/sh\n');
  assert.equal(mode(join(root, 'run.sh')), 0o755);
});

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

test('executable: true sets the x bits where r is set, false clears them, other bits are kept', async (t) => {
  const root = tempDir(t);
  writeTree(root, { 'a.sh': 'a\n', 'b.sh': 'b\n', 'secret.sh': 's\n' });
  chmodSync(join(root, 'a.sh'), 0o644);
  chmodSync(join(root, 'b.sh'), 0o755);
  chmodSync(join(root, 'secret.sh'), 0o600);
  await fs.commit([
    {
      kind: 'write',
      path: join(root, 'a.sh'),
      content: bytes('a2\n'),
      previous: bytes('a\n'),
      executable: true,
    },
    {
      kind: 'write',
      path: join(root, 'b.sh'),
      content: bytes('b\n'),
      previous: bytes('b\n'),
      executable: false,
    },
    {
      kind: 'write',
      path: join(root, 'secret.sh'),
      content: bytes('s\n'),
      previous: bytes('s\n'),
      executable: true,
    },
  ]);
  assert.deepEqual(
    [mode(join(root, 'a.sh')), mode(join(root, 'b.sh')), mode(join(root, 'secret.sh'))],
    [0o755, 0o644, 0o700],
  );
  assert.equal(readFileSync(join(root, 'a.sh'), 'utf8'), 'a2\n');
});

test('a new file is 0666 or 0777 less the umask, like a git checkout', async (t) => {
  const root = tempDir(t);
  // Reference files made the plain way carry the same umask.
  writeFileSync(join(root, 'ref-666'), '', { mode: 0o666 });
  writeFileSync(join(root, 'ref-777'), '', { mode: 0o777 });
  await fs.commit([
    { kind: 'write', path: join(root, 'plain.txt'), content: bytes('p'), previous: null, executable: false },
    { kind: 'write', path: join(root, 'run.sh'), content: bytes('r'), previous: null, executable: true },
  ]);
  assert.equal(mode(join(root, 'plain.txt')), mode(join(root, 'ref-666')));
  assert.equal(mode(join(root, 'run.sh')), mode(join(root, 'ref-777')));
  assert.notEqual(mode(join(root, 'run.sh')) & 0o100, 0);
});

test('a symlink is written as a symlink, over a file, and a file over a symlink replaces the link itself', async (t) => {
  const root = tempDir(t);
  writeTree(root, { 'target.txt': 'target\n', 'was-file': 'f\n' });
  symlinkSync('target.txt', join(root, 'was-link'));
  await fs.commit([
    { kind: 'symlink', path: join(root, 'new-link'), target: 'target.txt', previous: null },
    { kind: 'symlink', path: join(root, 'was-file'), target: '../elsewhere', previous: bytes('f\n') },
    {
      kind: 'write',
      path: join(root, 'was-link'),
      content: bytes('now a file\n'),
      previous: { symlink: 'target.txt' },
    },
  ]);
  assert.equal(readlinkSync(join(root, 'new-link')), 'target.txt');
  assert.equal(readlinkSync(join(root, 'was-file')), '../elsewhere');
  assert.ok(lstatSync(join(root, 'was-link')).isFile());
  assert.equal(
    readFileSync(join(root, 'target.txt'), 'utf8'),
    'target\n',
    'the old link target was not written through',
  );
});

test('a failed commit puts back a symlink it had replaced or deleted', async (t) => {
  const root = tempDir(t);
  symlinkSync('a', join(root, 'replaced'));
  symlinkSync('b', join(root, 'deleted'));
  const commit = fs.commit([
    { kind: 'write', path: join(root, 'replaced'), content: bytes('x'), previous: { symlink: 'a' } },
    { kind: 'delete', path: join(root, 'deleted'), previous: { symlink: 'b' } },
    { kind: 'write', path: blockedTarget(root), content: bytes('x\n'), previous: null },
  ]);
  await assert.rejects(commit);
  assert.equal(readlinkSync(join(root, 'replaced')), 'a');
  assert.equal(readlinkSync(join(root, 'deleted')), 'b');
  assert.deepEqual(readdirSync(root).sort(), ['blocked', 'deleted', 'replaced']);
});

test('afterChange is awaited after each change is in place', async (t) => {
  const root = tempDir(t);
  const seen: string[] = [];
  const counting = new NodeFileSystem({
    afterChange: (done) => {
      seen.push(
        `${done}:${readdirSync(root)
          .filter((n) => !n.startsWith('.'))
          .sort()
          .join(',')}`,
      );
      return Promise.resolve();
    },
  });
  await counting.commit([
    { kind: 'write', path: join(root, 'a'), content: bytes('a'), previous: null },
    { kind: 'write', path: join(root, 'b'), content: bytes('b'), previous: null },
  ]);
  assert.deepEqual(seen, ['1:a', '2:a,b']);
});

test('sweepTempFiles removes only the temp files of the given process next to the given paths', async (t) => {
  const root = tempDir(t);
  writeTree(root, {
    'src/a.ts': 'a',
    'src/.a.ts.aide-4242-0badcafe.tmp': 'half',
    'src/.a.ts.aide-1111-0badcafe.tmp': 'another process',
    'src/.b.ts.aide-4242-deadbeef.tmp': 'not a path we wrote',
    'src/.a.ts.aide-4242-0badcafe.tmp.keep': 'not a temp name',
  });
  const removed = await sweepTempFiles([join(root, 'src/a.ts'), join(root, 'gone/x.ts')], 4242);
  assert.deepEqual(removed, [join(root, 'src/.a.ts.aide-4242-0badcafe.tmp')]);
  assert.deepEqual(readdirSync(join(root, 'src')).sort(), [
    '.a.ts.aide-1111-0badcafe.tmp',
    '.a.ts.aide-4242-0badcafe.tmp.keep',
    '.b.ts.aide-4242-deadbeef.tmp',
    'a.ts',
  ]);
});

test('temp names fit NAME_MAX for names up to 255 bytes, in UTF-8 bytes, never splitting a character', () => {
  const names = [
    'a'.repeat(255),
    'b'.repeat(229),
    `${'é'.repeat(127)}.t`,
    `${'😀'.repeat(63)}.ts`,
    `x${'€'.repeat(84)}`,
  ];
  for (const name of names) {
    const temp = `.${tempStem(name)}.aide-4194304-0badcafe.tmp`;
    assert.ok(
      Buffer.byteLength(temp) <= 255,
      `${Buffer.byteLength(temp)} bytes for a ${Buffer.byteLength(name)}-byte name`,
    );
    assert.ok(!tempStem(name).includes('\uFFFD'), 'no character cut in half');
  }
  assert.equal(tempStem('short.txt'), 'short.txt', 'short names keep their own temp name');
  assert.notEqual(
    tempStem(`${'a'.repeat(240)}1`),
    tempStem(`${'a'.repeat(240)}2`),
    'long names that start alike differ',
  );
});

test('a 255-byte file name is written, and a temp file it left is swept', async (t) => {
  const root = tempDir(t);
  const name = `${'é'.repeat(125)}.txta`;
  assert.equal(Buffer.byteLength(name), 255);
  writeTree(root, { [name]: 'old' });
  await fs.commit([{ kind: 'write', path: join(root, name), content: bytes('new'), previous: bytes('old') }]);
  assert.equal(readFileSync(join(root, name), 'utf8'), 'new');
  const left = `.${tempStem(name)}.aide-4242-0badcafe.tmp`;
  writeFileSync(join(root, left), 'half');
  assert.deepEqual(await sweepTempFiles([join(root, name)], 4242), [join(root, left)]);
  assert.deepEqual(listing(root), [name]);
});

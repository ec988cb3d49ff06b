import assert from 'node:assert/strict';
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { gitRepo, tempDir, testEnv, writeTree } from '../../../test/helpers/sandbox.js';
import { diffTrees, parseRawDiff } from './raw-objects.js';
import { objectsOnly } from './scratch/object-reader.js';
import { ShadowStore } from './shadow-store.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const ZERO = '0'.repeat(40);

/** `diff-tree -z --raw` output: each entry's header, NUL, its path's bytes, NUL. */
function raw(...entries: Array<[string, Buffer | string]>): Buffer {
  return Buffer.concat(
    entries.flatMap(([head, path]) => [Buffer.from(`${head}\0`), Buffer.from(path), Buffer.from([0])]),
  );
}

async function open(t: TestContext, files: Record<string, string>) {
  const root = gitRepo(t, files);
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1 << 24, command: 'test' });
  t.after(() => store.close());
  return { root, store };
}

test('each status becomes an action, and an absent side is null, not zeros', () => {
  const changes = parseRawDiff(
    raw(
      [`:000000 100644 ${ZERO} ${A} A`, 'new.txt'],
      [`:100644 000000 ${A} ${ZERO} D`, 'gone.txt'],
      [`:100644 100755 ${A} ${B} M`, 'run.sh'],
      [`:100644 120000 ${A} ${B} T`, 'link'],
    ),
  );
  assert.deepEqual(
    changes.map(({ path, action, oldMode, newMode, oldBlob, newBlob }) => [
      path,
      action,
      oldMode,
      newMode,
      oldBlob,
      newBlob,
    ]),
    [
      ['new.txt', 'created', null, '100644', null, A],
      ['gone.txt', 'deleted', '100644', null, A, null],
      ['run.sh', 'modified', '100644', '100755', A, B],
      ['link', 'type_changed', '100644', '120000', A, B],
    ],
  );
  assert.ok(changes.every((c) => !c.undecodable));
});

test('a name that is not UTF-8 keeps its bytes and says it cannot be named as text', () => {
  const bytes = Buffer.from([0x6e, 0xe9, 0x2e, 0x74, 0x78, 0x74]);
  const [change] = parseRawDiff(raw([`:100644 100644 ${A} ${B} M`, bytes]));
  assert.ok(change);
  assert.equal(change.undecodable, true);
  assert.ok(change.pathBytes.equals(bytes), 'the bytes git wrote, not the decoded name re-encoded');
  assert.notEqual(Buffer.from(change.path, 'utf8').toString('hex'), bytes.toString('hex'));
  const [plain] = parseRawDiff(raw([`:100644 100644 ${A} ${B} M`, 'héllo.txt']));
  assert.equal(plain?.undecodable, false);
  assert.equal(plain?.path, 'héllo.txt');
});

test('a rename or copy line is refused: renames must be off, or two paths would be read as one', () => {
  assert.throws(
    () => parseRawDiff(raw([`:100644 100644 ${A} ${B} R050`, 'old.txt'], ['', 'new.txt'])),
    /unexpected git diff status "R050" at old\.txt \(renames must be off\)/,
  );
});

test('against real git: a rename is a deletion and a creation, a file that became a symlink a type change', async (t) => {
  const { root, store } = await open(t, {
    'a.txt': 'a\n',
    'old.txt': 'moved\n',
    flip: 'file\n',
    'gone.txt': 'g\n',
  });
  const before = (await store.snapshot()).tree;
  rmSync(join(root, 'old.txt'));
  writeTree(root, { 'new.txt': 'moved\n', 'a.txt': 'a2\n' });
  rmSync(join(root, 'flip'));
  symlinkSync('a.txt', join(root, 'flip'));
  rmSync(join(root, 'gone.txt'));
  const odd = Buffer.concat([Buffer.from(`${root}/odd-`), Buffer.from([0xff])]);
  writeFileSync(odd, 'odd\n');
  const after = (await store.snapshot()).tree;
  const changes = await diffTrees(store.git, before, after, objectsOnly(store.git));
  assert.deepEqual(
    changes.map((c) => [c.path, c.action, c.newMode]),
    [
      ['a.txt', 'modified', '100644'],
      ['flip', 'type_changed', '120000'],
      ['gone.txt', 'deleted', null],
      ['new.txt', 'created', '100644'],
      ['odd-\uFFFD', 'created', '100644'],
      ['old.txt', 'deleted', null],
    ],
  );
  const oddChange = changes.find((c) => c.undecodable);
  assert.ok(oddChange?.pathBytes.equals(Buffer.concat([Buffer.from('odd-'), Buffer.from([0xff])])));
  const gone = changes.find((c) => c.path === 'gone.txt');
  assert.equal(await store.git.text(['cat-file', '-p', gone?.oldBlob ?? '']), 'g');
  assert.equal(gone?.newBlob, null);
});

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { git, gitRepo, tempDir, testEnv, type Cleanup } from '../../../test/helpers/sandbox.js';
import { borrowedStores, forgetSettledDirs, ownBorrowedObjects, unloadSettledDirs } from './own-objects.js';
import { ShadowStore } from './shadow-store.js';

async function open(t: Cleanup, root: string): Promise<ShadowStore> {
  const store = await ShadowStore.open(root, testEnv(), { maxFileBytes: 1 << 20, command: 'test' });
  t.after(async () => {
    await store.close();
  });
  return store;
}

/** Whether the shadow can read an object (with the user's store emptied, only its own copies). */
function shadowHas(store: ShadowStore, id: string): boolean {
  const env = { ...testEnv(), GIT_DIR: store.git.location.gitDir };
  try {
    execFileSync('git', ['cat-file', '-e', id], { env, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

test("the user's packs and loose objects are linked into the shadow, once, and outlive the user's copies", async (t) => {
  const repo = gitRepo(t, { 'packed.txt': 'in a pack\n' });
  git(repo, ['repack', '-q', '-a', '-d']);
  writeFileSync(join(repo, 'staged.txt'), 'loose, only staged\n');
  git(repo, ['add', 'staged.txt']);
  const packed = git(repo, ['rev-parse', 'HEAD:packed.txt']).trim();
  const staged = git(repo, ['rev-parse', ':staged.txt']).trim();
  const store = await open(t, repo);

  const first = await ownBorrowedObjects(store.git);
  assert.ok(first.linked >= 3, `linked ${first.linked}: a pack, its index and a loose object`);
  assert.equal(first.copied, 0);
  const pack =
    readdirSync(join(store.git.location.gitDir, 'objects/pack')).find((n) => n.endsWith('.pack')) ?? '';
  assert.equal(
    statSync(join(store.git.location.gitDir, 'objects/pack', pack)).nlink,
    2,
    'a hard link: no second copy on disk',
  );
  assert.deepEqual(await ownBorrowedObjects(store.git), { linked: 0, copied: 0 });

  rmSync(join(repo, '.git/objects'), { recursive: true, force: true });
  assert.ok(shadowHas(store, packed));
  assert.ok(shadowHas(store, staged));
});

test("alternates of the user's repository are followed (a clone made with --shared)", async (t) => {
  const origin = gitRepo(t, { 'a.txt': 'from the origin\n' });
  const clone = join(tempDir(t), 'clone');
  git(origin, ['clone', '-q', '--shared', origin, clone]);
  const store = await open(t, clone);
  assert.deepEqual(await borrowedStores(join(store.git.location.gitDir, 'objects')), [
    join(clone, '.git/objects'),
    join(origin, '.git/objects'),
  ]);
  const blob = git(clone, ['rev-parse', 'HEAD:a.txt']).trim();
  await ownBorrowedObjects(store.git);
  rmSync(join(origin, '.git/objects'), { recursive: true, force: true });
  assert.ok(shadowHas(store, blob));
});

test("a loose-object folder of the user's unchanged since every object in it was linked is not read again; one that gained an object is", async (t) => {
  const repo = gitRepo(t, { 'a.txt': 'a\n' });
  const store = await open(t, repo);
  const blob = git(repo, ['rev-parse', 'HEAD:a.txt']).trim();
  const folder = join(repo, '.git/objects', blob.slice(0, 2));
  const old = new Date(Date.now() - 60_000);
  utimesSync(folder, old, old);
  await ownBorrowedObjects(store.git);
  // Planted with the folder's time put back: unseen, as the folder says nothing changed.
  const planted = join(folder, 'f'.repeat(38));
  writeFileSync(planted, 'not read: the folder looks unchanged\n');
  utimesSync(folder, old, old);
  assert.deepEqual(await ownBorrowedObjects(store.git), { linked: 0, copied: 0 });
  // The next process reads what this one found from the shadow.
  unloadSettledDirs();
  assert.deepEqual(await ownBorrowedObjects(store.git), { linked: 0, copied: 0 });
  // After a prune nothing is taken as settled.
  await forgetSettledDirs(store.git.location.gitDir);
  assert.deepEqual(await ownBorrowedObjects(store.git), { linked: 1, copied: 0 });
  // An object the user's git adds changes the folder's time: linked.
  rmSync(planted);
  writeFileSync(join(folder, 'e'.repeat(38)), 'a new loose object\n');
  assert.deepEqual(await ownBorrowedObjects(store.git), { linked: 1, copied: 0 });
  assert.ok(existsSync(join(store.git.location.gitDir, 'objects', blob.slice(0, 2), 'e'.repeat(38))));
});

/**
 * The seed under every conversion git applies on add, in real repositories whose index entries
 * are stat-clean (files older than the index, refreshed by `git status`), so a seeded entry is
 * never re-hashed: the checkpoint must hold the bytes on disk, and a restore must write them back.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { git, tempDir, testEnv, writeTree } from '../../../test/helpers/sandbox.js';
import { NodeFileSystem } from '../fs/node-file-system.js';
import { ShadowRestorer } from './restore.js';
import { describeWorkspace } from './shadow-repo.js';
import { ShadowStore } from './shadow-store.js';
import { seedableIndex } from './snapshot-seed.js';

interface Case {
  name: string;
  files: Record<string, string | Buffer>;
  /** Settings of the repository's config. */
  config?: Array<[string, string]>;
  /** Settings of the user's global config. */
  global?: Array<[string, string]>;
  /** Files written relative to the user's home (a global attributes file). */
  home?: Record<string, string>;
  /** The repository's info/attributes. */
  info?: string;
  /** The files are checked out again after the commit, so git writes them (smudge, CRLF, ident). */
  checkout?: boolean;
  /** Whether the user's index may seed the shadow's. */
  seeds: boolean;
}

/** Every file of the work tree outside .git and .aide, with its bytes. */
function workFiles(root: string, dir = ''): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (path === '.git' || path === '.aide') continue;
    if (entry.isDirectory()) for (const [p, b] of workFiles(root, path)) out.set(p, b);
    else out.set(path, readFileSync(join(root, path)));
  }
  return out;
}

/** A repository in the state a seed trusts: committed, files older than the index, `git status` clean. */
function userRepo(t: TestContext, c: Case, home: string): string {
  const root = tempDir(t);
  for (const [key, value] of c.global ?? []) git(root, ['config', '--global', key, value], home);
  writeTree(home, c.home ?? {});
  git(root, ['init', '-q', '-b', 'main'], home);
  for (const [key, value] of c.config ?? []) git(root, ['config', key, value], home);
  if (c.info !== undefined) writeFileSync(join(root, '.git', 'info', 'attributes'), c.info);
  writeTree(root, c.files);
  git(root, ['add', '-A'], home);
  git(root, ['commit', '-q', '-m', 'files'], home);
  if (c.checkout === true) {
    for (const path of Object.keys(c.files)) rmSync(join(root, path));
    git(root, ['checkout', '--', '.'], home);
  }
  const past = new Date(Date.now() - 120_000);
  for (const path of workFiles(root).keys()) utimesSync(join(root, path), past, past);
  assert.equal(git(root, ['status', '--porcelain'], home), '', 'git itself sees no change');
  return root;
}

/** A clean filter that keeps the size: the blob is the file upper-cased. */
const UPPER: Array<[string, string]> = [
  ['filter.upper.clean', 'tr a-z A-Z'],
  ['filter.upper.smudge', 'cat'],
];

const CASES: Case[] = [
  {
    name: 'babel’s `* text eol=lf`: LF, CRLF and mixed files (blobs of the last two are LF)',
    files: {
      '.gitattributes': '* text eol=lf\n',
      'lf.js': 'a\nb\n',
      'crlf.js': 'a\r\nb\r\n',
      'src/mixed.js': 'a\r\nb\nc\r\n',
    },
    seeds: true,
  },
  {
    name: '`* text=auto` with a CRLF file',
    files: { '.gitattributes': '* text=auto\n', 'win.txt': 'one\r\ntwo\r\n', 'lf.txt': 'one\n' },
    seeds: true,
  },
  {
    name: 'a global core.autocrlf=input, no attributes at all',
    files: { 'win.txt': 'one\r\ntwo\r\n', 'lf.txt': 'one\n' },
    global: [['core.autocrlf', 'input']],
    seeds: true,
  },
  {
    name: '`eol=crlf`, checked out by git with CRLF',
    files: { '.gitattributes': '*.bat text eol=crlf\n', 'run.bat': '@echo off\necho hi\n', 'a.txt': 'a\n' },
    checkout: true,
    seeds: false,
  },
  {
    name: 'a clean filter that keeps the size, set in a folder’s own .gitattributes',
    files: { 'sub/.gitattributes': '*.txt filter=upper\n', 'sub/shout.txt': 'quiet words\n', 'a.txt': 'a\n' },
    config: UPPER,
    seeds: false,
  },
  {
    name: 'a clean filter set in the user’s global attributes file',
    files: { 'notes.txt': 'quiet words\n' },
    global: UPPER,
    home: { '.config/git/attributes': '*.txt filter=upper\n' },
    seeds: false,
  },
  {
    name: '`ident`, expanded by git’s checkout',
    files: { '.gitattributes': '*.c ident\n', 'x.c': 'int x; /* $Id$ */\n' },
    checkout: true,
    seeds: false,
  },
  {
    name: 'a working-tree-encoding in info/attributes',
    files: { 'utf16.txt': Buffer.from('\ufeffhello, wörld\n', 'utf16le'), 'a.md': 'a\n' },
    info: '*.txt working-tree-encoding=UTF-16\n',
    checkout: true,
    seeds: false,
  },
];

for (const c of CASES) {
  test(`seed: ${c.name}: the checkpoint holds the bytes on disk, and a restore writes them back`, async (t) => {
    const home = tempDir(t);
    const env = testEnv(home);
    const root = userRepo(t, c, home);
    const onDisk = workFiles(root);
    const seed = await seedableIndex(await describeWorkspace(root, env), env);
    assert.equal(seed !== undefined, c.seeds, 'where the seed is taken');
    const store = await ShadowStore.open(root, env, { maxFileBytes: 1e6, command: 'test' });
    t.after(() => store.close());
    const restorer = new ShadowRestorer(store, new NodeFileSystem());
    const { checkpoint } = await restorer.checkpoint({ reason: 'manual', message: 'seeded' });
    for (const [path, bytes] of onDisk) {
      const blob = (await store.git.run(['cat-file', 'blob', `${checkpoint.id}:${path}`])).stdout;
      assert.deepEqual(blob, bytes, `${path} in the checkpoint`);
    }
    for (const path of onDisk.keys()) writeFileSync(join(root, path), 'mutated\n');
    const plan = await restorer.planRestore(checkpoint.id);
    const { checkpoint: safety } = await restorer.checkpoint({ reason: 'restore-safety', message: 'before' });
    await restorer.applyRestore(plan, safety, null);
    assert.deepEqual(workFiles(root), onDisk, 'the restored bytes');
  });
}

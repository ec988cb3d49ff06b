/**
 * Round trips through the CLI: checkpoint → mutate → `aide restore` → the workspace is the
 * checkpoint again (content, modes, symlinks, folders), ignored files keep their mutated
 * state, the user's .git is byte-identical at every step, and restoring the printed undo id
 * brings the mutated state back.
 */
import assert from 'node:assert/strict';
import {
  appendFileSync,
  chmodSync,
  mkdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { omit, pick, saveCheckpoint, workspaceState } from '../helpers/checkpoints.js';
import { runAideInProcess } from '../helpers/in-process.js';
import { fingerprint, git, gitRepo, writeTree, type Cleanup } from '../helpers/sandbox.js';

const IGNORED = ['debug.log', 'ignored/'];

const BASE = {
  'README.md': '# demo\n',
  'src/app.ts': 'export const app = 1;\n',
  'src/lib/util.ts': 'export const util = 2;\n',
  'bin/run.sh': '#!/bin/sh\necho run\n',
  '.gitignore': '*.log\nignored/\n',
};

interface Case {
  name: string;
  /** Before the checkpoint (committed or not, as the case needs). */
  setup?: (root: string, t: Cleanup) => void;
  mutate: (root: string) => void;
}

function baseRepo(t: Cleanup): string {
  const root = gitRepo(t, BASE);
  chmodSync(join(root, 'bin/run.sh'), 0o755);
  git(root, ['add', '-A']);
  git(root, ['commit', '-q', '-m', 'exec bit']);
  writeTree(root, { 'debug.log': 'log 1\n', 'ignored/cache.bin': Buffer.from([0, 1, 2, 255]) });
  return root;
}

async function restore(root: string, id: string): Promise<{ undo: string }> {
  const result = await runAideInProcess(['restore', id, '--yes', '--json'], { cwd: root });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  const report = JSON.parse(result.stdout) as { schema: string; result: string; undo: { id: string } | null };
  assert.equal(report.schema, 'aide.restore/1');
  assert.equal(report.result, 'restored');
  assert.ok(report.undo !== null);
  return { undo: report.undo.id };
}

async function roundTrip(t: Cleanup, c: Case): Promise<void> {
  const root = baseRepo(t);
  c.setup?.(root, t);
  const dotGit = fingerprint(root, '.git');
  const id = await saveCheckpoint(root);
  const atCheckpoint = workspaceState(root);
  assert.deepEqual(fingerprint(root, '.git'), dotGit, '.git changed by the checkpoint');

  c.mutate(root);
  appendFileSync(join(root, 'debug.log'), 'log 2\n');
  writeTree(root, { 'ignored/new.tmp': 'made after the checkpoint\n' });
  const mutated = workspaceState(root);
  assert.notDeepEqual(omit(mutated, IGNORED), omit(atCheckpoint, IGNORED), 'the mutation changed nothing');

  const { undo } = await restore(root, id);
  const restored = workspaceState(root);
  assert.deepEqual(omit(restored, IGNORED), omit(atCheckpoint, IGNORED), 'not the checkpoint after restore');
  assert.deepEqual(pick(restored, IGNORED), pick(mutated, IGNORED), 'ignored files were touched');
  assert.deepEqual(fingerprint(root, '.git'), dotGit, '.git changed by the restore');

  await restore(root, undo);
  assert.deepEqual(workspaceState(root), mutated, 'undoing the restore did not bring the mutated state back');
  assert.deepEqual(fingerprint(root, '.git'), dotGit, '.git changed by the undo');
}

const cases: Case[] = [
  {
    name: 'an edited file',
    mutate: (root) => {
      writeFileSync(join(root, 'src/app.ts'), 'export const app = 42;\n');
    },
  },
  {
    name: 'added files and folders (removed again, with the folders they emptied)',
    mutate: (root) => {
      writeTree(root, { 'src/new.ts': 'new\n', 'newdir/deep/x.txt': 'x\n' });
    },
  },
  {
    name: 'a deleted file whose folder went with it',
    mutate: (root) => {
      rmSync(join(root, 'src/lib'), { recursive: true });
    },
  },
  {
    name: 'a renamed file',
    mutate: (root) => {
      renameSync(join(root, 'src/app.ts'), join(root, 'src/main.ts'));
    },
  },
  {
    name: 'mode changes both ways',
    mutate: (root) => {
      chmodSync(join(root, 'README.md'), 0o755);
      chmodSync(join(root, 'bin/run.sh'), 0o644);
    },
  },
  {
    name: 'a binary file, committed and untracked',
    setup: (root) => {
      writeTree(root, { 'img.bin': Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7) % 256)) });
      git(root, ['add', 'img.bin']);
      git(root, ['commit', '-q', '-m', 'binary']);
      writeTree(root, { 'blob.dat': Buffer.from([0, 0, 0xff, 0xfe, 0x0a, 0x0d, 0]) });
    },
    mutate: (root) => {
      writeTree(root, { 'img.bin': Buffer.from([1, 2, 3]) });
      unlinkSync(join(root, 'blob.dat'));
    },
  },
  {
    name: 'CRLF files, committed and untracked',
    setup: (root) => {
      writeTree(root, { 'win.txt': 'one\r\ntwo\r\n', 'mixed.txt': 'a\r\nb\nc\r\n' });
      git(root, ['add', 'win.txt']);
      git(root, ['commit', '-q', '-m', 'crlf']);
    },
    mutate: (root) => {
      writeTree(root, { 'win.txt': 'one\ntwo\n', 'mixed.txt': 'a\nb\nc\n' });
    },
  },
  {
    name: "CRLF files under .gitattributes text=auto and eol=crlf (the user's blobs are LF)",
    setup: (root) => {
      writeTree(root, {
        '.gitattributes': '* text=auto\n*.bat text eol=crlf\n',
        'win.txt': 'one\r\ntwo\r\n',
        'run.bat': '@echo off\r\necho hi\r\n',
      });
      git(root, ['add', '-A']);
      git(root, ['commit', '-q', '-m', 'attributes']);
      writeTree(root, { 'notes.txt': 'untracked\r\ncrlf\r\n' });
    },
    mutate: (root) => {
      writeTree(root, { 'win.txt': 'one\ntwo\n', 'run.bat': '@echo off\n', 'notes.txt': 'lf\n' });
    },
  },
  {
    name: 'an empty folder the user made stays',
    setup: (root) => {
      mkdirSync(join(root, 'empty'));
    },
    mutate: (root) => {
      writeFileSync(join(root, 'src/app.ts'), 'changed\n');
    },
  },
  {
    name: 'names with spaces and unicode',
    setup: (root) => {
      writeTree(root, { 'docs/my notes ü 日本.md': 'notes\n', 'with space.txt': 'space\n' });
      git(root, ['add', '-A']);
      git(root, ['commit', '-q', '-m', 'names']);
    },
    mutate: (root) => {
      writeFileSync(join(root, 'docs/my notes ü 日本.md'), 'edited\n');
      unlinkSync(join(root, 'with space.txt'));
      writeTree(root, { 'new ü file.txt': 'new\n' });
    },
  },
  {
    name: 'symlinks retargeted, replaced by a file, and added',
    setup: (root) => {
      symlinkSync('src/app.ts', join(root, 'link-to-app'));
      symlinkSync('src', join(root, 'dirlink'));
    },
    mutate: (root) => {
      unlinkSync(join(root, 'link-to-app'));
      symlinkSync('README.md', join(root, 'link-to-app'));
      unlinkSync(join(root, 'dirlink'));
      writeFileSync(join(root, 'dirlink'), 'a file now\n');
      symlinkSync('../outside', join(root, 'new-link'));
    },
  },
  {
    name: 'a file and a folder swapping places',
    mutate: (root) => {
      rmSync(join(root, 'src/lib'), { recursive: true });
      writeFileSync(join(root, 'src/lib'), 'a file where a folder was\n');
      unlinkSync(join(root, 'README.md'));
      writeTree(root, { 'README.md/inside.md': 'a folder where a file was\n' });
    },
  },
  {
    name: 'a nested repository (its files, not its .git)',
    setup: (root) => {
      const nested = join(root, 'vendor/lib');
      mkdirSync(nested, { recursive: true });
      git(nested, ['init', '-q', '-b', 'main']);
      writeTree(nested, { 'lib.c': 'int lib;\n', 'gone.c': 'int gone;\n' });
      git(nested, ['add', '-A']);
      git(nested, ['commit', '-q', '-m', 'nested']);
      writeTree(nested, { 'untracked.h': '#pragma once\n' });
    },
    mutate: (root) => {
      writeFileSync(join(root, 'vendor/lib/lib.c'), 'int lib = 2;\n');
      unlinkSync(join(root, 'vendor/lib/gone.c'));
      writeTree(root, { 'vendor/lib/added.c': 'int added;\n' });
    },
  },
  {
    name: 'a submodule (its files, not its .git)',
    setup: (root, t) => {
      const upstream = gitRepo(t, { 'mod.txt': 'module\n', 'keep.txt': 'keep\n' });
      git(root, ['-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', upstream, 'sub']);
      git(root, ['commit', '-q', '-m', 'submodule']);
    },
    mutate: (root) => {
      writeFileSync(join(root, 'sub/mod.txt'), 'edited in the submodule\n');
      unlinkSync(join(root, 'sub/keep.txt'));
      writeTree(root, { 'sub/new.txt': 'new\n' });
    },
  },
];

for (const c of cases) {
  test(`round trip: ${c.name}`, async (t) => {
    await roundTrip(t, c);
  });
}

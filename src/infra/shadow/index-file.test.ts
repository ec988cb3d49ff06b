import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { git, gitRepo, testEnv, type Cleanup } from '../../../test/helpers/sandbox.js';
import { parseIndex } from './index-file.js';

/** What `ls-files -s --debug` says of each entry: mode, id, stage, path and the recorded size. */
function listed(root: string): string[] {
  const out = git(root, ['-c', 'core.quotePath=false', 'ls-files', '-s', '--debug']);
  const rows: string[] = [];
  for (const block of out.split(/\n(?=\d{6} )/)) {
    const head = /^(\d{6}) ([0-9a-f]+) (\d)\t(.*)$/m.exec(block);
    const size = /size: (\d+)/.exec(block);
    if (head !== null && size !== null) rows.push(`${head[1]} ${head[2]} ${head[3]} ${size[1]} ${head[4]}`);
  }
  return rows;
}

function parsed(root: string): string[] {
  const index = parseIndex(readFileSync(join(root, '.git', 'index')));
  assert.ok(index !== null, 'the index parses');
  return index.entries.map(
    (e) => `${e.mode} ${e.id} ${e.stage} ${e.size} ${Buffer.from(e.path, 'latin1').toString('utf8')}`,
  );
}

function repo(t: Cleanup): string {
  return gitRepo(t, {
    'a.txt': 'a\n',
    'run.sh': '#!/bin/sh\n',
    'dir/deeper/b.txt': 'bb\n',
    'dir/deeper/c.txt': 'ccc\n',
    [`${'d'.repeat(200)}/${'n'.repeat(250)}.txt`]: 'long name\n',
    'ü-ñame.txt': 'utf-8 name\n',
  });
}

test('an index of each version reads as ls-files lists it', (t) => {
  const root = repo(t);
  git(root, ['update-index', '--chmod=+x', 'run.sh']);
  for (const version of ['2', '4', '3']) {
    // git writes version 3 only where an entry has extended flags (skip-worktree here).
    if (version === '3') git(root, ['update-index', '--skip-worktree', 'a.txt']);
    git(root, ['update-index', '--index-version', version]);
    const index = parseIndex(readFileSync(join(root, '.git', 'index')));
    assert.equal(index?.version, Number(version));
    assert.deepEqual(parsed(root), listed(root), `version ${version}`);
  }
});

test('assume-unchanged, skip-worktree and conflict stages are read from the flags', (t) => {
  const root = repo(t);
  git(root, ['update-index', '--assume-unchanged', 'a.txt']);
  git(root, ['update-index', '--skip-worktree', 'dir/deeper/b.txt']);
  const entries = parseIndex(readFileSync(join(root, '.git', 'index')))?.entries ?? [];
  const flags = (path: string) => {
    const entry = entries.find((e) => e.path === path);
    return [entry?.assumeValid, entry?.skipWorktree];
  };
  assert.deepEqual(flags('a.txt'), [true, false]);
  assert.deepEqual(flags('dir/deeper/b.txt'), [false, true]);
  assert.deepEqual(flags('dir/deeper/c.txt'), [false, false]);
  // A conflict: the same path at stages 1-3.
  const blob = git(root, ['hash-object', '-w', 'a.txt']).trim();
  const info = [1, 2, 3].map((stage) => `100644 ${blob} ${stage}\tc.txt`).join('\n');
  execFileSync('git', ['update-index', '--index-info'], { cwd: root, env: testEnv(), input: `${info}\n` });
  const staged = (parseIndex(readFileSync(join(root, '.git', 'index')))?.entries ?? [])
    .filter((e) => e.path === 'c.txt')
    .map((e) => e.stage);
  assert.deepEqual(staged, [1, 2, 3]);
});

test('extensions are named, and bytes that are not an index are refused', (t) => {
  const root = repo(t);
  git(root, ['-c', 'core.splitIndex=true', 'update-index', '--split-index']);
  const index = parseIndex(readFileSync(join(root, '.git', 'index')));
  assert.ok(index?.extensions.includes('link'), 'a split index names its shared part');
  assert.equal(parseIndex(Buffer.from('not an index at all, just text')), null);
  const whole = readFileSync(join(root, '.git', 'index'));
  assert.equal(parseIndex(whole.subarray(0, whole.length - 30)), null, 'a truncated index');
});

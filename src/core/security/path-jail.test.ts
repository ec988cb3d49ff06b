import assert from 'node:assert/strict';
// Real temp folders and real symlinks (STYLE.md §11): core code never touches the disk, its tests may.
import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir, writeTree, type Cleanup } from '../../../test/helpers/sandbox.js';
import { NodeFileSystem } from '../../infra/fs/node-file-system.js';
import { jailPath, type JailResult } from './path-jail.js';

const fs = new NodeFileSystem();

/** A workspace (a real path) holding a few files, and a folder outside it. */
function workspace(t: Cleanup): { root: string; outside: string } {
  const root = realpathSync(tempDir(t, 'aide-jail-'));
  const outside = realpathSync(tempDir(t, 'aide-outside-'));
  writeTree(root, {
    'a.txt': 'a\n',
    'src/real.ts': 'x\n',
    '.git/config': '[core]\n',
    '.aide/config.json': '{}\n',
  });
  writeTree(outside, { 'secret.txt': 'token\n', 'dir/file.txt': 'f\n' });
  return { root, outside };
}

function refusal(result: JailResult): string {
  assert.equal(result.ok, false, `expected a refusal, got ${JSON.stringify(result)}`);
  return result.ok ? '' : result.reason;
}

test('paths that climb out with .. are refused', async (t) => {
  const { root } = workspace(t);
  for (const path of ['../x.txt', 'src/../../x.txt', '..', 'sub\\..\\..\\x.txt']) {
    assert.match(refusal(await jailPath(root, path, fs)), /points outside the repository/, path);
  }
});

test('absolute paths are refused: posix, Windows drive and home', async (t) => {
  const { root } = workspace(t);
  for (const path of ['/etc/passwd', `${root}/a.txt`, 'C:\\Windows\\win.ini', 'c:/x.txt', '~/.bashrc', '~']) {
    assert.match(refusal(await jailPath(root, path, fs)), /is an absolute path/, path);
  }
});

test('.git folders are refused at any depth and in any case', async (t) => {
  const { root } = workspace(t);
  for (const path of [
    '.git/config',
    'sub/.git/x',
    '.GIT/config',
    '.Git/hooks/pre-commit',
    'src/../.git/config',
  ]) {
    assert.match(refusal(await jailPath(root, path, fs)), /inside a \.git folder/, path);
  }
});

test('.aide/state is refused but the rest of .aide is not', async (t) => {
  const { root } = workspace(t);
  assert.match(refusal(await jailPath(root, '.aide/state/x', fs)), /inside \.aide\/state/);
  assert.match(refusal(await jailPath(root, '.AIDE/State/x', fs)), /inside \.aide\/state/);
  assert.deepEqual(await jailPath(root, '.aide/config.json', fs), {
    ok: true,
    path: '.aide/config.json',
    target: join(root, '.aide/config.json'),
  });
});

test('a symlinked folder that leads outside is refused', async (t) => {
  const { root, outside } = workspace(t);
  symlinkSync(join(outside, 'dir'), join(root, 'linked'));
  assert.match(refusal(await jailPath(root, 'linked/file.txt', fs)), /symlink that leads outside/);
  assert.match(refusal(await jailPath(root, 'linked/new.txt', fs)), /symlink that leads outside/);
});

test('a symlinked file that leads outside is refused, also through a second link inside', async (t) => {
  const { root, outside } = workspace(t);
  symlinkSync(join(outside, 'secret.txt'), join(root, 'secret.txt'));
  symlinkSync('secret.txt', join(root, 'hop.txt'));
  assert.match(refusal(await jailPath(root, 'secret.txt', fs)), /symlink that leads outside/);
  assert.match(refusal(await jailPath(root, 'hop.txt', fs)), /symlink that leads outside/);
});

test('a symlink inside the repository to .git/config is refused', async (t) => {
  const { root } = workspace(t);
  symlinkSync('.git/config', join(root, 'settings.ini'));
  symlinkSync('.git', join(root, 'g'));
  assert.match(
    refusal(await jailPath(root, 'settings.ini', fs)),
    /symlink to a protected place.*\.git folder/,
  );
  assert.match(refusal(await jailPath(root, 'g/config', fs)), /symlink to a protected place/);
});

test('a symlink inside the repository to another file inside is allowed and targets the real file', async (t) => {
  const { root } = workspace(t);
  symlinkSync('src/real.ts', join(root, 'alias.ts'));
  symlinkSync('src', join(root, 'source'));
  assert.deepEqual(await jailPath(root, 'alias.ts', fs), {
    ok: true,
    path: 'alias.ts',
    target: join(root, 'src/real.ts'),
  });
  assert.deepEqual(await jailPath(root, 'source/real.ts', fs), {
    ok: true,
    path: 'source/real.ts',
    target: join(root, 'src/real.ts'),
  });
  assert.deepEqual(await jailPath(root, 'source/new.ts', fs), {
    ok: true,
    path: 'source/new.ts',
    target: join(root, 'src/new.ts'),
  });
});

test('a symlink to a file inside whose name starts with ".." is allowed', async (t) => {
  const { root } = workspace(t);
  writeTree(root, { '..notes.md': 'n\n' });
  symlinkSync('..notes.md', join(root, 'notes.md'));
  assert.deepEqual(await jailPath(root, 'notes.md', fs), {
    ok: true,
    path: 'notes.md',
    target: join(root, '..notes.md'),
  });
});

test('a file named with leading dots is allowed when written directly', async (t) => {
  const { root } = workspace(t);
  assert.deepEqual(await jailPath(root, '..notes.md', fs), {
    ok: true,
    path: '..notes.md',
    target: join(root, '..notes.md'),
  });
});

test('a broken symlink is refused', async (t) => {
  const { root } = workspace(t);
  symlinkSync('missing.ts', join(root, 'dangling.ts'));
  assert.match(refusal(await jailPath(root, 'dangling.ts', fs)), /broken symlink/);
});

test('a path through a regular file is refused', async (t) => {
  const { root } = workspace(t);
  assert.match(refusal(await jailPath(root, 'a.txt/b', fs)), /"a\.txt" is not a folder/);
});

test('a folder is not a file', async (t) => {
  const { root } = workspace(t);
  assert.match(refusal(await jailPath(root, 'src', fs)), /"src" is a folder/);
  assert.match(refusal(await jailPath(root, '.', fs)), /is not a file/);
});

test('paths with invisible characters are refused and name the code point', async (t) => {
  const { root } = workspace(t);
  assert.match(refusal(await jailPath(root, 'src/re\u200Bal.ts', fs)), /U\+200B ZERO WIDTH SPACE/);
  assert.match(refusal(await jailPath(root, 'src/\u202Esj.ts', fs)), /U\+202E RIGHT-TO-LEFT OVERRIDE/);
  assert.match(refusal(await jailPath(root, 'a\u{E0041}.txt', fs)), /U\+E0041 TAG CHARACTER/);
});

test('empty and NUL paths are refused', async (t) => {
  const { root } = workspace(t);
  assert.match(refusal(await jailPath(root, '  ', fs)), /empty or malformed/);
  assert.match(refusal(await jailPath(root, 'a\0.txt', fs)), /empty or malformed/);
});

test('a nested path that does not exist yet is allowed and lands under the root', async (t) => {
  const { root } = workspace(t);
  assert.deepEqual(await jailPath(root, 'new/deep/file.ts', fs), {
    ok: true,
    path: 'new/deep/file.ts',
    target: join(root, 'new/deep/file.ts'),
  });
  mkdirSync(join(root, 'new'));
  assert.deepEqual(await jailPath(root, './new//deep/file.ts', fs), {
    ok: true,
    path: 'new/deep/file.ts',
    target: join(root, 'new/deep/file.ts'),
  });
});

test('backslashes and ./ are normalized to the workspace path', async (t) => {
  const { root } = workspace(t);
  assert.deepEqual(await jailPath(root, '.\\src\\real.ts', fs), {
    ok: true,
    path: 'src/real.ts',
    target: join(root, 'src/real.ts'),
  });
});

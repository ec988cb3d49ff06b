import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { gitRepo, tempDir, testEnv } from '../../../../test/helpers/sandbox.js';
import { ShadowStore } from '../shadow-store.js';
import { PRIVATE_INDEX } from './scratch-start.js';
import { ShadowScratches, type WorktreeScratch } from './worktree-scratch.js';

const FILES = {
  '.gitignore': 'build/\n*.log\n',
  'src/a.ts': 'aaaa\n',
  'src/b.ts': 'bbbb\n',
  'src/c.ts': 'cccc\n',
  'real/d.ts': 'dddd\n',
  'tool.sh': 'echo\n',
};

interface Opened {
  scratch: WorktreeScratch;
  store: ShadowStore;
  /** The tree a full `add -A` into a fresh index records for the scratch's files now (nothing trusted). */
  reference: () => Promise<string>;
  /** The private index's bytes (a stat scan never writes it). */
  index: () => Buffer;
}

async function open(t: TestContext): Promise<Opened> {
  const root = gitRepo(t, FILES);
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1 << 20, command: 'test' });
  t.after(() => store.close());
  const scratches = new ShadowScratches(store.git, store.workspace, {
    tempRoot: tempDir(t, 'aide-stat-'),
    links: [],
  });
  const scratch = await scratches.open('stat', (await store.snapshot()).tree);
  t.after(() => scratch.dispose());
  scratch.trackWrites();
  const fresh = join(tempDir(t), 'reference-index');
  const reference = async () => {
    rmSync(fresh, { force: true });
    const options = { workTree: scratch.path, indexFile: fresh };
    await store.git.run(['add', '-A', '--', ':/'], options);
    return store.git.text(['write-tree'], options);
  };
  const index = () => readFileSync(join(scratch.adminDir, PRIVATE_INDEX));
  return { scratch, store, reference, index };
}

/** Rewrites a file with content of the same size and sets its times back, as a command hiding its write would. */
function rewriteHidden(path: string, content: string): void {
  const before = statSync(path);
  assert.equal(Buffer.byteLength(content), before.size);
  writeFileSync(path, content);
  utimesSync(path, before.atime, before.mtime);
}

const paths = (capture: { changes: Array<{ path: string; action: string }> }) =>
  capture.changes.map((c) => `${c.action} ${c.path}`).sort();

test('a command that rewrites files keeping their size and setting their mtime back is seen, at once and a second later', async (t) => {
  const { scratch, reference, index } = await open(t);
  // Racily: in the same second the scratch's index was written.
  rewriteHidden(join(scratch.path, 'src/a.ts'), 'AAAA\n');
  scratch.noteForeign();
  const first = await scratch.capture();
  assert.deepEqual(paths(first), ['modified src/a.ts']);
  assert.equal(first.tree, await reference());
  // Past the index's second: only the stat data (ctime, which cannot be set back) gives it away.
  await sleep(1100);
  const kept = index();
  rewriteHidden(join(scratch.path, 'src/b.ts'), 'BBBB\n');
  scratch.noteForeign();
  const second = await scratch.capture();
  assert.deepEqual(paths(second), ['modified src/a.ts', 'modified src/b.ts']);
  assert.equal(second.tree, await reference());
  assert.ok(kept.equals(index()), 'the stat scan decided: the private index was not rewritten');
});

test('a write through a shared memory map, its mtime set back, is seen', async (t) => {
  const python = spawnSync('python3', ['-c', 'import mmap'], { encoding: 'utf8' });
  if (python.status !== 0) {
    t.skip('python3 with mmap is not installed');
    return;
  }
  const { scratch, reference } = await open(t);
  await sleep(1100);
  const file = join(scratch.path, 'src/c.ts');
  const before = statSync(file);
  const script = [
    'import mmap, os, sys',
    'f = open(sys.argv[1], "r+b")',
    'm = mmap.mmap(f.fileno(), 0)',
    'm[0:4] = b"CCCC"',
    'm.flush(); m.close(); f.close()',
    'os.utime(sys.argv[1], ns=(int(sys.argv[2]), int(sys.argv[2])))',
  ].join('\n');
  const ran = spawnSync('python3', ['-c', script, file, String(before.mtimeMs * 1e6)], { encoding: 'utf8' });
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(readFileSync(file, 'utf8'), 'CCCC\n');
  scratch.noteForeign();
  const capture = await scratch.capture();
  assert.deepEqual(paths(capture), ['modified src/c.ts']);
  assert.equal(capture.tree, await reference());
});

test('modes, new files in ignored and new folders, symlinks, fifos, a file become a folder, a nested repository: the tree a full scan records', async (t) => {
  const { scratch, reference } = await open(t);
  await sleep(1100);
  const at = (path: string) => join(scratch.path, path);
  const cases: Array<[string, () => void, string[]]> = [
    [
      'the execute bit',
      () => {
        chmodSync(at('tool.sh'), 0o755);
      },
      ['modified tool.sh'],
    ],
    [
      'new files, one in an ignored folder, one ignored by name',
      () => {
        mkdirSync(at('build/deep'), { recursive: true });
        writeFileSync(at('build/deep/out.js'), 'out\n');
        writeFileSync(at('debug.log'), 'log\n');
        mkdirSync(at('fresh/nested'), { recursive: true });
        writeFileSync(at('fresh/nested/new.ts'), 'new\n');
      },
      ['created fresh/nested/new.ts', 'modified tool.sh'],
    ],
    [
      'a symlink in place of a file',
      () => {
        rmSync(at('src/b.ts'));
        symlinkSync('/etc/passwd', at('src/b.ts'));
      },
      ['created fresh/nested/new.ts', 'modified tool.sh', 'type_changed src/b.ts'],
    ],
    [
      'an untracked fifo (git takes none)',
      () => {
        spawnSync('mkfifo', [at('src/pipe')]);
      },
      ['created fresh/nested/new.ts', 'modified tool.sh', 'type_changed src/b.ts'],
    ],
    [
      'a file become a folder',
      () => {
        rmSync(at('real/d.ts'));
        mkdirSync(at('real/d.ts'));
        writeFileSync(at('real/d.ts/inner.ts'), 'inner\n');
      },
      [
        'created fresh/nested/new.ts',
        'created real/d.ts/inner.ts',
        'deleted real/d.ts',
        'modified tool.sh',
        'type_changed src/b.ts',
      ],
    ],
    [
      'a nested repository',
      () => {
        mkdirSync(at('vendor/lib'), { recursive: true });
        spawnSync('git', ['init', '-q', at('vendor/lib')]);
        writeFileSync(at('vendor/lib/x.ts'), 'x\n');
        const id = ['-c', 'user.name=t', '-c', 'user.email=t@e.invalid'];
        spawnSync('git', ['-C', at('vendor/lib'), 'add', '-A']);
        spawnSync('git', ['-C', at('vendor/lib'), ...id, 'commit', '-q', '-m', 'nested']);
      },
      [
        'created fresh/nested/new.ts',
        'created real/d.ts/inner.ts',
        'deleted real/d.ts',
        'modified tool.sh',
        'type_changed src/b.ts',
      ],
    ],
    [
      'a deletion, and a symlinked folder in place of one',
      () => {
        rmSync(at('src/a.ts'));
        rmSync(at('real'), { recursive: true });
        symlinkSync(scratch.path, at('real'));
      },
      [
        'created fresh/nested/new.ts',
        'created real',
        'deleted real/d.ts',
        'deleted src/a.ts',
        'modified tool.sh',
        'type_changed src/b.ts',
      ],
    ],
  ];
  for (const [name, act, expected] of cases) {
    act();
    scratch.noteForeign();
    const capture = await scratch.capture();
    assert.equal(capture.tree, await reference(), name);
    assert.deepEqual(
      paths(capture).filter((p) => !p.startsWith('created vendor')),
      expected,
      name,
    );
  }
});

test('a fifo in place of a tracked file fails the capture, as the full scan does', async (t) => {
  const { scratch } = await open(t);
  rmSync(join(scratch.path, 'src/a.ts'));
  spawnSync('mkfifo', [join(scratch.path, 'src/a.ts')]);
  scratch.noteForeign();
  await assert.rejects(scratch.capture());
});

import assert from 'node:assert/strict';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { gitRepo, tempDir, testEnv } from '../../../../test/helpers/sandbox.js';
import { ShadowStore } from '../shadow-store.js';
import { ScratchTracker } from './tracking.js';
import { ShadowScratches, type WorktreeScratch } from './worktree-scratch.js';

const FILES = {
  '.gitignore': '*.env\n',
  'src/a.ts': 'a\n',
  'src/b.ts': 'b\n',
  'real/c.ts': 'c\n',
};

async function open(t: TestContext): Promise<{ scratch: WorktreeScratch; store: ShadowStore }> {
  const root = gitRepo(t, FILES);
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1 << 20, command: 'test' });
  t.after(() => store.close());
  const scratches = new ShadowScratches(store.git, store.workspace, {
    tempRoot: tempDir(t, 'aide-known-'),
    links: [],
  });
  const scratch = await scratches.open('known', (await store.snapshot()).tree);
  t.after(() => scratch.dispose());
  scratch.trackWrites();
  return { scratch, store };
}

const paths = (capture: { changes: Array<{ path: string; action: string }> }) =>
  capture.changes.map((c) => `${c.action} ${c.path}`).sort();

test('with only aide writing, a capture reads the paths it wrote: edits, new files, deletions', async (t) => {
  const { scratch } = await open(t);
  writeFileSync(join(scratch.path, 'src/a.ts'), 'edited\n');
  writeFileSync(join(scratch.path, 'src/new.ts'), 'new\n');
  rmSync(join(scratch.path, 'src/b.ts'));
  writeFileSync(join(scratch.path, 'secret.env'), 'ignored and new\n');
  scratch.noteWritten(['src/a.ts', 'src/new.ts', 'src/b.ts', 'secret.env']);
  const known = await scratch.capture();
  assert.deepEqual(paths(known), ['created src/new.ts', 'deleted src/b.ts', 'modified src/a.ts']);
  // A full scan finds the same tree.
  scratch.noteForeign();
  assert.equal((await scratch.capture()).tree, known.tree);
});

test('after a command ran (foreign), the capture walks every file: writes aide was not told of are seen', async (t) => {
  const { scratch } = await open(t);
  writeFileSync(join(scratch.path, 'src/a.ts'), 'by aide\n');
  scratch.noteWritten(['src/a.ts']);
  writeFileSync(join(scratch.path, 'src/planted.ts'), 'by a command\n');
  scratch.noteForeign();
  assert.deepEqual(paths(await scratch.capture()), ['created src/planted.ts', 'modified src/a.ts']);
});

test('a known path behind a symlink planted in its way falls back to the full scan', async (t) => {
  const { scratch } = await open(t);
  rmSync(join(scratch.path, 'src'), { recursive: true });
  symlinkSync('real', join(scratch.path, 'src'));
  scratch.noteWritten(['src/a.ts']);
  const capture = await scratch.capture();
  assert.deepEqual(paths(capture), ['created src', 'deleted src/a.ts', 'deleted src/b.ts']);
  assert.ok(
    capture.changes.some((c) => c.path === 'src' && c.newMode === '120000'),
    'the symlink is what the full scan records',
  );
});

test('the tracker tells the scratch: writes inside by their path, anything outside and every command as foreign', async (t) => {
  const { scratch } = await open(t);
  const tracker = new ScratchTracker();
  tracker.attach(scratch);
  writeFileSync(join(scratch.path, 'src/a.ts'), 'edited\n');
  tracker.wrote([join(scratch.path, 'src/a.ts')]);
  mkdirSync(join(scratch.path, 'out'));
  writeFileSync(join(scratch.path, 'out/x.ts'), 'unnoted\n');
  assert.deepEqual(paths(await scratch.capture()), ['modified src/a.ts'], 'only the noted path is read');
  tracker.wrote(['/elsewhere/file']);
  assert.deepEqual(paths(await scratch.capture()), ['created out/x.ts', 'modified src/a.ts']);
  rmSync(join(scratch.path, 'out'), { recursive: true });
  await scratch.capture();
  writeFileSync(join(scratch.path, 'src/b.ts'), 'by a command\n');
  tracker.commandRan();
  assert.deepEqual(paths(await scratch.capture()), ['modified src/a.ts', 'modified src/b.ts']);
});

test('settle sweeps in the background where commands leave nothing running: what they wrote is seen, a later command spoils it', async (t) => {
  const { scratch } = await open(t);
  scratch.trackWrites({ sweepsEarly: true });
  writeFileSync(join(scratch.path, 'src/a.ts'), 'by a command\n');
  scratch.noteForeign();
  await scratch.settle();
  // Written after the sweep with nothing told: the sweep's tree is what the capture takes (this
  // is why only commands that cannot outlive their run allow it).
  writeFileSync(join(scratch.path, 'src/b.ts'), 'unseen\n');
  assert.deepEqual(paths(await scratch.capture()), ['modified src/a.ts'], 'the early sweep was used');
  // aide's own write during a sweep is read again; a command run after it began spoils it.
  writeFileSync(join(scratch.path, 'src/new.ts'), 'by another command\n');
  scratch.noteForeign();
  const sweep = scratch.settle();
  writeFileSync(join(scratch.path, 'real/c.ts'), 'by aide meanwhile\n');
  scratch.noteWritten(['real/c.ts']);
  writeFileSync(join(scratch.path, 'src/late.ts'), 'by a command after settle\n');
  scratch.noteForeign();
  await sweep;
  assert.deepEqual(paths(await scratch.capture()), [
    'created src/late.ts',
    'created src/new.ts',
    'modified real/c.ts',
    'modified src/a.ts',
    'modified src/b.ts',
  ]);
});

test('settle does nothing where a command may leave processes behind: the next capture scans then', async (t) => {
  const { scratch } = await open(t);
  writeFileSync(join(scratch.path, 'src/a.ts'), 'by a command\n');
  scratch.noteForeign();
  await scratch.settle();
  writeFileSync(join(scratch.path, 'src/b.ts'), 'by what it left running\n');
  assert.deepEqual(paths(await scratch.capture()), ['modified src/a.ts', 'modified src/b.ts']);
});

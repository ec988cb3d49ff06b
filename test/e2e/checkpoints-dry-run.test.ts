/**
 * The checkpoints of `aide act --dry-run` record states the files never had: `aide checkpoints`
 * hides them unless --all asks, marks them "dry run", and counts a real checkpoint's changes
 * against the last real one, so `checkpoints show` never reports the dry run's edits as undone.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ADD_SUB, actRepo, planDoc } from '../helpers/act.js';
import { runAideInProcess } from '../helpers/in-process.js';

interface ListJson {
  checkpoints: Array<{
    id: string;
    short: string;
    session: string;
    step: string | null;
    dryRun: boolean;
    filesChanged: number;
  }>;
  hiddenDryRun: number;
}

async function aide(root: string, args: string[]) {
  const result = await runAideInProcess(args, { cwd: root });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  return result.stdout;
}

test('dry-run checkpoints are hidden by default, marked with --all, and left out of what a real checkpoint changed', async (t) => {
  const root = actRepo(t, planDoc('Sub', [{ title: 'Add sub', edits: ADD_SUB }]));
  await aide(root, ['checkpoints', 'save', '-m', 'start']);
  await aide(root, ['act', '--dry-run']);
  await aide(root, ['act', '--yes']);

  const all = JSON.parse(await aide(root, ['checkpoints', '--all', '--json'])) as ListJson;
  const dry = all.checkpoints.filter((c) => c.dryRun);
  assert.equal(dry.length, 2, 'the dry run: its base and its step');
  const dryStep = dry.find((c) => c.step === '1');
  const realBase = all.checkpoints.find((c) => !c.dryRun && c.step === null && c.session.startsWith('act-'));
  assert.ok(dryStep !== undefined && realBase !== undefined);

  const listed = JSON.parse(await aide(root, ['checkpoints', '--json'])) as ListJson;
  assert.equal(listed.hiddenDryRun, 2);
  assert.deepEqual(
    listed.checkpoints.map((c) => c.dryRun),
    [false, false, false],
  );
  // The real session started from the files as they were: nothing changed since "start".
  assert.equal(listed.checkpoints.find((c) => c.id === realBase.id)?.filesChanged, 0);

  const text = await aide(root, ['checkpoints']);
  assert.match(
    text,
    /\n2 checkpoints of dry runs not listed \(files aide verified but never wrote\): --all lists them\.\n/,
  );
  assert.doesNotMatch(text, new RegExp(dryStep.short));
  assert.match(
    await aide(root, ['checkpoints', '--all']),
    new RegExp(`^${dryStep.short} .* step 1, dry run +1 file +step 1: Add sub$`, 'm'),
  );

  assert.match(
    await aide(root, ['checkpoints', 'show', realBase.id]),
    /\n0 files changed since the previous checkpoint:\n$/,
  );
  assert.match(
    await aide(root, ['checkpoints', '--help']),
    /--all +List the checkpoints of dry runs too \(marked "dry run"\)[\s\S]*hidden unless --all/,
  );
  // Restoring a dry run's checkpoint is possible (it writes what the dry run verified), and says what it is.
  const restoreDry = await aide(root, ['restore', dryStep.id, '--dry-run']);
  assert.match(
    restoreDry,
    new RegExp(`^note: checkpoint ${dryStep.short} is from a dry run: your files never had this state`),
  );
  assert.doesNotMatch(await aide(root, ['restore', realBase.id, '--dry-run']), /from a dry run/);
  const noSession = await runAideInProcess(['checkpoints', '--session', 'act-nope'], { cwd: root });
  assert.equal(noSession.code, 2, noSession.stderr);
  assert.match(noSession.stderr, /^aide: no session "act-nope" has checkpoints here\n/);
  assert.match(
    await aide(root, ['checkpoints', 'show', dryStep.id]),
    /\ndry run {2}an `aide act --dry-run` session: aide verified this in a scratch copy and never wrote it to your files\n/,
  );
});

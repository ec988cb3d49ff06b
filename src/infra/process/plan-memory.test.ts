import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { PLAN_MEMORY_MS, PlanMemory, planKey, planMemoryFile } from './plan-memory.js';
import type { SandboxPlan, SandboxTools } from './sandbox-argv.js';

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'aide-plan-memory-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

const plan: SandboxPlan = { mechanism: 'bwrap', network: true, filesystem: 'confined', pid: true };
const weaker: SandboxPlan = { mechanism: 'unshare', network: true, filesystem: 'paths', pid: false };

function toolsIn(dir: string): SandboxTools {
  const bwrap = join(dir, 'bwrap');
  writeFileSync(bwrap, '#!/bin/sh\n');
  chmodSync(bwrap, 0o755);
  return {
    unshare: null,
    unshareMapsCurrentUser: false,
    bwrap,
    mount: null,
    umount: null,
    pivotRoot: null,
    setpriv: null,
    ip: null,
  };
}

test('the memory lives in the cache folder: XDG_CACHE_HOME, else ~/.cache; none without an absolute one', () => {
  assert.equal(planMemoryFile({ XDG_CACHE_HOME: '/c', HOME: '/h' }), '/c/aide/sandbox-plans.json');
  assert.equal(planMemoryFile({ HOME: '/h' }), '/h/.cache/aide/sandbox-plans.json');
  assert.equal(planMemoryFile({ XDG_CACHE_HOME: 'relative', HOME: 'also' }), null);
  assert.equal(planMemoryFile({}), null);
});

test('a pass is remembered across instances (runs) for a few minutes, then forgotten', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'cache', 'aide', 'sandbox-plans.json');
  const env = { HOME: dir, TMPDIR: dir };
  const key = planKey(plan, toolsIn(dir), env);
  let now = 1_000_000;
  new PlanMemory(file, () => now).rememberPass(key);
  assert.equal((statSync(file).mode & 0o777).toString(8), '600');
  assert.equal(new PlanMemory(file, () => now + 1000).passedLately(key), true);
  now += PLAN_MEMORY_MS;
  assert.equal(new PlanMemory(file, () => now).passedLately(key), false, 'too old');
  assert.equal(new PlanMemory(file, () => 1_000_000 - 1).passedLately(key), false, 'from the future');
});

test('another plan (one with an overlay too), a replaced program, another TMPDIR or HOME: each is a different key', (t) => {
  const dir = tempDir(t);
  const env = { HOME: dir, TMPDIR: dir };
  const tools = toolsIn(dir);
  const key = planKey(plan, tools, env);
  assert.equal(planKey(plan, tools, { ...env }), key, 'the same facts, the same key');
  assert.notEqual(planKey(weaker, tools, env), key);
  assert.notEqual(
    planKey({ ...plan, layers: true }, tools, env),
    key,
    'a pass without the overlay says nothing of one',
  );
  assert.notEqual(planKey(plan, tools, { ...env, TMPDIR: join(dir, 'other') }), key);
  assert.notEqual(planKey(plan, tools, { ...env, HOME: join(dir, 'other') }), key);
  // An upgraded bwrap: the same path, another file.
  const bwrap = tools.bwrap ?? '';
  rmSync(bwrap);
  writeFileSync(bwrap, '#!/bin/sh\n# 0.9\n');
  assert.notEqual(planKey(plan, tools, env), key);
});

test('only the remembered key passes: a pass of one plan says nothing of another', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'plans.json');
  const env = { HOME: dir };
  const tools = toolsIn(dir);
  const memory = new PlanMemory(file);
  memory.rememberPass(planKey(weaker, tools, env));
  assert.equal(memory.passedLately(planKey(weaker, tools, env)), true);
  assert.equal(memory.passedLately(planKey(plan, tools, env)), false);
});

test('a damaged or foreign file is no error and remembers nothing; the next pass rewrites it', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'plans.json');
  const key = planKey(plan, toolsIn(dir), { HOME: dir });
  for (const text of [
    'not json',
    '[]',
    '{"format":2,"passed":{}}',
    `{"format":1,"passed":{"${key}":"soon"}}`,
  ]) {
    writeFileSync(file, text);
    assert.equal(new PlanMemory(file).passedLately(key), false, text);
  }
  new PlanMemory(file).rememberPass(key);
  assert.equal(new PlanMemory(file).passedLately(key), true);
  assert.match(readFileSync(file, 'utf8'), /^\{"format":1,"passed":\{"[0-9a-f]{32}":\d+\}\}\n$/);
});

test('a cache folder that cannot be written is no error, and nothing is remembered', (t) => {
  const dir = tempDir(t);
  const blocker = join(dir, 'file');
  writeFileSync(blocker, '');
  const memory = new PlanMemory(join(blocker, 'aide', 'plans.json'));
  const key = planKey(plan, toolsIn(dir), { HOME: dir });
  memory.rememberPass(key);
  assert.equal(memory.passedLately(key), false);
  assert.equal(new PlanMemory(null).passedLately(key), false);
});

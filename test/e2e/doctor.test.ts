import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { scratchHome } from '../../src/infra/shadow/scratch/registry.js';
import { ShadowStore } from '../../src/infra/shadow/shadow-store.js';
import { runAide } from '../helpers/cli.js';
import { runAideInProcess } from '../helpers/in-process.js';
import { startFakeOllama } from '../helpers/fake-ollama-server.js';
import { gitRepo, tempDir, testEnv, writeTree } from '../helpers/sandbox.js';

interface DoctorReport {
  schema: string;
  ok: boolean;
  root: string;
  checks: Array<{ id: string; status: string; summary: string; details: string[]; fix: string | null }>;
  scratch: { mechanism: string; reason: string };
  facts: {
    git: { version: string | null };
    workspace: { shadow: { present: boolean; sessions: number } };
    scratch: { stale: number };
  };
}

/** Doctor contacts the model server: a fake Ollama on a free port, named by AIDE_MODEL_ENDPOINT. */
async function modelServer(t: TestContext): Promise<Record<string, string>> {
  const server = await startFakeOllama({ replies: [{ chunks: ['ok'] }, { chunks: ['ok'] }] });
  t.after(() => server.close());
  return { AIDE_MODEL_ENDPOINT: `${server.url}/v1` };
}

test('doctor in a fresh repository: every check passes, text output', async (t) => {
  const root = gitRepo(t, { 'a.txt': 'a\n' });
  const env = { TMPDIR: tempDir(t), ...(await modelServer(t)) };
  const result = await runAide(['doctor'], { cwd: root, home: tempDir(t), env });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^aide doctor: /);
  for (const id of ['node', 'git', 'workspace', 'scratch', 'network', 'model'])
    assert.match(result.stdout, new RegExp(`^ {2}ok {4}${id}\\b`, 'm'), `${id} is not ok:\n${result.stdout}`);
  assert.match(result.stdout, /git worktree of the shadow, moved incrementally/);
  assert.match(result.stdout, /no shadow repository yet/);
  assert.match(
    result.stdout,
    /ollama at http:\/\/127\.0\.0\.1:\d+\/v1: model qwen2\.5-coder:14b, context \d+ tokens/,
  );
  assert.match(result.stdout, /Everything aide needs is here/);
});

test('doctor --json reports the shadow, stale scratches and the scratch mechanism', async (t) => {
  const root = gitRepo(t, { 'a.txt': 'a\n' });
  const temp = tempDir(t);
  const store = await ShadowStore.open(root, testEnv(tempDir(t)), { maxFileBytes: 1 << 20, command: 'test' });
  await store.checkpoint({ session: 's1', reason: 'test', message: 'first' });
  await store.close();
  const home = scratchHome(temp, root);
  // A scratch left by a crash: its folder, its owner record (in the workspace state) naming a dead pid.
  mkdirSync(join(home, 'verify-20260101-000000-dead'), { recursive: true });
  writeTree(root, {
    '.aide/state/scratches/verify-20260101-000000-dead.json': JSON.stringify({
      version: 2,
      pid: 2 ** 22 + 7,
      identity: null,
      createdAt: 'then',
    }),
  });
  const env = { TMPDIR: temp, ...(await modelServer(t)) };
  const result = await runAideInProcess(['doctor', '--json'], { cwd: root, home: tempDir(t), env });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as DoctorReport;
  assert.equal(report.schema, 'aide.doctor/1');
  assert.equal(report.ok, true);
  assert.equal(report.root, root);
  assert.equal(report.scratch.mechanism, 'worktree');
  assert.deepEqual(report.facts.workspace.shadow.present, true);
  assert.equal(report.facts.workspace.shadow.sessions, 1);
  assert.equal(report.facts.scratch.stale, 1);
  assert.match(report.facts.git.version ?? '', /^\d+\.\d+/);
  assert.ok(report.checks.find((c) => c.id === 'scratch')?.details.some((d) => d.includes('1 stale')));
});

test('doctor --endpoint contacts that server, not the one AIDE_MODEL_ENDPOINT names', async (t) => {
  const root = gitRepo(t, { 'a.txt': 'a\n' });
  const server = await startFakeOllama({ replies: [{ chunks: ['ok'] }, { chunks: ['ok'] }] });
  t.after(() => server.close());
  // Nothing listens on port 1: were the variable used, the model check would warn.
  const env = { TMPDIR: tempDir(t), AIDE_MODEL_ENDPOINT: 'http://127.0.0.1:1/v1' };
  const args = ['doctor', '--endpoint', `${server.url}/v1`];
  const result = await runAideInProcess(args, { cwd: root, home: tempDir(t), env });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^ {2}ok {4}model\b/m);
  assert.ok(result.stdout.includes(`ollama at ${server.url}/v1: model qwen2.5-coder:14b`), result.stdout);
  assert.ok(server.requests.length > 0, 'the fake server was contacted');
});

test('doctor --endpoint to a remote host is refused before any contact, naming the flag', async (t) => {
  const root = gitRepo(t, { 'a.txt': 'a\n' });
  const args = ['doctor', '--endpoint', 'http://gpu.example:8000/v1'];
  const result = await runAideInProcess(args, { cwd: root, home: tempDir(t), env: { TMPDIR: tempDir(t) } });
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stdout, /^ {2}FAIL {2}config {5}--endpoint is invalid/m);
});

test('doctor exits 1 with the fix when the configuration is invalid', async (t) => {
  const root = gitRepo(t, { '.aide/config.json': '{ "model": { "endpoint": 42 } }' });
  const text = await runAideInProcess(['doctor'], {
    cwd: root,
    home: tempDir(t),
    env: { TMPDIR: tempDir(t) },
  });
  assert.equal(text.code, 1, text.stderr);
  assert.match(text.stdout, /FAIL {2}config +\.aide\/config\.json is invalid/);
  assert.doesNotMatch(text.stdout, /model/);
  assert.match(text.stdout, /fix: Run `aide config`/);
  assert.match(text.stdout, /1 problem to fix/);
  const json = await runAideInProcess(['doctor', '--json'], {
    cwd: root,
    home: tempDir(t),
    env: { TMPDIR: tempDir(t) },
  });
  assert.equal(json.code, 1);
  const report = JSON.parse(json.stdout) as DoctorReport;
  assert.equal(report.ok, false);
  assert.equal(report.checks.find((c) => c.id === 'config')?.status, 'fail');
});

test('doctor names an invalid sandbox.json as a configuration problem, not a failed model check', async (t) => {
  const root = gitRepo(t, { '.aide/sandbox.json': '{ "commands": 7 }' });
  const text = await runAideInProcess(['doctor'], {
    cwd: root,
    home: tempDir(t),
    env: { TMPDIR: tempDir(t) },
  });
  assert.equal(text.code, 1, text.stderr);
  assert.match(text.stdout, /FAIL {2}config +\.aide\/sandbox\.json is invalid/);
  assert.doesNotMatch(text.stdout, /^ {2}\S+ +model\b/m);
});

/**
 * The `model` check of `aide review` against the fake servers over real HTTP: findings parsed
 * and shown (text, --json, --junit), review.model_blocks_on failing the check, a malformed
 * review reported, not crashed; no model configured, a closed port and a hung server Skipped
 * quickly; a real `git commit` refused through the installed hook by a blocking finding; Ctrl-C.
 * verify is skipped throughout (AIDE_SKIP=verify): it is not what these tests are about.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BIN, runAide } from '../helpers/cli.js';
import { delay, freePort, startFakeHttpServer } from '../helpers/fake-http-server.js';
import { startFakeOllama } from '../helpers/fake-ollama-server.js';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai-server.js';
import { runAideInProcess } from '../helpers/in-process.js';
import { git, gitRepo, tempDir, testEnv, testHome, writeTree, type Cleanup } from '../helpers/sandbox.js';

const T = { timeout: 60_000 };
const SKIP_VERIFY = { AIDE_SKIP: 'verify' };
const MODEL = 'qwen2.5-coder-14b';
/** What the fakes report having read: about what aide sent (fewer would be a prompt cut short). */
const PROMPT_TOKENS = 1000;

/** A repository with a.js committed, the model settings in config.json, and a change to a.js staged. */
function stagedRepo(t: Cleanup, config: Record<string, unknown>): string {
  const root = gitRepo(t, {
    'a.js': 'export function total(items) {\n  return 0;\n}\n',
    '.aide/config.json': JSON.stringify(config),
  });
  writeTree(root, {
    'a.js': 'export function total(items) {\n  let sum;\n  return sum + items.length;\n}\n',
  });
  git(root, ['add', 'a.js']);
  return root;
}

const modelConfig = (server: { url: string }, blocksOn?: string) => ({
  model: { endpoint: `${server.url}/v1`, name: MODEL },
  ...(blocksOn === undefined ? {} : { review: { model_blocks_on: blocksOn } }),
});

/** A child process run asynchronously (the fakes answer from this process): its end and all it printed. */
function started(command: string, args: string[], cwd: string) {
  const child = spawn(command, args, {
    cwd,
    env: testEnv(testHome(), SKIP_VERIFY),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
  const done = new Promise<{ status: number | null; output: string }>((resolve) => {
    child.on('close', (status) => {
      resolve({ status, output });
    });
  });
  return { child, done };
}

function lineOf(stdout: string, check: string): string {
  return stdout.split('\n').find((l) => l.startsWith(`${check}.`)) ?? `(no ${check} line)\n${stdout}`;
}

interface ReviewJson {
  verdict: string;
  checks: Array<{
    name: string;
    status: string;
    reason?: string;
    findings: Array<{ file: string; line: number | null; severity: string; message: string }>;
    details?: string[];
  }>;
}
const modelOf = (stdout: string) => (JSON.parse(stdout) as ReviewJson).checks.find((c) => c.name === 'model');

const REVIEW_REPLY = [
  '<think>error a.js:1: a draft that must not count</think>',
  'error a.js:3: sum is undefined, so the total is NaN',
  'warning src/other.js:1: a file the change does not touch',
  'Overall the change is small.',
].join('\n');

async function openAi(t: Cleanup, replies: string[]): Promise<FakeOpenAi> {
  const server = await startFakeOpenAi({
    kind: 'generic',
    models: [MODEL],
    replies: replies.map((r) => ({ chunks: [r], promptTokens: PROMPT_TOKENS })),
  });
  t.after(() => server.close());
  return server;
}

test(
  'findings are parsed and shown (text and --json), advice only by default; the diff goes fenced and numbered',
  T,
  async (t) => {
    const server = await openAi(t, [REVIEW_REPLY, REVIEW_REPLY]);
    const root = stagedRepo(t, modelConfig(server));
    const text = await runAide(['review', '--staged'], { cwd: root, env: SKIP_VERIFY });
    assert.equal(text.code, 0, text.stdout + text.stderr);
    assert.match(lineOf(text.stdout, 'model'), /\.Passed$/);
    assert.match(text.stdout, /^- a\.js:3: error: sum is undefined, so the total is NaN$/m);
    assert.match(text.stdout, /2 lines of the reply dropped:/);
    assert.match(text.stdout, /src\/other\.js is not a file of the change/);
    assert.doesNotMatch(text.stdout, /draft that must not count/);

    const json = await runAideInProcess(['review', '--staged', '--json'], { cwd: root, env: SKIP_VERIFY });
    assert.equal(json.code, 0, json.stderr);
    const model = modelOf(json.stdout);
    assert.equal(model?.status, 'passed');
    assert.deepEqual(
      model?.findings.map((f) => [f.file, f.line, f.severity]),
      [['a.js', 3, 'error']],
    );
    assert.match(model?.reason ?? '', /advice only \(review\.model_blocks_on: none\)/);

    const prompt = JSON.stringify(server.chats[0]);
    assert.match(prompt, /\[\[tool_result name=change status=ok fence=[A-Za-z0-9]{16}\]\]/);
    assert.match(prompt, /### a\.js/);
    assert.match(prompt, / {5}3 \+ {2}return sum \+ items\.length;/, 'each new line carries its number');
  },
);

test(
  'model_blocks_on "error": an error finding fails the check, exit 1, in --junit too; an unreadable review is Skipped, exit 0',
  T,
  async (t) => {
    const server = await openAi(t, [REVIEW_REPLY, 'The change looks fine to me!']);
    const root = stagedRepo(t, modelConfig(server, 'error'));
    const junit = join(tempDir(t), 'review.xml');
    const failed = await runAideInProcess(['review', '--staged', '--junit', junit], {
      cwd: root,
      env: SKIP_VERIFY,
    });
    assert.equal(failed.code, 1, failed.stdout + failed.stderr);
    assert.match(lineOf(failed.stdout, 'model'), /\.Failed$/);
    assert.match(failed.stdout, /fix: review\.model_blocks_on is "error"/);
    assert.match(failed.stdout, /aide review: failed: model/);
    const xml = readFileSync(junit, 'utf8');
    assert.match(
      xml,
      /<testcase classname="aide\.review" name="model"[^>]*>\s*<failure message="1 finding from qwen2\.5-coder-14b" type="failed">/,
    );
    assert.match(xml, /a\.js:3: error: sum is undefined/);

    const unread = await runAideInProcess(['review', '--staged', '--json'], { cwd: root, env: SKIP_VERIFY });
    assert.equal(unread.code, 0, unread.stdout + unread.stderr);
    const model = modelOf(unread.stdout);
    assert.equal(model?.status, 'skipped');
    assert.equal(model?.reason, "the model's review could not be read");
    assert.ok(model?.details?.some((d) => d.includes('The change looks fine to me!')));
  },
);

test(
  'Skipped with the reason, quickly: no model configured, a closed port, a server that never answers',
  T,
  async (t) => {
    const none = stagedRepo(t, {});
    const unconfigured = await runAideInProcess(['review', '--staged'], { cwd: none, env: SKIP_VERIFY });
    assert.equal(unconfigured.code, 0, unconfigured.stderr);
    assert.match(lineOf(unconfigured.stdout, 'model'), /\.Skipped \(no model configured\)$/);

    const port = await freePort();
    const started = Date.now();
    const down = await runAideInProcess(['review', '--staged'], {
      cwd: none,
      env: { ...SKIP_VERIFY, AIDE_MODEL_ENDPOINT: `http://127.0.0.1:${port}/v1` },
    });
    assert.equal(down.code, 0, down.stdout + down.stderr);
    assert.match(
      lineOf(down.stdout, 'model'),
      /\.Skipped \(no model server at http:\/\/127\.0\.0\.1:\d+\/v1\)$/,
    );
    assert.ok(Date.now() - started < 5000, `a closed port took ${Date.now() - started} ms`);

    const hung = await startFakeHttpServer(() => undefined);
    t.after(() => hung.close());
    const waited = Date.now();
    const silent = await runAideInProcess(['review', '--staged', '--endpoint', hung.url], {
      cwd: none,
      env: SKIP_VERIFY,
    });
    assert.equal(silent.code, 0, silent.stdout + silent.stderr);
    assert.match(
      lineOf(silent.stdout, 'model'),
      /\.Skipped \(http:\/\/127\.0\.0\.1:\d+ did not answer within 2 s\)$/,
    );
    assert.ok(Date.now() - waited < 8000, `a hung server took ${Date.now() - waited} ms`);
  },
);

test('through Ollama\'s native API: a clean review ("no findings") passes', T, async (t) => {
  const server = await startFakeOllama({
    replies: [{ chunks: ['no findings\n'], promptTokens: PROMPT_TOKENS }],
    contextLength: 8192,
  });
  t.after(() => server.close());
  const root = stagedRepo(t, { model: { endpoint: server.url, name: 'qwen2.5-coder:14b' } });
  const result = await runAideInProcess(['review', '--staged', '--json'], { cwd: root, env: SKIP_VERIFY });
  assert.equal(result.code, 0, result.stdout + result.stderr);
  const model = modelOf(result.stdout);
  assert.equal(model?.status, 'passed');
  assert.deepEqual(model?.findings, []);
  assert.equal(server.chats.length, 1);
});

test(
  'a real git commit through the installed hook: a blocking finding refuses it, no commit made',
  T,
  async (t) => {
    const server = await openAi(t, [REVIEW_REPLY]);
    const root = stagedRepo(t, modelConfig(server, 'warning'));
    const install = await runAide(['hooks', 'install'], { cwd: root });
    assert.equal(install.code, 0, install.stderr);
    const before = git(root, ['rev-parse', 'HEAD']);
    // Not spawnSync: the fake server answers from this process, which must keep running meanwhile.
    const commit = await started('git', ['commit', '-q', '-m', 'change'], root).done;
    const output = commit.output;
    assert.notEqual(commit.status, 0, output);
    assert.match(output, /^model\.+Failed$/m);
    assert.match(output, /a\.js:3: error: sum is undefined/);
    assert.equal(git(root, ['rev-parse', 'HEAD']), before, 'no commit was made');
  },
);

test('Ctrl-C while the model is answering: the request is cancelled, exit 130, at once', T, async (t) => {
  const server = await startFakeOpenAi({
    kind: 'generic',
    models: [MODEL],
    replies: [{ chunks: ['error a.js:3: '], hang: true }],
  });
  t.after(() => server.close());
  const root = stagedRepo(t, modelConfig(server));
  const run = started(process.execPath, [BIN, 'review', '--staged'], root);
  while (server.chats.length === 0) await delay(20);
  const interrupted = Date.now();
  run.child.kill('SIGINT');
  const { status, output } = await run.done;
  assert.equal(status, 130, output);
  assert.match(output, /interrupted/);
  assert.ok(Date.now() - interrupted < 5000, `exit took ${Date.now() - interrupted} ms after Ctrl-C`);
});

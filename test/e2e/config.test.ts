import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runAide } from '../helpers/cli.js';
import { runAideInProcess } from '../helpers/in-process.js';
import { gitRepo, tempDir, writeTree } from '../helpers/sandbox.js';

interface Entry {
  path: string;
  value: unknown;
  source: { kind: string; file?: string; line?: number; variable?: string; flag?: string };
}

interface ConfigReport {
  schema: string;
  config: { exists: boolean; value: { model: { name: string } }; sources: Entry[] };
  sandbox: { exists: boolean; sources: Entry[] };
}

test('config with no .aide folder shows every default', async (t) => {
  const cwd = tempDir(t);
  const result = await runAide(['config'], { cwd });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /\.aide\/config\.json \(no such file: defaults apply\)/);
  assert.match(result.stdout, /model\.endpoint\s+"http:\/\/127\.0\.0\.1:11434\/v1"\s+default/);
  assert.match(result.stdout, /model\.api_key_env\s+\(not set\)\s+default/);
  assert.match(result.stdout, /timeout_ms\s+120000\s+default/);
  assert.match(result.stdout, /no verify commands/);
});

test('config shows file values with path:line', async (t) => {
  const root = gitRepo(t, {
    '.aide/config.json': '{\n  "model": {\n    "name": "llama3.1:8b"\n  }\n}\n',
    '.aide/sandbox.json': '{\n  "timeout_ms": 30000\n}\n',
  });
  const result = await runAideInProcess(['config'], { cwd: root });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /model\.name\s+"llama3\.1:8b"\s+\.aide\/config\.json:3\n/);
  assert.match(result.stdout, /model\.context_tokens\s+16384\s+default\n/);
  assert.match(result.stdout, /\n {2}timeout_ms\s+30000\s+\.aide\/sandbox\.json:2\n/);
});

test('config shows environment overrides by variable name', async (t) => {
  const root = gitRepo(t, { '.aide/config.json': '{ "model": { "name": "from-file" } }' });
  const result = await runAideInProcess(['config'], {
    cwd: root,
    env: { AIDE_MODEL: 'qwen3-coder:30b', AIDE_CONTEXT_TOKENS: '32768' },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /model\.name\s+"qwen3-coder:30b"\s+env AIDE_MODEL\n/);
  assert.match(result.stdout, /model\.context_tokens\s+32768\s+env AIDE_CONTEXT_TOKENS\n/);
});

test('config --json has the values and the source of each', async (t) => {
  const root = gitRepo(t, { '.aide/config.json': '{\n  "model": { "name": "from-file" }\n}' });
  const result = await runAideInProcess(['config', '--json'], {
    cwd: root,
    env: { AIDE_MODEL_ENDPOINT: 'http://localhost:1234/v1' },
  });
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout) as ConfigReport;
  assert.equal(report.schema, 'aide.config/1');
  assert.equal(report.config.exists, true);
  assert.equal(report.sandbox.exists, false);
  assert.equal(report.config.value.model.name, 'from-file');
  const source = (path: string) => report.config.sources.find((e) => e.path === path)?.source;
  assert.deepEqual(source('model.name'), { kind: 'file', file: '.aide/config.json', line: 2, column: 14 });
  assert.deepEqual(source('model.endpoint'), { kind: 'env', variable: 'AIDE_MODEL_ENDPOINT' });
  assert.deepEqual(source('limits.max_iterations'), { kind: 'default' });
});

test('an invalid file exits 2 with file:line:column, the JSON path and a did-you-mean', async (t) => {
  const root = gitRepo(t, {
    '.aide/sandbox.json':
      '{\n  "commands": [\n    { "name": "test", "run": ["npm", "test"], "timout_ms": 30000 }\n  ]\n}\n',
    '.aide/config.json': '{\n  "model": { "context_tokens": "32k" }\n}\n',
  });
  const result = await runAideInProcess(['config'], { cwd: root });
  assert.equal(result.code, 2);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /\.aide\/config\.json and \.aide\/sandbox\.json are invalid \(2 problems\)/);
  assert.match(
    result.stderr,
    /\.aide\/sandbox\.json:3:47: commands\[0\]\.timout_ms: unknown key \(did you mean "timeout_ms"\?\)/,
  );
  assert.match(result.stderr, /hint: Rename it to "timeout_ms"\./);
  assert.match(
    result.stderr,
    /\.aide\/config\.json:2:14: model\.context_tokens: expected a whole number of tokens from 1024 to 1048576 \(e\.g\. 32768\), got "32k"/,
  );
});

test('invalid JSON exits 2 with line and column', async (t) => {
  const cwd = tempDir(t);
  writeTree(cwd, { '.aide/config.json': '{\n  "model": { "name": "x" },\n}\n' });
  const result = await runAideInProcess(['config'], { cwd });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /\.aide\/config\.json:2:27: trailing comma/);
});

test('an invalid environment value exits 2 naming the variable', async (t) => {
  const cwd = tempDir(t);
  const result = await runAideInProcess(['config'], { cwd, env: { AIDE_CONTEXT_TOKENS: 'lots' } });
  assert.equal(result.code, 2);
  assert.match(
    result.stderr,
    /AIDE_CONTEXT_TOKENS \(environment variable\): model\.context_tokens: .*got "lots"/,
  );
});

test('config --json errors carry every problem as data', async (t) => {
  const cwd = tempDir(t);
  writeTree(cwd, { '.aide/config.json': '{ "modle": {} }' });
  const result = await runAideInProcess(['config', '--json'], { cwd });
  assert.equal(result.code, 2);
  const { error } = JSON.parse(result.stdout) as {
    error: { code: string; data: { problems: Record<string, unknown>[] } };
  };
  assert.equal(error.code, 'config_invalid');
  assert.deepEqual(error.data.problems, [
    {
      file: '.aide/config.json',
      line: 1,
      column: 3,
      variable: null,
      flag: null,
      path: 'modle',
      message: 'unknown key (did you mean "model"?)',
      hint: 'Rename it to "model".',
    },
  ]);
});

test('config --model and --endpoint show their flag as the source, and beat the variables', async (t) => {
  const root = gitRepo(t, { '.aide/config.json': '{ "model": { "name": "from-file" } }' });
  const args = ['config', '--model', 'X', '--endpoint', 'http://127.0.0.1:1/v1'];
  const env = { AIDE_MODEL: 'from-env', AIDE_MODEL_ENDPOINT: 'http://localhost:1234/v1' };
  const text = await runAideInProcess(args, { cwd: root, env });
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /model\.name\s+"X"\s+--model\n/);
  assert.match(text.stdout, /model\.endpoint\s+"http:\/\/127\.0\.0\.1:1\/v1"\s+--endpoint\n/);
  const json = await runAideInProcess([...args, '--json'], { cwd: root, env });
  assert.equal(json.code, 0, json.stderr);
  const report = JSON.parse(json.stdout) as ConfigReport;
  const entry = (path: string) => report.config.sources.find((e) => e.path === path);
  assert.deepEqual(entry('model.name'), {
    path: 'model.name',
    value: 'X',
    source: { kind: 'flag', flag: '--model' },
  });
  assert.deepEqual(entry('model.endpoint'), {
    path: 'model.endpoint',
    value: 'http://127.0.0.1:1/v1',
    source: { kind: 'flag', flag: '--endpoint' },
  });
});

test('config --endpoint to a remote host is refused, naming the flag', async (t) => {
  const cwd = tempDir(t);
  const result = await runAideInProcess(['config', '--endpoint', 'http://gpu.example:8000/v1'], { cwd });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /^aide: --endpoint is invalid/);
  assert.match(
    result.stderr,
    /--endpoint \(command-line flag\): model\.endpoint: http:\/\/gpu\.example:8000\/v1 is not on this machine/,
  );
  assert.match(result.stderr, /allow_remote/);
});

test('config --model with no value is a usage error', async (t) => {
  const result = await runAideInProcess(['config', '--model'], { cwd: tempDir(t) });
  assert.notEqual(result.code, 0);
  assert.match(result.stderr, /model/);
});

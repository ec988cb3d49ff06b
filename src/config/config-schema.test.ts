import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_PROTECTED_PATHS, isLoopbackHost } from './config-schema.js';
import { parseConfigFile, type LoadResult } from './load.js';
import { formatProblem } from './problems.js';

function problems<T>(result: LoadResult<T>): string[] {
  assert.equal(result.ok, false, 'expected the file to be rejected');
  return result.ok ? [] : result.problems.map((p) => `${formatProblem(p)} | ${p.hint ?? ''}`);
}

function loaded<T>(result: LoadResult<T>) {
  if (!result.ok)
    assert.fail(`expected a valid file, got:\n${result.problems.map(formatProblem).join('\n')}`);
  return result.loaded;
}

test('a missing config.json means every default', () => {
  const { value, exists } = loaded(parseConfigFile(null, {}));
  assert.equal(exists, false);
  assert.deepEqual(value, {
    model: {
      endpoint: 'http://127.0.0.1:11434/v1',
      name: 'qwen2.5-coder:14b',
      context_tokens: 16384,
      allow_remote: false,
      provider: 'auto',
      temperature: 0.2,
      timeout_ms: 600_000,
      keep_alive: '30m',
      grammar: 'auto',
    },
    limits: { max_iterations: 25, max_consecutive_mistakes: 3, max_tool_result_bytes: 16384 },
    checkpoints: { max_file_bytes: 20 * 1024 * 1024 },
    review: { protected: 'warn', max_file_kb: 500, model_blocks_on: 'none' },
    protected_paths: [...DEFAULT_PROTECTED_PATHS],
  });
});

test('the model client settings are checked: provider, temperature, timeout and keep_alive', () => {
  const file = JSON.stringify({
    model: { provider: 'lmstudio', temperature: 3, timeout_ms: 0, keep_alive: '30 minutes' },
  });
  const found = problems(parseConfigFile(file, {})).join('\n');
  assert.match(found, /model\.provider: expected one of "auto", "ollama", "openai-compatible"/);
  assert.match(found, /model\.temperature: expected a number from 0 to 2/);
  assert.match(found, /model\.timeout_ms: expected a whole number of milliseconds from 1 to 86400000/);
  assert.match(found, /model\.keep_alive: expected a duration such as "30m"/);
  const ok = JSON.stringify({ model: { provider: 'ollama', temperature: 0, keep_alive: '-1' } });
  const { model } = loaded(parseConfigFile(ok, {})).value;
  assert.deepEqual([model.provider, model.temperature, model.keep_alive], ['ollama', 0, '-1']);
});

test('model.grammar is "auto" or "off"', () => {
  const found = problems(parseConfigFile(JSON.stringify({ model: { grammar: 'on' } }), {})).join('\n');
  assert.match(found, /model\.grammar: expected one of "auto", "off"/);
  const { model } = loaded(parseConfigFile(JSON.stringify({ model: { grammar: 'off' } }), {})).value;
  assert.equal(model.grammar, 'off');
});

test('an empty object means every default too', () => {
  assert.deepEqual(loaded(parseConfigFile('{}\n', {})).value, loaded(parseConfigFile(null, {})).value);
});

test('the default protected paths cover tests, snapshots, lockfiles, package scripts, CI, hooks, .git and .aide', () => {
  for (const path of [
    '**/__snapshots__/**',
    '**/*.test.*',
    '**/package-lock.json',
    '**/package.json#/scripts',
    '.github/workflows/**',
    '.husky/**',
    '.git/**',
    '.aide/**',
  ]) {
    assert.ok(DEFAULT_PROTECTED_PATHS.includes(path), path);
  }
});

test('file values override defaults, partially', () => {
  const { value } = loaded(
    parseConfigFile('{ "model": { "name": "llama3.1:8b" }, "limits": { "max_iterations": 10 } }', {}),
  );
  assert.equal(value.model.name, 'llama3.1:8b');
  assert.equal(value.model.context_tokens, 16384);
  assert.equal(value.limits.max_iterations, 10);
  assert.equal(value.limits.max_consecutive_mistakes, 3);
});

test('an unknown key is an error with its JSON path, line:column and a did-you-mean', () => {
  const text = '{\n  "model": {\n    "nmae": "x"\n  }\n}\n';
  assert.deepEqual(problems(parseConfigFile(text, {})), [
    '.aide/config.json:3:5: model.nmae: unknown key (did you mean "name"?) | Rename it to "name".',
  ]);
});

test('an unknown key with no near match lists the allowed keys', () => {
  const [problem] = problems(parseConfigFile('{ "colour": true }', {}));
  assert.match(
    problem ?? '',
    /^\.aide\/config\.json:1:3: colour: unknown key \| Remove it\. Allowed here: \$schema, model, limits, checkpoints, review, protected_paths\.$/,
  );
});

test('a key at the wrong level says where it belongs', () => {
  const [problem] = problems(parseConfigFile('{ "max_iterations": 5 }', {}));
  assert.match(problem ?? '', /max_iterations: unknown key here \(it belongs inside "limits"\)/);
});

test('a value of the wrong type names what was expected and what was found', () => {
  const text = '{\n  "model": { "context_tokens": "32k" },\n  "limits": { "max_iterations": 0 }\n}';
  assert.deepEqual(problems(parseConfigFile(text, {})), [
    '.aide/config.json:2:14: model.context_tokens: expected a whole number of tokens from 1024 to 1048576 (e.g. 32768), got "32k" | Fix the value, or remove "context_tokens" to use the default (16384).',
    '.aide/config.json:3:15: limits.max_iterations: expected a whole number of model turns from 1 to 1000 (e.g. 25), got 0 | Fix the value, or remove "max_iterations" to use the default (25).',
  ]);
});

test('a section of the wrong type is reported at the section', () => {
  assert.deepEqual(problems(parseConfigFile('{ "model": "llama3" }', {})), [
    '.aide/config.json:1:3: model: expected an object (the model settings), got "llama3" | Fix the value, or remove "model" to use the default ({}).',
  ]);
});

test('a remote endpoint without allow_remote is an error naming the field and the fix', () => {
  const [problem] = problems(parseConfigFile('{ "model": { "endpoint": "http://gpu-box:8000/v1" } }', {}));
  assert.match(
    problem ?? '',
    /^\.aide\/config\.json:1:14: model\.endpoint: http:\/\/gpu-box:8000\/v1 is not on this machine/,
  );
  assert.match(problem ?? '', /set "allow_remote": true in "model"/);
});

test('a remote endpoint with allow_remote is accepted', () => {
  const { value } = loaded(
    parseConfigFile('{ "model": { "endpoint": "https://llm.example.com/v1", "allow_remote": true } }', {}),
  );
  assert.equal(value.model.endpoint, 'https://llm.example.com/v1');
});

test('the remote check is reported together with other problems in the same object', () => {
  const found = problems(
    parseConfigFile('{ "model": { "endpoint": "http://10.0.0.2/v1", "context_tokens": -1 } }', {}),
  );
  assert.equal(found.length, 2);
});

test('loopback hosts are local; everything else is remote', () => {
  for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', 'ollama.localhost'])
    assert.ok(isLoopbackHost(host), host);
  for (const host of ['0.0.0.0', '10.0.0.1', 'example.com', 'localhost.example.com', '[::2]'])
    assert.ok(!isLoopbackHost(host), host);
});

test('an endpoint that is not an http(s) URL is rejected', () => {
  const [problem] = problems(parseConfigFile('{ "model": { "endpoint": "ftp://127.0.0.1/v1" } }', {}));
  assert.match(problem ?? '', /model\.endpoint: expected an http:\/\/ or https:\/\/ URL/);
});

test('api_key_env must be a variable name, not the key itself', () => {
  const [problem] = problems(parseConfigFile('{ "model": { "api_key_env": "sk-abc123" } }', {}));
  assert.match(problem ?? '', /model\.api_key_env: expected the name of an environment variable/);
});

test('protected paths must stay in the workspace; a JSON pointer is only for .json files', () => {
  const text = JSON.stringify({
    protected_paths: ['migrations/**', '../outside', '/etc/passwd', 'Makefile#/x', 'deno.json#/tasks'],
  });
  const found = problems(parseConfigFile(text, {}));
  assert.deepEqual(
    found.map((p) => /protected_paths\[(\d)\]/.exec(p)?.[1]),
    ['1', '2', '3'],
  );
});

test('environment variables override the file and the defaults', () => {
  const env = {
    AIDE_MODEL: 'llama3.1:8b',
    AIDE_MODEL_ENDPOINT: 'http://localhost:8080/v1',
    AIDE_CONTEXT_TOKENS: '32768',
  };
  const { value } = loaded(parseConfigFile('{ "model": { "name": "from-file" } }', env));
  assert.equal(value.model.name, 'llama3.1:8b');
  assert.equal(value.model.endpoint, 'http://localhost:8080/v1');
  assert.equal(value.model.context_tokens, 32768);
});

test('an empty environment variable counts as unset', () => {
  assert.equal(loaded(parseConfigFile(null, { AIDE_MODEL: '' })).value.model.name, 'qwen2.5-coder:14b');
});

test('AIDE_ALLOW_REMOTE gives consent for a remote AIDE_MODEL_ENDPOINT', () => {
  assert.equal(parseConfigFile(null, { AIDE_MODEL_ENDPOINT: 'http://gpu:8000/v1' }).ok, false);
  assert.equal(
    parseConfigFile(null, { AIDE_MODEL_ENDPOINT: 'http://gpu:8000/v1', AIDE_ALLOW_REMOTE: '1' }).ok,
    true,
  );
});

test('an invalid environment value is an error naming the variable', () => {
  assert.deepEqual(problems(parseConfigFile('{}', { AIDE_CONTEXT_TOKENS: '32k' })), [
    'AIDE_CONTEXT_TOKENS (environment variable): model.context_tokens: expected a whole number of tokens from 1024 to 1048576 (e.g. 32768), got "32k" | Set AIDE_CONTEXT_TOKENS to a valid value, or unset it.',
  ]);
  const [remote] = problems(parseConfigFile(null, { AIDE_MODEL_ENDPOINT: 'http://gpu:8000/v1' }));
  assert.match(remote ?? '', /^AIDE_MODEL_ENDPOINT \(environment variable\): model\.endpoint: /);
  const [flag] = problems(parseConfigFile(null, { AIDE_ALLOW_REMOTE: 'maybe' }));
  assert.match(
    flag ?? '',
    /^AIDE_ALLOW_REMOTE \(environment variable\): model\.allow_remote: expected true or false, got "maybe"/,
  );
});

test('every value carries its source: default, file line, or environment variable', () => {
  const text = '{\n  "model": {\n    "name": "from-file"\n  }\n}\n';
  const { entries } = loaded(parseConfigFile(text, { AIDE_CONTEXT_TOKENS: '8192' }));
  const source = (path: string) => entries.find((e) => e.path === path)?.source;
  assert.deepEqual(source('model.name'), { kind: 'file', file: '.aide/config.json', line: 3, column: 5 });
  assert.deepEqual(source('model.context_tokens'), { kind: 'env', variable: 'AIDE_CONTEXT_TOKENS' });
  assert.deepEqual(source('model.endpoint'), { kind: 'default' });
  assert.deepEqual(source('protected_paths'), { kind: 'default' });
  assert.equal(
    entries.find((e) => e.path === 'model.api_key_env')?.value,
    undefined,
    'unset optional settings are listed',
  );
});

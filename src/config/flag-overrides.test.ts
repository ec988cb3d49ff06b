import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseConfigFile, type LoadResult } from './load.js';
import { formatProblem } from './problems.js';

function loaded<T>(result: LoadResult<T>) {
  if (!result.ok)
    assert.fail(`expected a valid file, got:\n${result.problems.map(formatProblem).join('\n')}`);
  return result.loaded;
}

const FILE = '{\n  "model": {\n    "name": "from-file",\n    "endpoint": "http://127.0.0.1:2/v1"\n  }\n}\n';

test('precedence: flag, then environment variable, then file, then default', () => {
  const env = { AIDE_MODEL: 'from-env', AIDE_MODEL_ENDPOINT: 'http://127.0.0.1:3/v1' };
  const cases: [Parameters<typeof parseConfigFile>, string, string][] = [
    [[null, {}], 'qwen2.5-coder:14b', 'http://127.0.0.1:11434/v1'],
    [[FILE, {}], 'from-file', 'http://127.0.0.1:2/v1'],
    [[FILE, env], 'from-env', 'http://127.0.0.1:3/v1'],
    [[FILE, env, { model: 'from-flag' }], 'from-flag', 'http://127.0.0.1:3/v1'],
    [
      [FILE, env, { model: 'from-flag', endpoint: 'http://127.0.0.1:4/v1' }],
      'from-flag',
      'http://127.0.0.1:4/v1',
    ],
    [[null, {}, { endpoint: 'http://127.0.0.1:4/v1' }], 'qwen2.5-coder:14b', 'http://127.0.0.1:4/v1'],
  ];
  for (const [args, name, endpoint] of cases) {
    const { model } = loaded(parseConfigFile(...args)).value;
    assert.deepEqual([model.name, model.endpoint], [name, endpoint], JSON.stringify(args.slice(1)));
  }
});

test('a flag is the source of the value it set, and only of that one', () => {
  const env = { AIDE_MODEL: 'from-env', AIDE_CONTEXT_TOKENS: '8192' };
  const { entries } = loaded(parseConfigFile(FILE, env, { model: 'from-flag' }));
  const source = (path: string) => entries.find((e) => e.path === path)?.source;
  assert.deepEqual(source('model.name'), { kind: 'flag', flag: '--model' });
  assert.deepEqual(source('model.endpoint'), {
    kind: 'file',
    file: '.aide/config.json',
    line: 4,
    column: 5,
  });
  assert.deepEqual(source('model.context_tokens'), { kind: 'env', variable: 'AIDE_CONTEXT_TOKENS' });
});

test('an empty flag counts as not given', () => {
  const { entries } = loaded(parseConfigFile(FILE, {}, { model: '', endpoint: undefined }));
  assert.deepEqual(entries.find((e) => e.path === 'model.name')?.source.kind, 'file');
});

test('a remote --endpoint meets the allow_remote rule, reported as coming from the flag', () => {
  const result = parseConfigFile(
    FILE,
    { AIDE_MODEL_ENDPOINT: 'http://127.0.0.1:3/v1' },
    {
      endpoint: 'http://gpu:8000/v1',
    },
  );
  assert.equal(result.ok, false);
  const [problem] = result.ok ? [] : result.problems;
  assert.equal(problem?.flag, '--endpoint');
  assert.equal(problem?.variable, null);
  assert.match(
    formatProblem(problem ?? assert.fail('no problem')),
    /^--endpoint \(command-line flag\): model\.endpoint: http:\/\/gpu:8000\/v1 is not on this machine/,
  );
  assert.ok(loaded(parseConfigFile(FILE, { AIDE_ALLOW_REMOTE: '1' }, { endpoint: 'http://gpu:8000/v1' })));
});

test('an invalid --endpoint is an error naming the flag, with a fix for the flag', () => {
  const result = parseConfigFile(null, {}, { endpoint: 'not a url' });
  const lines = result.ok ? [] : result.problems.map((p) => `${formatProblem(p)} | ${p.hint ?? ''}`);
  assert.equal(lines.length, 1);
  assert.match(
    lines[0] ?? '',
    /^--endpoint \(command-line flag\): model\.endpoint: .* \| Give --endpoint a valid value, or leave it out\.$/,
  );
});

test('a flag under a "model" that is not an object is skipped: the file error is the one to fix', () => {
  const result = parseConfigFile('{ "model": 5 }', {}, { model: 'x' });
  assert.equal(result.ok, false);
  const problems = result.ok ? [] : result.problems;
  assert.deepEqual(
    problems.map((p) => [p.flag, p.line]),
    [[null, 1]],
  );
});

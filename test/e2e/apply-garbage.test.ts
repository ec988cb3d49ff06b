import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { runAideInProcess } from '../helpers/in-process.js';
import { garbageResponse } from '../helpers/edit-arbitraries.js';
import { fingerprint, gitRepo } from '../helpers/sandbox.js';

const FILES = {
  'src/app.ts': 'export function app() {\n  return 1;\n}\n',
  'README.md': '# Title\n\n```\ncode\n```\n',
};
const RESPONSES = 24;
const LANES = 4;

test('garbage responses through the CLI exit 0 or 1 (never 70), and a failed apply writes nothing', async (t) => {
  const responses = fc.sample(garbageResponse, { seed: 20240611, numRuns: RESPONSES });
  // A few repositories side by side, each used in turn: a run that applies changes the next one's start, which is fine.
  const lanes = Array.from({ length: LANES }, (_, lane) => responses.filter((_, i) => i % LANES === lane));
  await Promise.all(
    lanes.map(async (lane) => {
      const root = gitRepo(t, FILES);
      for (const response of lane) {
        const before = fingerprint(root);
        const result = await runAideInProcess(['apply'], { cwd: root, input: response });
        const context = `response: ${JSON.stringify(response)}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`;
        assert.ok(result.code === 0 || result.code === 1, `exit ${String(result.code)}\n${context}`);
        assert.doesNotMatch(result.stderr, /internal error/, context);
        if (result.code === 1) assert.deepEqual(fingerprint(root), before, context);
      }
    }),
  );
});

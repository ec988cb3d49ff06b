import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { z } from 'zod';
import { tempDir } from '../../../test/helpers/sandbox.js';
import { readJsonJournal, writeJsonDurably } from './durable-json.js';

const schema = z.object({ step: z.number() });
const invalid = (problem: string) => new Error(`not ours: ${problem}`);

test('a journal written durably reads back; no temp file is left beside it', async (t) => {
  const dir = tempDir(t);
  await writeJsonDurably(join(dir, 'j.json'), { step: 2 });
  assert.deepEqual(await readJsonJournal(join(dir, 'j.json'), schema, invalid), { step: 2 });
  assert.deepEqual(readdirSync(dir), ['j.json']);
});

test("no journal is null; text that is not JSON, or JSON the schema refuses, is the caller's error", async (t) => {
  const dir = tempDir(t);
  assert.equal(await readJsonJournal(join(dir, 'missing.json'), schema, invalid), null);
  writeFileSync(join(dir, 'cut.json'), '{"step": 2');
  await assert.rejects(readJsonJournal(join(dir, 'cut.json'), schema, invalid), {
    message: 'not ours: not JSON',
  });
  writeFileSync(join(dir, 'other.json'), '{"step": "two"}');
  await assert.rejects(readJsonJournal(join(dir, 'other.json'), schema, invalid), {
    message: /^not ours: .*number/,
  });
});

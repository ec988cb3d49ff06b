import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FAKE_TOKENS } from './fake-tokens.js';
import { ALLOW_SECRET, findSecrets, maskSecret, SECRET_RULES } from './secret-patterns.js';

test('every fake token format is found, by its own rule, with the value masked', () => {
  assert.ok(FAKE_TOKENS.length >= 24);
  for (const [id, token] of FAKE_TOKENS) {
    const found = findSecrets(`const key = "${token}";`);
    assert.ok(
      found.some((f) => f.rule.id === id),
      `${id}: ${found.map((f) => f.rule.id).join(',')}`,
    );
    for (const f of found) {
      assert.ok(f.masked.endsWith('…'));
      assert.ok(!f.masked.includes(token.slice(4)), `${id} unmasked`);
      assert.ok(f.masked.length <= 5);
    }
  }
});

test('every rule has a fake token, so none is untested', () => {
  const tested = new Set(FAKE_TOKENS.map(([id]) => id));
  for (const rule of SECRET_RULES) assert.ok(tested.has(rule.id), rule.id);
});

test('look-alikes are not secrets', () => {
  for (const line of [
    'const AKIA = "AKIA is a prefix";',
    'sk-1234', // too short
    'ghp_short',
    'sk_test_' + 'a'.repeat(24), // Stripe test keys are meant to be shared
    'glpat-abc',
    'npm_install_hook',
    'hf_hub_download(repo_id="x")',
    '-----BEGIN PUBLIC KEY-----',
    '-----BEGIN CERTIFICATE-----',
    'eyJhbGciOi',
    'const sha = "da39a3ee5e6b4b0d3255bfef95601890afd80709";',
    'xoxb-',
  ]) {
    assert.deepEqual(
      findSecrets(line).map((f) => f.rule.id),
      [],
      line,
    );
  }
});

test('the inline allow comment silences a line', () => {
  const [, token] = FAKE_TOKENS[0] ?? ['', ''];
  assert.equal(findSecrets(`key = "${token}" # ${ALLOW_SECRET}`).length, 0);
  assert.equal(findSecrets(`key = "${token}"`).length, 1);
});

test('the mask keeps four characters and never the rest', () => {
  assert.equal(maskSecret('ghp_abcdefgh'), 'ghp_…');
});

test('every match in a line is found, of one rule or several, each at its column; the line after is clean', () => {
  const tokens = new Map(FAKE_TOKENS);
  const aws = tokens.get('aws-access-key-id') ?? '';
  const npm = tokens.get('npm-token') ?? '';
  const line = `a=${aws} b=${npm} c=${aws}`;
  const found = findSecrets(line, { entropy: false }).map((f) => [f.rule.id, f.column]);
  assert.deepEqual(found, [
    ['aws-access-key-id', 3],
    ['aws-access-key-id', line.lastIndexOf(aws) + 1],
    ['npm-token', line.indexOf(npm) + 1],
  ]);
  // The rules' patterns are reused from line to line: nothing of the last search carries over.
  assert.deepEqual(findSecrets('const plain = 1;', { entropy: false }), []);
  assert.equal(findSecrets(`x=${npm}`, { entropy: false })[0]?.column, 3);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertLinear } from '../../../test/helpers/growth.js';
import { FAKE_ASSIGNMENTS } from './fake-tokens.js';
import {
  ENTROPY_RULE_ID,
  entropyApplies,
  findEntropySecrets,
  looksLikeSecret,
  shannonEntropy,
} from './secret-entropy.js';
import { findSecrets } from './secret-patterns.js';

test('Shannon entropy: none for one repeated character, log2(n) for n distinct ones', () => {
  assert.equal(shannonEntropy('aaaaaaaa'), 0);
  assert.equal(shannonEntropy('abcd'), 2);
  assert.ok(Math.abs(shannonEntropy('0123456789abcdef') - 4) < 1e-9);
});

test('every fake credential assignment is found by the entropy rule, masked whole', () => {
  assert.ok(FAKE_ASSIGNMENTS.length >= 10);
  for (const [what, line] of FAKE_ASSIGNMENTS) {
    const found = findSecrets(line);
    assert.deepEqual(
      found.map((f) => f.rule.id),
      [ENTROPY_RULE_ID],
      `${what}: ${line}`,
    );
    assert.equal(found[0]?.masked, '…', what);
    const value = line.slice((found[0]?.column ?? 1) - 1);
    assert.ok(!found[0]?.rule.description.includes(value.slice(0, 8)), `${what}: value in the description`);
  }
});

test('a value a prefix rule already found is not reported twice', () => {
  const token = ['gh', 'p_', 'A1b2C3d4E5f6G7h8J9k0LmNpQrStUvWxYz12'].join('');
  assert.deepEqual(
    findSecrets(`GITHUB_TOKEN="${token}"`).map((f) => f.rule.id),
    ['github-pat'],
  );
});

test('not secrets: placeholders, the environment, UUIDs, hashes under other names, words, comparisons', () => {
  for (const line of [
    'API_KEY=${API_KEY}',
    'api_key: "{{ secrets.API_KEY }}"',
    'token: ${{ secrets.GITHUB_TOKEN }}',
    'const apiKey = process.env.OPENAI_API_KEY2;',
    'password = os.environ["DB_PASSWORD_V2"]',
    'SECRET_KEY = "xxxxxxxxxxxxxxxxxxxxxxxx"',
    'api_key = "your-api-key-goes-here-123"',
    'password: "changeme12345678901"',
    'API_KEY=<your key 1234567890>',
    'secret: "****************1234"',
    'client_secret = "123e4567-e89b-12d3-a456-426614174000"',
    'const token = "Bearer";',
    'token: string;',
    'if (token == "a8f5f167f44f4964e6c998dee827110c") {',
    'const sha = "da39a3ee5e6b4b0d3255bfef95601890afd80709";',
    'integrity: sha512-abcdefghijklmnop1234567890ABCDEFGH',
    'password = "aaaaaaaaaaaaaaaa1111"',
    'secret = "short1"',
    'tokenizer = "bert-base-uncased"',
    'access_key = "EXAMPLE1234567890ABCDEFG"',
    'max_tokens = 1000000000000000000',
  ]) {
    assert.deepEqual(findEntropySecrets(line), [], line);
  }
});

test('lockfiles are not read by the entropy rule; other files are', () => {
  assert.equal(entropyApplies('package-lock.json'), false);
  assert.equal(entropyApplies('sub/dir/Cargo.lock'), false);
  assert.equal(entropyApplies('yarn.lock'), false);
  assert.equal(entropyApplies('config/.env'), true);
  assert.equal(entropyApplies('src/lock.ts'), true);
});

test('looksLikeSecret wants letters and digits, length and randomness', () => {
  assert.equal(looksLikeSecret('q8Zr2LmX0vTn5WcY'), true);
  assert.equal(looksLikeSecret('q8Zr2LmX0vTn5Wc'), false); // 15 characters
  assert.equal(looksLikeSecret('abcdefghijklmnopqrstuvwxyz'), false); // no digit
  assert.equal(looksLikeSecret('ab12ab12ab12ab12ab12'), false); // not random
});

test('lines of hundreds of KiB (minified code, generated data) are scanned in linear time', () => {
  // Sizes at scale 1 in KiB: the key name repeated costs ~40× more per byte than the others.
  const lines: Record<string, [number, (kib: number) => string]> = {
    'one character': [600, (kib) => 'x'.repeat(kib * 1024)],
    'a key name repeated': [75, (kib) => 'token: '.repeat((kib * 1024) / 7)],
    'a long name and value': [600, (kib) => `${'a'.repeat(kib * 512)}="${'b1'.repeat(kib * 170)}`],
  };
  for (const [name, [kib, line]] of Object.entries(lines)) {
    assertLinear(name, (scale) => {
      const text = line(kib * scale);
      return () => {
        findSecrets(text);
      };
    });
  }
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { secretFileReason } from './secret-files.js';

test('environment files are secret wherever they are, in any case', () => {
  for (const path of ['.env', '.env.local', '.env.production.local', 'app/.env', '.ENV', 'deploy/prod.env']) {
    assert.match(secretFileReason(path) ?? '', /environment file/, path);
  }
});

test('committed samples of environment files are ordinary files', () => {
  for (const path of [
    '.env.example',
    'web/.env.sample',
    '.env.template',
    '.env.dist',
    '.env.local.example',
  ]) {
    assert.equal(secretFileReason(path), undefined, path);
  }
});

test('keys, certificates and token files are secret', () => {
  const cases: Record<string, RegExp> = {
    'certs/server.pem': /PEM/,
    'tls/server.key': /private key/,
    id_rsa: /SSH key/,
    'home/id_ed25519.pub': /SSH key/,
    '.npmrc': /npm/,
    '.netrc': /netrc/,
    'config/credentials.json': /credentials/,
    '.aws/credentials': /credentials|AWS/,
    '.git-credentials': /git credentials/,
  };
  for (const [path, reason] of Object.entries(cases))
    assert.match(secretFileReason(path) ?? '', reason, path);
});

test('ordinary names that merely resemble secrets stay readable', () => {
  for (const path of [
    'src/env.ts',
    'src/environment.ts',
    '.envrc.sample',
    'docs/keys.md',
    'src/credentials-form.tsx',
    'src/key.ts',
    'package.json',
    '.aide/config.json',
  ]) {
    assert.equal(secretFileReason(path), undefined, path);
  }
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePrePush } from './pre-push.js';

const Z = '0'.repeat(40);
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

test("git's pre-push lines: an update, a new branch, a deletion left out, blank lines ignored", () => {
  const input = `refs/heads/main ${A} refs/heads/main ${B}\nrefs/heads/new ${A} refs/heads/new ${Z}\n(delete) ${Z} refs/heads/old ${B}\n\n`;
  assert.deepEqual(parsePrePush(input), [
    { localRef: 'refs/heads/main', localSha: A, remoteRef: 'refs/heads/main', remoteSha: B },
    { localRef: 'refs/heads/new', localSha: A, remoteRef: 'refs/heads/new', remoteSha: null },
  ]);
  assert.deepEqual(parsePrePush(''), []);
});

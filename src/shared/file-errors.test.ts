import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unreadableReason } from './file-errors.js';

const errno = (code: string) => Object.assign(new Error(`${code}: something, open 'x'`), { code });

test('file errors in words, not Node codes', () => {
  assert.equal(unreadableReason(errno('ENOENT')), 'no such file');
  assert.equal(unreadableReason(errno('EISDIR')), 'it is a folder, not a file');
  assert.equal(unreadableReason(errno('EACCES')), 'permission denied');
  assert.equal(unreadableReason(errno('ENOTDIR')), 'a part of its path is a file, not a folder');
  // Unknown codes are kept (they are searchable); a plain error keeps its message.
  assert.equal(unreadableReason(errno('EWEIRD')), 'EWEIRD');
  assert.equal(unreadableReason(new Error('boom')), 'boom');
});

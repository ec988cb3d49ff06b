import assert from 'node:assert/strict';
import { test } from 'node:test';
import { actEventJson, PlainActView } from './act.js';
import { makeStyle } from './style.js';

const EDITED = {
  type: 'step_edited',
  step: 1,
  files: [
    { path: 'src/calc.js', action: 'modified', added: 4, removed: 0 },
    { path: 'README.md', action: 'created', added: 2, removed: 0 },
  ],
} as const;

test('plain lines say what a step edited before its verification, and --json carries the same event', () => {
  let text = '';
  new PlainActView({ write: (chunk: string) => (text += chunk) }, makeStyle(false)).event({
    ...EDITED,
    files: [...EDITED.files],
  });
  assert.equal(text, '  edited: src/calc.js +4 -0, README.md +2 -0\n');
  assert.deepEqual(JSON.parse(actEventJson({ ...EDITED, files: [...EDITED.files] })), {
    schema: 'aide.act.event/1',
    ...EDITED,
  });
});

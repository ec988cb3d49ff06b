import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isWeakSearch } from './weak-search.js';

test('closing punctuation, block keywords and tiny lines are weak', () => {
  for (const search of [
    ['}'],
    ['  });'],
    ['end'],
    ['fi'],
    ['</div>'],
    ['    return x;'],
    ['break;'],
    ['', '}', ''],
  ]) {
    assert.equal(isWeakSearch(search), true, JSON.stringify(search));
  }
});

test('a line that names something is not weak', () => {
  for (const search of [['    retries: 3,'], ['count++;'], ['}', 'export default app;'], ['return total;']]) {
    assert.equal(isWeakSearch(search), false, JSON.stringify(search));
  }
});

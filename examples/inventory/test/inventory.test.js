import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Inventory } from '../src/inventory.js';

test('adding items counts them', () => {
  const inventory = new Inventory();
  inventory.add('apple', 2);
  inventory.add('apple');
  assert.equal(inventory.count('apple'), 3);
  assert.equal(inventory.total(), 3);
});

test('a non-positive quantity is refused', () => {
  assert.throws(() => new Inventory().add('pear', 0), RangeError);
});

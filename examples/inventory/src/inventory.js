// A tiny stock keeper: the example project aide's demo edits.

export class Inventory {
  constructor() {
    this.items = new Map();
  }

  add(name, quantity = 1) {
    if (quantity <= 0) {
      throw new RangeError(`quantity must be positive, got ${quantity}`);
    }
    this.items.set(name, this.count(name) + quantity);
  }

  count(name) {
    return this.items.get(name) ?? 0;
  }

  total() {
    let sum = 0;
    for (const quantity of this.items.values()) {
      sum += quantity;
    }
    return sum;
  }
}

// Prints the report for some sample stock: a quick look at what src/format.js writes. The
// "report" command in .aide/sandbox.json runs it; it is optional there, so only a plan step
// that asks for it (`Verify: report`) runs it.
import { formatReport } from '../src/format.js';
import { Inventory } from '../src/inventory.js';

const inventory = new Inventory();
inventory.add('plum');
inventory.add('apple', 3);
inventory.add('fig', 2);
console.log(formatReport(inventory));

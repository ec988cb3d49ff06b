/**
 * A plan for the parser, renderer and property tests, in the spirit of the bundled example
 * project. It exercises what trips parsers: a prose line with a colon, a fenced sample holding a
 * key line, a diff, a Markdown heading inside a SEARCH block, Run: lines and templates. Its base
 * and Run: lines are illustrative: it is not carried out. The README's format reference shows
 * the real example plan instead (reference.ts, EXAMPLE_PLAN_FILE), which `npm run demo` runs.
 */
export const EXAMPLE_PLAN = `---
aide_plan: 1
title: Add a remove command to the inventory
created: 2026-11-30T10:00:00.000Z
base: 3f2a9c1b0d
model: qwen2.5-coder:32b
---

The inventory can add stock but not take it out. Add \`remove\`, with the same validation as
\`add\`, sort the report so it is stable to test, and note both in the changelog.

## Step 1: Add remove() to Inventory

\`remove(name, quantity = 1)\` refuses a non-positive quantity and more than is in stock, and
drops an item whose count reaches zero, so \`items\` never holds empty entries.

Note: \`count()\` already returns 0 for unknown items; reuse it.

Files: src/inventory.js

Verify: test

### Edits

src/inventory.js
\`\`\`js
<<<<<<< SEARCH
  count(name) {
=======
  remove(name, quantity = 1) {
    if (quantity <= 0) {
      throw new RangeError(\`quantity must be positive, got \${quantity}\`);
    }
    const left = this.count(name) - quantity;
    if (left < 0) {
      throw new RangeError(\`only \${this.count(name)} \${name} in stock\`);
    }
    if (left === 0) this.items.delete(name);
    else this.items.set(name, left);
  }

  count(name) {
>>>>>>> REPLACE
\`\`\`

## Step 2: Sort the report by name

Reports list items in insertion order today, which makes them hard to compare. Sort by name
with \`localeCompare\`. The version printed by the Run line is used by step 3:

\`\`\`text
Files: a line in a code block is an example, not a key
\`\`\`

Files: src/format.js

Run: node -p "require('./package.json').version"

Verify: test

### Edits

\`\`\`diff
--- a/src/format.js
+++ b/src/format.js
@@ -5,6 +5,6 @@
 export function formatReport(inventory) {
   const lines = [];
-  for (const [name, quantity] of inventory.items) {
+  for (const [name, quantity] of [...inventory.items].sort(([a], [b]) => a.localeCompare(b))) {
     lines.push(formatLine(name, quantity));
   }
\`\`\`

## Step 3: Note the change in the changelog

Add an entry under the version step 2 printed.

Files: CHANGELOG.md

Run: ["node", "scripts/check-changelog.js", "--version", "{{ steps.2.output }}"]

### Edits

CHANGELOG.md
\`\`\`markdown
<<<<<<< SEARCH
# Changelog
=======
# Changelog

## {{ steps.2.output }} (unreleased)

- \`Inventory.remove(name, quantity)\` takes stock out.
- The report is sorted by name.
>>>>>>> REPLACE
\`\`\`
`;

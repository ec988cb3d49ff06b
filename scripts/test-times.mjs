// A node:test reporter that adds up, per test file, the time of its top-level tests and prints
// the slowest files at the end: where the suite's minutes go (issue 12's 3-minute ceiling).
// AIDE_TEST_TIMES=<file> also writes every file's line there (tab-separated: ms, tests, file).
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';

const SHOWN = 12;

export default async function* fileTimes(source) {
  const files = new Map();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { nesting, file, details } = event.data;
    if (nesting !== 0 || file === undefined) continue;
    const entry = files.get(file) ?? { ms: 0, tests: 0 };
    entry.ms += details?.duration_ms ?? 0;
    entry.tests += 1;
    files.set(file, entry);
  }
  const rows = [...files]
    .map(([file, { ms, tests }]) => ({ file: relative(process.cwd(), file), ms, tests }))
    .sort((a, b) => b.ms - a.ms);
  const path = process.env['AIDE_TEST_TIMES'];
  if (path !== undefined && path !== '')
    writeFileSync(path, rows.map((r) => `${Math.round(r.ms)}\t${r.tests}\t${r.file}\n`).join(''));
  const total = rows.reduce((sum, r) => sum + r.ms, 0);
  yield `\nslowest test files (time of their top-level tests; ${rows.length} files, ${(total / 1000).toFixed(1)} s in all):\n`;
  for (const r of rows.slice(0, SHOWN))
    yield `${(r.ms / 1000).toFixed(1).padStart(7)} s  ${String(r.tests).padStart(3)} tests  ${r.file}\n`;
}

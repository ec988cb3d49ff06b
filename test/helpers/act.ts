/** A small project with its own tests, a sandbox.json, and plans to carry out on it. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gitRepo, testHome, type Cleanup } from './sandbox.js';

export const PROJECT = {
  'package.json': '{ "name": "calc", "type": "module" }\n',
  'src/calc.js': 'export function add(a, b) {\n  return a + b;\n}\n',
  'test/calc.test.js':
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../src/calc.js';\n\ntest('add', () => {\n  assert.equal(add(2, 3), 5);\n});\n",
};

export function sandbox(extra: Record<string, unknown> = {}): string {
  return JSON.stringify(
    {
      commands: [{ name: 'test', run: ['node', '--test', '--test-reporter=tap', 'test/'] }],
      flake_reruns: 0,
      ...extra,
    },
    null,
    2,
  );
}

/** A SEARCH/REPLACE block for a plan's `### Edits` section. */
export function edit(path: string, search: string, replace: string): string {
  return `${path}\n\`\`\`js\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n\`\`\`\n`;
}

export interface StepSpec {
  title: string;
  intent?: string;
  run?: string[];
  /** Names for the step's Verify: line. */
  verify?: string[];
  edits?: string;
}

export function planDoc(title: string, steps: StepSpec[]): string {
  const head = `---\naide_plan: 1\ntitle: ${title}\ncreated: 2026-11-30T10:00:00.000Z\n---\n\nA plan for the tests.\n`;
  const body = steps.map((s, i) => {
    const keys = [
      ...(s.run ?? []).map((r) => `Run: ${r}`),
      ...(s.verify === undefined ? [] : [`Verify: ${s.verify.join(', ')}`]),
    ].join('\n');
    return `\n## Step ${i + 1}: ${s.title}\n\n${s.intent ?? 'Do it.'}\n${keys === '' ? '' : `\n${keys}\n`}${s.edits === undefined ? '' : `\n### Edits\n\n${s.edits}`}`;
  });
  return `${head}${body.join('')}`;
}

export const ADD_SUB = edit(
  'src/calc.js',
  'export function add(a, b) {\n  return a + b;\n}',
  'export function add(a, b) {\n  return a + b;\n}\n\nexport function sub(a, b) {\n  return a - b;\n}',
);
export const TEST_SUB = edit(
  'test/calc.test.js',
  "test('add', () => {\n  assert.equal(add(2, 3), 5);\n});",
  "test('add', () => {\n  assert.equal(add(2, 3), 5);\n});\n\ntest('sub', async () => {\n  const { sub } = await import('../src/calc.js');\n  assert.equal(sub(5, 3), 2);\n});",
);
export const BREAK_ADD = edit('src/calc.js', '  return a + b;', '  return a * b;');

export function actRepo(t: Cleanup, plan: string, sandboxJson = sandbox()): string {
  return gitRepo(t, { ...PROJECT, '.aide/sandbox.json': sandboxJson, '.aide/plans/plan.md': plan });
}

/**
 * A folder a test and its verify commands share while the commands run: in the test's HOME,
 * shown to commands read-only (and live) through `home_binds` at `inside`, since a command may
 * write only its scratch. A command says something back through its output (`commandSaid`).
 */
export function sharedGate(t: Cleanup): { path: string; inside: string; homeBinds: string[] } {
  const path = mkdtempSync(join(testHome(), 'gate-'));
  t.after(() => {
    rmSync(path, { recursive: true, force: true });
  });
  return { path, inside: `$HOME/${basename(path)}`, homeBinds: [`~/${basename(path)}`] };
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** A file's text, or null when it went away between the listing and the read. */
function readIfThere(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Waits (up to a minute) for a line of a verify command's log in the workspace to match `line`; returns its first group. */
export async function commandSaid(root: string, line: RegExp): Promise<string> {
  const until = Date.now() + 60_000;
  for (;;) {
    for (const log of filesUnder(join(root, '.aide/state/sessions'))) {
      // aide writes its state files atomically: a temp file listed here may be renamed before it is read.
      const text = readIfThere(log);
      const found = text === null ? null : line.exec(text);
      if (found !== null) return found[1] ?? found[0];
    }
    if (Date.now() > until) throw new Error(`no verify command printed ${String(line)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

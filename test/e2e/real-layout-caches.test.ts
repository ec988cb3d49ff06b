/**
 * Linked dependency folders on real layouts (issue 11, "what a new user trips over"): tools that
 * keep caches in node_modules (babel-loader, nyc, eslint in `.cache`; Vite and Vitest in `.vite`,
 * `.vitest`) write them in the scratch under isolation, the workspace's node_modules stays byte
 * for byte, `.bin` scripts run; workspace packages' node_modules are seen by default or a glob;
 * an act step whose edits git ignores says so.
 */
import assert from 'node:assert/strict';
import { chmodSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { edit, planDoc } from '../helpers/act.js';
import { userStatus } from '../helpers/real-layout.js';
import type { CliResult } from '../helpers/cli.js';
import { runAideInProcess } from '../helpers/in-process.js';
import { fingerprint, gitRepo, writeTree } from '../helpers/sandbox.js';
import { withoutState } from '../helpers/verify.js';

/** A SEARCH/REPLACE block that creates a file. */
const create = (path: string, text: string) =>
  `${path}\n\`\`\`\n<<<<<<< SEARCH\n=======\n${text}\n>>>>>>> REPLACE\n\`\`\`\n`;

const said = (r: CliResult) => `exit ${r.code}\n${r.stdout}\n${r.stderr}`;

/** A verify command (a node script) that fails with its reason unless every check holds. */
function nodeCheck(name: string, body: string): { name: string; run: string[] } {
  return {
    name,
    run: [
      'node',
      '-e',
      `const fs = require('fs'), path = require('path');\nconst fail = (why) => { console.error('check: ' + why); process.exit(1); };\n${body}\nconsole.log('${name} ok');`,
    ],
  };
}

const CACHES = nodeCheck(
  'caches',
  `
if (fs.existsSync('node_modules/.cache/old')) fail("the workspace's cache is linked");
for (const p of ['node_modules/.cache/babel-loader/x', 'node_modules/.vite/deps/y', 'node_modules/.vitest/results.json']) {
  try { fs.mkdirSync(path.dirname(p), { recursive: true }); fs.writeFileSync(p, 'cache\\n'); } catch (e) { fail('cannot write ' + p + ': ' + e.code); }
}
const pkg = require('@org/pkg');
if (pkg !== 'pkg uses dep') fail('@org/pkg resolved its dep wrongly: ' + pkg);
`,
);

/** A workspace with an npm layout: a scoped package whose dependency resolves from its real path, a `.bin` link, an old cache. */
function npmRepo(t: Parameters<typeof gitRepo>[0]): string {
  const sandbox = {
    commands: [CACHES, { name: 'bin', run: 'npm run --silent tool && node_modules/.bin/hello-bin' }],
    flake_reruns: 0,
  };
  const root = gitRepo(t, {
    '.gitignore': 'node_modules\n',
    'package.json': '{ "name": "app", "private": true, "scripts": { "tool": "hello-bin" } }\n',
    '.aide/.gitignore': 'state/\n',
    '.aide/sandbox.json': JSON.stringify(sandbox, null, 2),
    'src/index.js': 'export const answer = 42;\n',
    '.aide/plans/plan.md': planDoc('Edit with caches', [
      {
        title: 'Edit',
        edits: edit('src/index.js', 'export const answer = 42;', 'export const answer = 43;'),
      },
    ]),
  });
  writeTree(root, {
    'node_modules/hello/bin.js': '#!/usr/bin/env node\nconsole.log("hello from bin");\n',
    'node_modules/hello/package.json': '{ "name": "hello", "bin": { "hello-bin": "bin.js" } }\n',
    'node_modules/@org/pkg/index.js': 'module.exports = "pkg uses " + require("dep");\n',
    'node_modules/@org/pkg/node_modules/dep/index.js': 'module.exports = "dep";\n',
    'node_modules/.cache/old': 'the workspace cache\n',
  });
  chmodSync(join(root, 'node_modules/hello/bin.js'), 0o755);
  writeTree(root, { 'node_modules/.bin/.keep': '' });
  symlinkSync('../hello/bin.js', join(root, 'node_modules/.bin/hello-bin'));
  return root;
}

for (const mechanism of ['unshare', 'bwrap']) {
  test(`under ${mechanism}, caches in node_modules are written in the scratch and .bin scripts run; the workspace's node_modules is untouched`, async (t) => {
    const root = npmRepo(t);
    const before = fingerprint(join(root, 'node_modules'));
    const result = await runAideInProcess(['verify'], { cwd: root, env: { AIDE_ISOLATION: mechanism } });
    assert.equal(result.code, 0, said(result));
    assert.match(result.stdout, /verified: 2 commands/, said(result));
    assert.deepEqual(
      fingerprint(join(root, 'node_modules')),
      before,
      "the workspace's node_modules is byte-identical",
    );
    // aide act: the caches the verify commands write are never captured as the step's changes.
    const act = await runAideInProcess(['act', '--yes'], { cwd: root, env: { AIDE_ISOLATION: mechanism } });
    assert.equal(act.code, 0, said(act));
    assert.match(act.stdout, /1 step applied/, said(act));
    assert.deepEqual(
      userStatus(root)
        .split('\n')
        .filter((l) => l !== '' && !l.includes('.aide/')),
      [' M src/index.js'],
      said(act),
    );
    assert.deepEqual(
      fingerprint(join(root, 'node_modules')),
      before,
      "the workspace's node_modules is byte-identical after aide act",
    );
  });
}

test("a monorepo's workspace packages see their own node_modules by default, and deeper ones through a glob", async (t) => {
  const check = nodeCheck(
    'sees',
    `for (const p of ['node_modules/shared/index.js', 'packages/a/node_modules/only-a/index.js', 'apps/b/node_modules/only-b/index.js']) { try { fs.readFileSync(p); } catch (e) { fail('cannot read ' + p + ': ' + e.code); } }
fs.mkdirSync('packages/a/node_modules/.cache', { recursive: true }); fs.writeFileSync('packages/a/node_modules/.cache/x', 'x');`,
  );
  const deep = nodeCheck(
    'deep',
    `try { fs.readFileSync('tools/x/y/node_modules/only-y/index.js'); } catch (e) { fail('cannot read the deep one: ' + e.code); }`,
  );
  const root = gitRepo(t, {
    '.gitignore': 'node_modules\n',
    'package.json':
      '{ "name": "mono", "private": true, "workspaces": ["packages/*", "apps/*", "tools/x/*"] }\n',
    'packages/a/package.json': '{ "name": "a" }\n',
    'apps/b/package.json': '{ "name": "b" }\n',
    'tools/x/y/package.json': '{ "name": "y" }\n',
    '.aide/.gitignore': 'state/\n',
    '.aide/sandbox.json': JSON.stringify({ commands: [check], flake_reruns: 0 }),
  });
  writeTree(root, {
    'node_modules/shared/index.js': 'shared\n',
    'node_modules/shared/node_modules/inner/index.js': 'inner\n',
    'packages/a/node_modules/only-a/index.js': 'only a\n',
    'apps/b/node_modules/only-b/index.js': 'only b\n',
    'tools/x/y/node_modules/only-y/index.js': 'only y\n',
  });
  const before = withoutState(fingerprint(root));
  const byDefault = await runAideInProcess(['verify'], { cwd: root });
  assert.equal(byDefault.code, 0, said(byDefault));
  assert.deepEqual(withoutState(fingerprint(root)), before, 'the workspace is untouched');

  writeTree(root, {
    '.aide/sandbox.json': JSON.stringify({
      commands: [check, deep],
      flake_reruns: 0,
      link: ['**/node_modules'],
    }),
  });
  const byGlob = await runAideInProcess(['verify'], { cwd: root });
  assert.equal(byGlob.code, 0, said(byGlob));
});

test('an act step whose edits git ignores fails and names the files and the rules that ignore them', async (t) => {
  const plan = planDoc('Ignored edits', [
    {
      title: 'Write only ignored files',
      edits: `${create('.env', 'TOKEN=1')}\n${create('src/backdoor.js', 'steal()')}\n${create('src/.gitignore', '*')}`,
    },
  ]);
  const root = gitRepo(t, {
    '.gitignore': '.env\n',
    'src/app.js': 'export const answer = 42;\n',
    '.aide/.gitignore': 'state/\n',
    '.aide/sandbox.json': JSON.stringify({
      commands: [{ name: 'ok', run: ['node', '-e', '0'] }],
      flake_reruns: 0,
    }),
    '.aide/plans/plan.md': plan,
  });
  const result = await runAideInProcess(['act', '--yes', '--allow-protected'], { cwd: root });
  assert.equal(result.code, 1, said(result));
  const out = result.stdout + result.stderr;
  assert.doesNotMatch(out, /changes no file/, said(result));
  assert.match(out, /wrote 3 files that git ignores/, said(result));
  assert.match(out, /\.env \(ignored by \.gitignore:1: \.env\)/, said(result));
  assert.match(out, /src\/backdoor\.js \(ignored by src\/\.gitignore:1: \*\)/, said(result));
});

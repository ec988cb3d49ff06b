/**
 * Bad input is a clear error, never an internal one (exit 70): file names at the length limit,
 * numbers past what makes sense, JSON nested to overflow a parser.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runAideInProcess } from '../helpers/in-process.js';
import { gitRepo, writeTree } from '../helpers/sandbox.js';

/** 255 bytes of UTF-8 (the NAME_MAX of Linux and macOS), in two-byte characters: a temp name must count bytes. */
const LONG_NAME = `${'é'.repeat(125)}.txta`;
const ASCII_NAME = `${'a'.repeat(240)}.js`;

function reply(path: string, from: string, to: string): string {
  return `${path}\n<<<<<<< SEARCH\n${from}\n=======\n${to}\n>>>>>>> REPLACE\n`;
}

describe('bad input is a clear error', () => {
  test('file names of 231 to 255 bytes are applied and restored', async (t) => {
    assert.equal(Buffer.byteLength(LONG_NAME), 255);
    const repo = gitRepo(t, { [LONG_NAME]: 'one\n', [ASCII_NAME]: 'const a = 1;\n' });
    const applied = await runAideInProcess(['apply', '-'], {
      cwd: repo,
      input: reply(LONG_NAME, 'one', 'two') + reply(ASCII_NAME, 'const a = 1;', 'const a = 2;'),
    });
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal(readFileSync(join(repo, LONG_NAME), 'utf8'), 'two\n');
    const checkpoint = /undo with `aide restore ([0-9a-f]+)`/.exec(applied.stdout)?.[1];
    assert.ok(checkpoint !== undefined, applied.stdout);
    const restored = await runAideInProcess(['restore', '--yes', checkpoint], { cwd: repo });
    assert.equal(restored.code, 0, restored.stderr);
    assert.equal(readFileSync(join(repo, LONG_NAME), 'utf8'), 'one\n');
    assert.equal(readFileSync(join(repo, ASCII_NAME), 'utf8'), 'const a = 1;\n');
    assert.deepEqual(
      readdirSync(repo).filter((n) => n.endsWith('.tmp')),
      [],
      'no temp file left',
    );
  });

  test('a reply naming a file of 256 bytes is refused as an edit that cannot apply, not a crash', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    const name = `${'é'.repeat(126)}.txt`;
    const result = await runAideInProcess(['apply', '-'], {
      cwd: repo,
      input: `${name}\n<<<<<<< SEARCH\n=======\nnew\n>>>>>>> REPLACE\n`,
    });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, /a name in the path is 256 bytes long; file systems allow at most 255/);
  });

  test('a number past its ceiling (output_tail_bytes: 1e15) is a config error naming the file and field', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    writeTree(repo, {
      '.aide/sandbox.json':
        '{\n  "commands": [{ "name": "t", "run": "true" }],\n  "output_tail_bytes": 1e15\n}\n',
    });
    const result = await runAideInProcess(['verify'], { cwd: repo });
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /\.aide\/sandbox\.json:3:3: output_tail_bytes: expected a whole number of bytes from 1 to 1048576 \(e\.g\. 2048\), got 1000000000000000/,
    );
    writeTree(repo, {
      '.aide/sandbox.json': '{}\n',
      '.aide/config.json': '{ "checkpoints": { "max_file_bytes": 1e300 } }\n',
    });
    const saved = await runAideInProcess(['checkpoints', 'save'], { cwd: repo });
    assert.equal(saved.code, 2, saved.stderr);
    assert.match(
      saved.stderr,
      /\.aide\/config\.json:1:20: checkpoints\.max_file_bytes: expected a whole number of bytes from 1 to 1073741824/,
    );
  });

  test('a deeply nested sandbox.json or config.json is a config error naming the file, not a stack overflow', async (t) => {
    const repo = gitRepo(t, { 'a.txt': 'a\n' });
    const deep = `{"commands": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    writeTree(repo, { '.aide/sandbox.json': deep });
    const verify = await runAideInProcess(['verify'], { cwd: repo });
    assert.equal(verify.code, 2, verify.stderr);
    assert.match(
      verify.stderr,
      /\.aide\/sandbox\.json:1:\d+: arrays and objects are nested more than 64 levels deep here/,
    );
    writeTree(repo, {
      '.aide/sandbox.json': '{}\n',
      '.aide/config.json': `{"model": ${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}`,
    });
    const config = await runAideInProcess(['config'], { cwd: repo });
    assert.equal(config.code, 2, config.stderr);
    assert.match(
      config.stderr,
      /\.aide\/config\.json:1:\d+: arrays and objects are nested more than 64 levels deep here/,
    );
  });

  test('a reply of a thousand blocks is reported once per file, the blocks of a busy file summed up', async (t) => {
    const files: Record<string, string> = {
      'src/many.js': `${Array.from({ length: 30 }, (_, i) => `const m${i} = ${i};`).join('\n')}\n`,
    };
    const blocks: string[] = [];
    for (let i = 0; i < 1000; i++) {
      files[`src/d${i % 10}/f${i}.js`] = `const v${i} = 1;\n`;
      blocks.push(reply(`src/d${i % 10}/f${i}.js`, `const v${i} = 1;`, `const v${i} = 2;`));
    }
    for (let i = 0; i < 30; i++)
      blocks.push(reply('src/many.js', `const m${i} = ${i};`, `const m${i} = ${i + 1};`));
    const repo = gitRepo(t, files);
    const result = await runAideInProcess(['apply', '--dry-run', '-'], {
      cwd: repo,
      input: blocks.join('\n'),
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /^aide apply: 1030 edits would change 1001 files \(dry run: nothing written\)\.$/m,
    );
    const listed = result.stdout.split('\n').filter((line) => /^ {2}M /.test(line));
    assert.equal(listed.length, 1001, 'each file once');
    assert.ok(listed.includes('  M src/d7/f517.js  +1 -1  block 518 (exact)'));
    const busy = listed.find((line) => line.startsWith('  M src/many.js'));
    assert.match(busy ?? '', /\+30 -30 {2}block 1001 \(exact\), .*block 1010 \(exact\) and 20 more blocks$/);
  });
});

// `npm run demo`: aide's main job on the bundled example, with no model server.
// Copies examples/inventory into a temp git repository, previews a recorded model reply with
// `aide apply --dry-run`, applies it, and runs the example's own tests on the result.
// Pass --keep to keep the temp repository for a look around.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const example = join(root, 'examples', 'inventory');
const reply = join(example, 'replies', 'add-remove.md');
const bin = join(root, 'dist', 'src', 'bin.js');
const keep = process.argv.includes('--keep');

const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'aide demo',
  GIT_AUTHOR_EMAIL: 'demo@aide.invalid',
  GIT_COMMITTER_NAME: 'aide demo',
  GIT_COMMITTER_EMAIL: 'demo@aide.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
};
// Set when this runs under node:test; it would make the example's own `node --test` report
// to a parent runner instead of printing.
delete env.NODE_TEST_CONTEXT;

const bold = (text) => (process.stdout.isTTY ? `\u001b[1m${text}\u001b[22m` : text);

function run(title, command, args, cwd) {
  console.log(`\n${bold(`$ ${title}`)}`);
  const result = spawnSync(command, args, { cwd, env, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`demo: "${title}" exited with ${result.status ?? result.signal}`);
    process.exit(1);
  }
}

const work = mkdtempSync(join(tmpdir(), 'aide-demo-'));
try {
  cpSync(example, work, { recursive: true, filter: (source) => !source.startsWith(join(example, 'replies')) });
  spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: work, env });
  spawnSync('git', ['add', '-A'], { cwd: work, env });
  spawnSync('git', ['commit', '-q', '-m', 'inventory example'], { cwd: work, env });
  console.log(`aide demo: the example project is in ${work}`);
  console.log('The recorded model reply: examples/inventory/replies/add-remove.md');
  run('aide apply --dry-run add-remove.md', process.execPath, [bin, 'apply', '--dry-run', reply], work);
  run('aide apply add-remove.md', process.execPath, [bin, 'apply', reply], work);
  run("npm test   (the example project's own tests, on the edited files)", process.execPath, ['--test', '--test-reporter=spec', 'test/'], work);
  run('git status --short', 'git', ['status', '--short'], work);
  console.log('\naide demo: done. Every edit applied, and the project\'s tests pass.');
} finally {
  if (keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

// `npm run demo`: aide's main job on the bundled example, with no model server.
// Copies examples/inventory into a temp git repository and carries out its hand-written plan
// (.aide/plans/add-remove.md) with `aide act`: first as a dry run, then for real with --yes --allow-protected (step 3 adds a test file).
// Every step is edited and verified with the project's own tests in a scratch copy before it
// is written.
// The temp repository is kept for a look around (the last lines say how); pass --clean to
// remove it at the end instead.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const example = join(root, 'examples', 'inventory');
const bin = join(root, 'dist', 'src', 'bin.js');
const clean = process.argv.includes('--clean');

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
  cpSync(example, work, {
    recursive: true,
    filter: (source) => !source.startsWith(join(example, 'replies')),
  });
  spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: work, env });
  spawnSync('git', ['add', '-A'], { cwd: work, env });
  spawnSync('git', ['commit', '-q', '-m', 'inventory example'], { cwd: work, env });
  console.log(`aide demo: the example project is copied to ${work}`);
  console.log('The plan: examples/inventory/.aide/plans/add-remove.md (3 steps, edits written down)');
  run(
    'aide act --dry-run   (verify every step in a scratch copy; write nothing)',
    process.execPath,
    [bin, 'act', '--dry-run'],
    work,
  );
  // Step 3 adds a test file: tests are protected paths, which --yes alone does not write.
  run(
    'aide act --yes --allow-protected   (verify each step again, then write it and checkpoint it)',
    process.execPath,
    [bin, 'act', '--yes', '--allow-protected'],
    work,
  );
  run('aide status', process.execPath, [bin, 'status'], work);
  run('git status --short', 'git', ['status', '--short'], work);
  console.log("\naide demo: done. Every step passed the project's tests before it was written.");
  if (!clean) {
    console.log(
      [
        `\nThe example project is kept in ${work}. Have a look:`,
        `  cd ${work}`,
        "  git status          # the files aide wrote (the repository's own .git is untouched)",
        '  aide checkpoints    # a checkpoint before each session and one per step',
        '  aide status         # what the sessions did, and how to undo them',
        `(aide is \`node ${bin}\` until \`npm link\` in this checkout puts it on your PATH.)`,
        `Remove it with \`rm -rf ${work}\`, or run the demo with --clean.`,
      ].join('\n'),
    );
  }
} finally {
  if (clean) rmSync(work, { recursive: true, force: true });
}

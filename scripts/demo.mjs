// `npm run demo`: aide's main job on the bundled example, with no model server.
// Copies examples/inventory into a temp git repository, then:
//   aide plan task.md   the model (a scripted conversation, replies/plan.jsonl) reads the project
//                       and writes a plan of two steps, without edits: the model will make them;
//   aide act --dry-run  each step carried out by the model (replies/act.jsonl: a sloppy first edit,
//                       a test that fails, the fix after its output) and verified in a scratch copy;
//   aide act --yes --allow-protected   the same again, each verified step written and checkpointed
//                       (step 2 edits a test file, and tests are protected paths).
// `npm run demo -- --model NAME` does the same against a real local model server (model.endpoint,
// AIDE_MODEL_ENDPOINT), and says so and stops when none is running.
// The temp repository is kept for a look around (the last lines say how); pass --clean to
// remove it at the end instead.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const example = join(root, 'examples', 'inventory');
const bin = join(root, 'dist', 'bundle', 'aide.js');
const clean = process.argv.includes('--clean');
const named = process.argv.indexOf('--model');
const live = named >= 0 ? process.argv[named + 1] : undefined;
if (named >= 0 && (live === undefined || live.startsWith('--'))) {
  console.error('demo: --model needs a model name, e.g. npm run demo -- --model qwen2.5-coder:14b');
  process.exit(2);
}
const replies = join(example, 'replies');
const planModel = live ?? `replay:${join(replies, 'plan.jsonl')}`;
const actModel = live ?? `replay:${join(replies, 'act.jsonl')}`;
const planFile = '.aide/plans/add-a-remove-command-to-the-inventory.md';

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

function run(title, command, args, cwd, allowed = []) {
  console.log(`\n${bold(`$ ${title}`)}`);
  const result = spawnSync(command, args, { cwd, env, stdio: 'inherit' });
  if (allowed.includes(result.status)) return result.status;
  if (result.status !== 0) {
    console.error(`demo: "${title}" exited with ${result.status ?? result.signal}`);
    process.exit(1);
  }
}

const work = mkdtempSync(join(tmpdir(), 'aide-demo-'));
try {
  cpSync(example, work, {
    recursive: true,
    // The scripted replies stay where they are; the hand-written plan (.aide/plans/add-remove.md,
    // edits written down) is left out so the one act carries out is the model's.
    filter: (source) => !source.startsWith(replies) && !source.startsWith(join(example, '.aide', 'plans')),
  });
  spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: work, env });
  spawnSync('git', ['add', '-A'], { cwd: work, env });
  spawnSync('git', ['commit', '-q', '-m', 'inventory example'], { cwd: work, env });
  console.log(`aide demo: the example project is copied to ${work}`);
  console.log(
    live === undefined
      ? 'The model: a scripted conversation (examples/inventory/replies/), no model server needed'
      : `The model: ${live}, on the server in model.endpoint (AIDE_MODEL_ENDPOINT)`,
  );
  const planned = run(
    'aide plan task.md   (the model reads the project, read-only, and writes a plan)',
    process.execPath,
    [bin, 'plan', 'task.md', '--out', planFile, '--model', planModel],
    work,
    live === undefined ? [] : [3],
  );
  if (planned === 3) {
    console.log(
      `\naide demo: no model server answered for ${live}; the live demo is skipped (aide doctor says why).`,
    );
    process.exit(0);
  }
  run('cat the plan', 'cat', [planFile], work);
  run(
    'aide act --dry-run   (the model makes each step in a scratch copy; the tests decide; nothing written)',
    process.execPath,
    [bin, 'act', planFile, '--dry-run', '--model', actModel],
    work,
  );
  // Step 2 edits a test file: tests are protected paths, which --yes alone does not write.
  run(
    'aide act --yes --allow-protected   (the same again; each verified step written and checkpointed)',
    process.execPath,
    [bin, 'act', planFile, '--yes', '--allow-protected', '--model', actModel],
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

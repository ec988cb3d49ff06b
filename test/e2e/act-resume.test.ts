/**
 * Interrupted `aide act` sessions and `aide act --resume`: SIGKILL while a step's files are
 * written (rolled forward on resume), Ctrl-C and SIGTERM while a step is verified (the workspace
 * wholly after the last written step, nothing left running), a plan edited in between (the
 * changed steps named), and nothing to resume.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  ADD_SUB,
  PROJECT,
  TEST_SUB,
  actRepo,
  commandSaid,
  edit,
  planDoc,
  sandbox,
  sharedGate,
  type StepSpec,
} from '../helpers/act.js';
import { omit, workspaceState } from '../helpers/checkpoints.js';
import { runAide, TEST_BIN } from '../helpers/cli.js';
import { fingerprint, gitRepo, tempDir, testEnv, testHome, type Cleanup } from '../helpers/sandbox.js';
import { needScript, onTerminal } from '../helpers/pty.js';
import { processesMatching, uniqueSeconds } from '../helpers/verify.js';

const CALC_WITH_SUB =
  'export function add(a, b) {\n  return a + b;\n}\n\nexport function sub(a, b) {\n  return a - b;\n}\n';
const CALC_TEST_WITH_SUB = PROJECT['test/calc.test.js'].replace(
  '});\n',
  "});\n\ntest('sub', async () => {\n  const { sub } = await import('../src/calc.js');\n  assert.equal(sub(5, 3), 2);\n});\n",
);

interface SessionStateJson {
  session: string;
  status: string;
  base: string;
  head: string;
  planHash: string;
  steps: Array<{ number: number; status: string; checkpoint: string | null; output: string | null }>;
}

function sessionDir(root: string): string {
  const [session, ...others] = readdirSync(join(root, '.aide/state/sessions')).filter((name) =>
    name.startsWith('act-'),
  );
  assert.ok(session !== undefined && others.length === 0, 'expected exactly one act session');
  return join(root, '.aide/state/sessions', session);
}

function readState(root: string): SessionStateJson {
  return JSON.parse(readFileSync(join(sessionDir(root), 'state.json'), 'utf8')) as SessionStateJson;
}

const stepStatuses = (state: SessionStateJson) => state.steps.map((s) => `${s.number}:${s.status}`);

/** The workspace as it should be: the project with `files` over it, as restore's fingerprint sees it. */
function expectedState(t: Cleanup, root: string, files: Record<string, string>): Record<string, string> {
  const aide = {
    '.aide/sandbox.json': readFileSync(join(root, '.aide/sandbox.json'), 'utf8'),
    '.aide/plans/plan.md': readFileSync(join(root, '.aide/plans/plan.md'), 'utf8'),
  };
  return workspaceState(gitRepo(t, { ...PROJECT, ...aide, ...files }));
}

/** aide running as a child process, its output collected as it comes. */
class Running {
  stdout = '';
  stderr = '';
  ended = false;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;
  private readonly waiters: Array<() => void> = [];

  constructor(root: string, args: string[], env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, [TEST_BIN, ...args], {
      cwd: root,
      env: testEnv(testHome(), env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const changed = () => {
      for (const wake of this.waiters.splice(0)) wake();
    };
    this.child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      this.stdout += d;
      changed();
    });
    this.child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      this.stderr += d;
      changed();
    });
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        this.ended = true;
        changed();
        resolve({ code, signal });
      });
    });
  }

  /** Waits until the output says `text`; fails if aide exits first or stays silent for `ms`. */
  async said(text: string, ms = 60_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!this.stdout.includes(text) && !this.stderr.includes(text)) {
      if (this.ended) throw new Error(`aide exited before saying "${text}":\n${this.stdout}\n${this.stderr}`);
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`aide did not say "${text}" within ${ms} ms:\n${this.stdout}\n${this.stderr}`);
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        timer = setTimeout(resolve, left);
        this.waiters.push(resolve);
      });
      clearTimeout(timer);
    }
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }
}

/**
 * A verify command that is slow only while step 2's test is in the scratch and `go` does not
 * exist in the gate folder (in the test's HOME, shown read-only to commands through
 * `home_binds`): it says where it runs, then waits in two processes (one ignores SIGTERM) that
 * only a kill of the whole command can end.
 */
function slowStep2Sandbox(gate: ReturnType<typeof sharedGate>, marker: string): string {
  const wait = `(trap '' TERM; sleep ${marker}) & sleep ${marker}`;
  const run = `node --test --test-reporter=tap test/ && if grep -q sub test/calc.test.js && [ ! -e "${gate.inside}/go" ]; then echo "started $(pwd)"; ${wait}; fi`;
  return sandbox({ commands: [{ name: 'test', run }], home_binds: gate.homeBinds });
}

/** Starts `aide act --yes` on a two-step plan and signals it while step 2 is verified. */
async function interruptStep2(t: Cleanup, signal: NodeJS.Signals, steps: StepSpec[]) {
  const gate = sharedGate(t);
  const marker = uniqueSeconds();
  const root = actRepo(t, planDoc('Sub', steps), slowStep2Sandbox(gate, marker));
  const dotGit = fingerprint(root, '.git');
  const running = new Running(root, ['act', '--yes', '--allow-protected']);
  const scratch = await commandSaid(root, /^started (.+)$/m);
  running.kill(signal);
  const { code } = await running.exited;
  writeFileSync(join(gate.path, 'go'), '');
  return { root, code, scratch, marker, dotGit, stdout: running.stdout, stderr: running.stderr };
}

test('SIGKILL while a step is written, then --resume --yes: the write is finished and the plan carried on', async (t) => {
  const root = actRepo(
    t,
    planDoc('Sub', [
      { title: 'Add sub', run: ['node -e "console.log(7)"'], edits: ADD_SUB },
      {
        title: 'Test and document sub',
        edits: edit('docs/sub.md', '', '# sub\n\nsub(a, b) is a - b.') + '\n' + TEST_SUB,
      },
      {
        title: 'Seven',
        edits: edit(
          'src/calc.js',
          'export function sub(a, b) {',
          'export const SEVEN = {{ steps.1.output }};\n\nexport function sub(a, b) {',
        ),
      },
    ]),
    sandbox({ allowed_commands: ['node -e "console.log(7)"'] }),
  );
  const dotGit = fingerprint(root, '.git');
  // Step 1 writes one file; step 2 is killed after the first of its two.
  const first = new Running(root, ['act', '--yes', '--allow-protected'], {
    AIDE_TEST_PAUSE_AFTER_WRITES: '2',
  });
  await first.said('aide-test: paused after 2 writes');
  first.kill('SIGKILL');
  await first.exited;

  const dir = sessionDir(root);
  assert.ok(existsSync(join(dir, 'write-back.json')), 'the write-back journal should be there');
  assert.ok(existsSync(join(root, 'docs/sub.md')), 'the first file of step 2 was written');
  assert.equal(
    readFileSync(join(root, 'test/calc.test.js'), 'utf8'),
    PROJECT['test/calc.test.js'],
    'the second was not',
  );
  assert.deepEqual(stepStatuses(readState(root)), ['1:applied', '2:running', '3:pending']);

  const status = await runAide(['status'], { cwd: root });
  assert.match(status.stdout, /: running when its aide process ended \(killed or crashed\)/);
  assert.match(status.stdout, /aide stopped while it wrote step 2 into your files[\s\S]*`aide act --resume`/);
  const fresh = await runAide(['act', '--yes'], { cwd: root });
  assert.equal(fresh.code, 6, fresh.stdout + fresh.stderr);
  assert.match(fresh.stderr, /was stopped while it wrote step 2 into your files[\s\S]*aide act --resume/);

  const resumed = await runAide(['act', '--resume', '--yes', '--allow-protected'], { cwd: root });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.match(
    resumed.stdout,
    /Resuming session act-[\w-]+: step 1 done before\n {2}aide stopped while it wrote step 2 into your files \(2 files\): finishing it\n/,
  );
  assert.match(
    resumed.stdout,
    /Step 2: Test and document sub\n {2}✓ written: docs\/sub\.md \+3 -0, test\/calc\.test\.js \+5 -0\nStep 3: Seven/,
  );
  assert.match(resumed.stdout, /3 steps applied, 0 skipped, 0 failed/);

  const calc = CALC_WITH_SUB.replace('export function sub', 'export const SEVEN = 7;\n\nexport function sub');
  assert.deepEqual(
    workspaceState(root),
    expectedState(t, root, {
      'src/calc.js': calc,
      'test/calc.test.js': CALC_TEST_WITH_SUB,
      'docs/sub.md': '# sub\n\nsub(a, b) is a - b.\n',
    }),
  );
  const state = readState(root);
  assert.equal(state.status, 'finished');
  assert.deepEqual(stepStatuses(state), ['1:applied', '2:applied', '3:applied']);
  assert.equal(state.steps[0]?.output, '7');
  assert.equal(existsSync(join(dir, 'write-back.json')), false);
  assert.equal(existsSync(join(root, '.aide/state/lock')), false);
  assert.deepEqual(fingerprint(root, '.git'), dotGit, "the user's .git is untouched");

  const audit = readFileSync(join(dir, 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; step: number | null });
  const story = audit
    .filter((e) => /^(step_started|step_finished|session_)/.test(e.type))
    .map((e) => `${e.type}:${e.step ?? '-'}`);
  assert.deepEqual(story, [
    'step_started:1',
    'step_finished:1',
    'step_started:2',
    'session_resumed:-',
    'step_started:2',
    'step_finished:2',
    'step_started:3',
    'step_finished:3',
    'session_finished:-',
  ]);

  // The undo target is still the workspace before the first run.
  assert.match(resumed.stdout, new RegExp(`Undo with \`aide restore ${state.base.slice(0, 10)}\``));
  assert.equal((await runAide(['restore', state.base, '--yes'], { cwd: root })).code, 0);
  assert.equal(readFileSync(join(root, 'src/calc.js'), 'utf8'), PROJECT['src/calc.js']);
  assert.equal(existsSync(join(root, 'docs/sub.md')), false);
});

test('Ctrl-C while step 2 is verified: exit 130, nothing left running, the files as step 1 left them; --resume finishes', async (t) => {
  const run = await interruptStep2(t, 'SIGINT', [
    { title: 'Add sub', edits: ADD_SUB },
    { title: 'Test sub', edits: TEST_SUB },
  ]);
  const { root } = run;
  assert.equal(run.code, 130, run.stdout + run.stderr);
  assert.match(run.stderr, /interrupted/);
  assert.deepEqual(processesMatching(`sleep ${run.marker}`), []);
  assert.equal(existsSync(run.scratch), false, 'the scratch copy was removed');
  assert.equal(existsSync(join(root, '.aide/state/lock')), false);
  assert.deepEqual(
    workspaceState(root),
    expectedState(t, root, { 'src/calc.js': CALC_WITH_SUB }),
    'the workspace is exactly as step 1 left it',
  );
  const state = readState(root);
  assert.equal(state.status, 'interrupted');
  assert.deepEqual(stepStatuses(state), ['1:applied', '2:cancelled']);
  assert.equal(state.head, state.steps[0]?.checkpoint);
  assert.match(run.stdout, /Carry on from where it stopped with `aide act --resume`\./);
  const status = await runAide(['status'], { cwd: root });
  assert.match(status.stdout, /: interrupted\n[\s\S]*carry it on with `aide act --resume`/);

  const resumed = await runAide(['act', '--resume', '--yes', '--allow-protected'], { cwd: root });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.match(resumed.stdout, /^Resuming session act-[\w-]+: step 1 done before\nStep 2: Test sub\n/);
  assert.doesNotMatch(resumed.stdout, /Step 1:/);
  assert.match(resumed.stdout, /2 steps applied, 0 skipped, 0 failed/);
  assert.deepEqual(
    workspaceState(root),
    expectedState(t, root, { 'src/calc.js': CALC_WITH_SUB, 'test/calc.test.js': CALC_TEST_WITH_SUB }),
  );
  assert.deepEqual(stepStatuses(readState(root)), ['1:applied', '2:applied']);
  assert.equal(readState(root).status, 'finished');
  assert.deepEqual(fingerprint(root, '.git'), run.dotGit);
});

test('SIGTERM, then the plan is edited: exit 143, and the resume names the steps that changed', async (t) => {
  const run = await interruptStep2(t, 'SIGTERM', [
    { title: 'Add sub', edits: ADD_SUB },
    { title: 'Test sub', edits: TEST_SUB },
  ]);
  const { root } = run;
  assert.equal(run.code, 143, run.stdout + run.stderr);
  assert.equal(readState(root).status, 'interrupted');
  const renamed = TEST_SUB.replace("test('sub'", "test('sub subtracts'");
  writeFileSync(
    join(root, '.aide/plans/plan.md'),
    planDoc('Sub', [
      { title: 'Add sub', intent: 'Add a sub function.', edits: ADD_SUB },
      { title: 'Test sub', edits: renamed },
      {
        title: 'Say so',
        edits: edit(
          'src/calc.js',
          'export function sub(a, b) {',
          '// sub: a - b\nexport function sub(a, b) {',
        ),
      },
    ]),
  );
  const resumed = await runAide(['act', '--resume', '--yes', '--allow-protected'], { cwd: root });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.match(
    resumed.stdout,
    /the plan changed since the session stopped:\n {4}step 1 changed, but it was done before the interruption: not redone\n {4}step 2 changed: it runs as the plan has it now\n {4}step 3 is new\n/,
  );
  assert.match(resumed.stdout, /3 steps applied/);
  assert.match(readFileSync(join(root, 'test/calc.test.js'), 'utf8'), /test\('sub subtracts'/);
  assert.match(readFileSync(join(root, 'src/calc.js'), 'utf8'), /\/\/ sub: a - b\nexport function sub/);
  const state = readState(root);
  assert.deepEqual(stepStatuses(state), ['1:applied', '2:applied', '3:applied']);
});

test('--resume with nothing to resume: exit 2, saying what there is', async (t) => {
  const root = actRepo(t, planDoc('Sub', [{ title: 'Add sub', edits: ADD_SUB }]));
  const none = await runAide(['act', '--resume', '--yes'], { cwd: root });
  assert.equal(none.code, 2, none.stderr);
  assert.match(
    none.stderr,
    /nothing to resume: there is no aide act session in this workspace\n {2}hint: Start a session with `aide act \[plan\]`\./,
  );
  assert.equal(existsSync(join(root, '.aide/state')), false, 'nothing created');

  assert.equal((await runAide(['act', '--yes'], { cwd: root })).code, 0);
  const finished = await runAide(['act', '--resume', '--yes'], { cwd: root });
  assert.equal(finished.code, 2, finished.stderr);
  assert.match(
    finished.stderr,
    /nothing to resume: the last session, act-[\w-]+ \(\.aide\/plans\/plan\.md\), finished/,
  );
  const other = await runAide(['act', '--resume', '--yes', 'other.md'], { cwd: root });
  assert.equal(other.code, 2, other.stderr);
  assert.match(
    other.stderr,
    /nothing to resume: no session ran other\.md \(the last session, act-[\w-]+, ran \.aide\/plans\/plan\.md\)/,
  );
});

test('a dry run that stopped is resumed with --resume --dry-run, and only with it', async (t) => {
  const root = actRepo(
    t,
    planDoc('Sub', [
      { title: 'Add sub', edits: ADD_SUB },
      { title: 'Break add', edits: edit('src/calc.js', '  return a + b;', '  return a * b;') },
    ]),
  );
  const before = omit(workspaceState(root), ['.aide/plans/']);
  const stopped = await runAide(['act', '--dry-run'], { cwd: root });
  assert.equal(stopped.code, 1, stopped.stdout);
  assert.match(stopped.stdout, /`aide act --resume --dry-run`/);
  const wrongKind = await runAide(['act', '--resume', '--yes'], { cwd: root });
  assert.equal(wrongKind.code, 2, wrongKind.stderr);
  assert.match(
    wrongKind.stderr,
    /nothing to resume: the unfinished session act-[\w-]+ \(\.aide\/plans\/plan\.md\) is a dry run\n {2}hint: Resume it with `aide act --resume --dry-run`\./,
  );

  writeFileSync(
    join(root, '.aide/plans/plan.md'),
    planDoc('Sub', [
      { title: 'Add sub', edits: ADD_SUB },
      { title: 'Note', edits: edit('src/calc.js', '  return a + b;', '  return a + b; // sum') },
    ]),
  );
  const patch = join(tempDir(t), 'aide.patch');
  const resumed = await runAide(['act', '--resume', '--dry-run', '--patch-out', patch], { cwd: root });
  assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
  assert.match(resumed.stdout, /step 2 changed: it runs as the plan has it now/);
  assert.match(resumed.stdout, /2 steps verified \(dry run: nothing written\)/);
  const combined = readFileSync(patch, 'utf8');
  assert.ok(
    combined.includes('+export function sub') && combined.includes('+  return a + b; // sum'),
    `the patch covers both runs:\n${combined}`,
  );
  assert.deepEqual(omit(workspaceState(root), ['.aide/plans/']), before, 'nothing written');
});

/** Runs aide on a pseudo-terminal (util-linux `script`), answering the first (y/N) question with `key`. */
async function answering(
  root: string,
  args: string[],
  key: string,
): Promise<{ code: number | null; output: string }> {
  const run = onTerminal(root, args);
  await run.waitFor('(y/N)');
  run.press(key);
  const code = await run.exit();
  return { code, output: run.output() };
}

test('on a terminal, a changed plan is asked about: n leaves the session as it was (exit 5), to be asked again', async (t) => {
  needScript();
  const root = actRepo(
    t,
    planDoc('Sub', [
      { title: 'Add sub', edits: ADD_SUB },
      { title: 'Break add', edits: edit('src/calc.js', '  return a + b;', '  return a * b;') },
    ]),
  );
  assert.equal((await runAide(['act', '--yes'], { cwd: root })).code, 1);
  const stopped = readState(root);
  writeFileSync(
    join(root, '.aide/plans/plan.md'),
    planDoc('Sub', [
      { title: 'Add sub', edits: ADD_SUB },
      { title: 'Note', edits: edit('src/calc.js', '  return a + b;', '  return a + b; // sum') },
    ]),
  );
  const declined = await answering(root, ['act', '--resume'], 'n');
  assert.equal(declined.code, 5, declined.output);
  assert.match(
    declined.output,
    /step 2 changed: it runs as the plan has it now\n[\s\S]*The plan changed since the session stopped \(step 2 changed\)\. Carry on with the plan as it is now\? \(y\/N\)/,
  );
  assert.match(declined.output, /was not resumed: the plan changed since, and you chose not to carry on/);
  const after = readState(root);
  assert.deepEqual(
    { ...after, updatedAt: '' },
    { ...stopped, updatedAt: '' },
    'state.json as it was (so the next resume asks again)',
  );
  assert.equal(readFileSync(join(root, 'src/calc.js'), 'utf8'), CALC_WITH_SUB);
});

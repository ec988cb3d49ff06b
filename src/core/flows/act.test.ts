/**
 * The act flow's decisions with in-memory ports (core/testing/fakes.ts; the real adapters run
 * end to end in test/e2e/act*.test.ts): a step verified, approved and written; a verification
 * that fails, a step the person rejects, an interrupted step, the step-author seam, and the
 * retries of an author that can try again.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AideEvent } from '../events.js';
import type { StepDecision } from '../ports/approval.js';
import {
  FakeApprover,
  FakeRecorder,
  FakeRunner,
  FakeScratch,
  FakeShadow,
  type CommandScript,
} from '../testing/fakes.js';
import { FakeModel } from '../testing/fake-model.js';
import { actFlow, writtenEdits, type ActResume, type ActStep, type StepAuthor } from './act.js';
import { agentAuthor } from './step-agent.js';
import { drive } from './drive.js';

function edit(path: string, search: string, replace: string): string {
  return `${path}\n\`\`\`\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n\`\`\`\n`;
}

const STEP_1: ActStep = { number: 1, title: 'Greet', run: [], edits: edit('a.txt', 'hello', 'hello world') };
const STEP_2: ActStep = { number: 2, title: 'Part', run: [], edits: edit('b.txt', 'bye', 'goodbye') };

interface Setup {
  decisions?: StepDecision[];
  script?: CommandScript;
  author?: StepAuthor;
  allowed?: string[];
  signal?: AbortSignal;
  dryRun?: boolean;
  maxAttempts?: number;
  /** A resumed session: the attempts each step ended before it stopped. */
  earlier?: ActResume['earlier'];
}

async function act(steps: ActStep[], setup: Setup = {}) {
  const shadow = new FakeShadow();
  const workspace = new Map([
    ['a.txt', 'hello\n'],
    ['b.txt', 'bye\n'],
  ]);
  const base = shadow.checkpoint(shadow.tree(workspace));
  const scratch = new FakeScratch(shadow, 'act-test', base);
  const recorder = new FakeRecorder(shadow, workspace);
  const approver = new FakeApprover(setup.decisions);
  const runner = new FakeRunner(setup.script);
  const events: AideEvent[] = [];
  const report = await drive(
    actFlow(
      {
        session: 'act-test',
        steps,
        base,
        dryRun: setup.dryRun ?? false,
        commands: [{ name: 'test', run: ['npm', 'test'] }],
        policy: {
          timeoutMs: 1000,
          totalTimeoutMs: 10_000,
          flakeReruns: 0,
          tailBytes: 1024,
          maxLogBytes: 1 << 20,
          envAllow: [],
        },
        allowedCommands: setup.allowed ?? [],
        protectedPaths: [],
        userEnv: { PATH: '/bin' },
        logDir: (step) => `/logs/step-${step}`,
        ...(setup.signal === undefined ? {} : { signal: setup.signal }),
        ...(setup.maxAttempts === undefined ? {} : { maxAttempts: setup.maxAttempts }),
        ...(setup.earlier === undefined ? {} : { resume: { head: base, done: [], earlier: setup.earlier } }),
      },
      {
        author: setup.author ?? writtenEdits(),
        scratch,
        runner,
        fs: scratch.fs,
        approver,
        recorder,
        now: () => 0,
      },
    ),
    (event) => {
      events.push(event);
    },
  );
  return { report, events, workspace, recorder, approver, runner, scratch };
}

const types = (events: readonly AideEvent[]) => events.map((e) => e.type);

test('a step that passes verification and is approved is checkpointed and written', async () => {
  const { report, events, workspace, approver } = await act([STEP_1]);
  assert.equal(report.steps[0]?.status, 'applied');
  assert.equal(workspace.get('a.txt'), 'hello world\n');
  assert.deepEqual(
    approver.reviews.map((r) => [
      r.step,
      r.files.map((f) => `${f.action} ${f.path} +${f.added} -${f.removed}`),
    ]),
    [[1, ['modified a.txt +1 -1']]],
  );
  assert.ok(report.steps[0]?.checkpoint !== null);
  assert.equal(report.head, report.steps[0]?.checkpoint);
  assert.match(report.patch, /\+hello world/);
  for (const type of [
    'step_edited',
    'approval_requested',
    'checkpoint_created',
    'patch_applied',
    'session_finished',
  ])
    assert.ok(types(events).includes(type as AideEvent['type']), type);
});

test("the scratch is told when a verified step's commands are over (settle), before the next step's move; not after the last", async () => {
  const passed = await act([STEP_1, STEP_2]);
  assert.deepEqual(passed.scratch.settles, [1]);
  assert.equal(passed.runner.calls.length, 2);
  const failed = await act([STEP_1, STEP_2], {
    script: (run) => (run.name === 'test' ? { exitCode: 1, tail: '1 failing' } : undefined),
  });
  assert.deepEqual(failed.scratch.settles, []);
});

test('a step whose verification fails writes nothing, asks nothing and stops the session', async () => {
  const { report, workspace, approver, recorder } = await act([STEP_1, STEP_2], {
    script: (run) => (run.name === 'test' ? { exitCode: 1, tail: '1 failing' } : undefined),
  });
  assert.deepEqual(
    report.steps.map((s) => s.status),
    ['failed', 'not_run'],
  );
  assert.match(report.steps[0]?.reason ?? '', /test/);
  assert.equal(report.steps[0]?.verify?.verdict, 'failed');
  assert.deepEqual(
    report.steps[0]?.files.map((f) => f.path),
    ['a.txt'],
  );
  assert.equal(workspace.get('a.txt'), 'hello\n');
  assert.equal(approver.reviews.length, 0);
  assert.equal(recorder.written.length, 0);
  assert.equal(report.patch, '');
});

test('a step the person skips is not written, and the next step starts from the files before it', async () => {
  const { report, workspace, scratch } = await act([STEP_1, STEP_2], {
    decisions: [{ kind: 'skip', reason: 'you chose Skip step' }],
  });
  assert.deepEqual(
    report.steps.map((s) => [s.status, s.reason]),
    [
      ['skipped', 'you chose Skip step'],
      ['applied', null],
    ],
  );
  assert.equal(workspace.get('a.txt'), 'hello\n');
  assert.equal(workspace.get('b.txt'), 'goodbye\n');
  // Step 2 began at the session's base: step 1's edit was dropped from the scratch.
  assert.equal(scratch.moves[0], scratch.moves[1]);
});

test('a step the person aborts stops the session with nothing of it written', async () => {
  const { report, workspace, recorder } = await act([STEP_1, STEP_2], { decisions: [{ kind: 'abort' }] });
  assert.deepEqual(
    report.steps.map((s) => s.status),
    ['aborted', 'not_run'],
  );
  assert.equal(workspace.get('a.txt'), 'hello\n');
  assert.equal(recorder.written.length, 0);
});

test('an interrupted step is cancelled, nothing is written, and the steps after it are cancelled too', async () => {
  const controller = new AbortController();
  const { report, workspace, approver } = await act([{ ...STEP_1, run: ['make gen'] }, STEP_2], {
    allowed: ['make gen'],
    signal: controller.signal,
    script: (run) => {
      if (run.name !== 'run-1') return undefined;
      controller.abort();
      return { exitCode: null, signal: 'SIGINT', cancelled: true };
    },
  });
  assert.deepEqual(
    report.steps.map((s) => s.status),
    ['cancelled', 'cancelled'],
  );
  assert.equal(workspace.get('a.txt'), 'hello\n');
  assert.equal(approver.reviews.length, 0);
});

test("a Run command's output reaches a later step's templates", async () => {
  const { report, workspace } = await act(
    [
      { number: 1, title: 'Ask', run: ['date'], edits: '' },
      { ...STEP_2, edits: edit('b.txt', 'bye', '{{ steps.1.output }}') },
    ],
    { allowed: ['date'], script: (run) => (run.name === 'run-1' ? { tail: 'Tuesday\n' } : undefined) },
  );
  assert.deepEqual(
    report.steps.map((s) => [s.status, s.output]),
    [
      ['skipped', 'Tuesday'],
      ['applied', ''],
    ],
  );
  assert.equal(workspace.get('b.txt'), 'Tuesday\n');
});

test('edits come from the step author: its events are the step’s, and it is asked with no earlier failure', async () => {
  const asked: unknown[] = [];
  const author: StepAuthor = {
    async *author(request) {
      asked.push(request.previous);
      yield { type: 'step_started', step: 99, title: 'from the author' };
      return await Promise.resolve({ ok: true as const, edits: edit('a.txt', 'hello', 'hi') });
    },
  };
  const { report, events, workspace } = await act([{ ...STEP_1, edits: '' }], { author });
  assert.deepEqual(asked, [null]);
  assert.ok(events.some((e) => e.type === 'step_started' && e.step === 99));
  assert.equal(report.steps[0]?.status, 'applied');
  assert.equal(workspace.get('a.txt'), 'hi\n');
});

test('an author with no edits to give fails the step with its reason', async () => {
  const { report } = await act([{ ...STEP_1, edits: 'x {{ steps.7.output }}' }]);
  assert.equal(report.steps[0]?.status, 'failed');
  assert.match(report.steps[0]?.reason ?? '', /step 7|steps\.7/);
});

/** An author that tries again: attempt N gives `edits[N - 1]`; it records what it was told. */
function retrying(edits: string[], told: Array<string | null> = []): StepAuthor {
  return {
    retries: () => true,
    // eslint-disable-next-line require-yield -- a scripted author has no progress to tell
    async *author(request) {
      const earlier = request.earlier?.map((a) => `earlier ${a.attempt}: ${a.feedback ?? ''}`) ?? [];
      told.push(...earlier);
      told.push(request.previous === null ? null : `${request.attempt}: ${request.previous.reason}`);
      return await Promise.resolve({ ok: true as const, edits: edits[request.attempt - 1] ?? '' });
    },
  };
}

/** The verify command fails with these tails in turn, then passes. */
function failing(...tails: string[]) {
  let run = 0;
  return (command: { name: string }) => {
    if (command.name !== 'test') return undefined;
    const tail = tails[run++];
    return tail === undefined ? undefined : { exitCode: 1, tail };
  };
}

test('an author that tries again: the failure goes back, the scratch is kept, the first pass is written', async () => {
  const told: Array<string | null> = [];
  const author = retrying(
    [edit('a.txt', 'hello', 'hello wrld'), edit('a.txt', 'hello wrld', 'hello world')],
    told,
  );
  const { report, events, workspace, scratch } = await act([{ ...STEP_1, edits: '' }], {
    author,
    maxAttempts: 3,
    script: failing('not ok 1 - spelling\n'),
  });
  assert.equal(report.steps[0]?.status, 'applied');
  assert.equal(workspace.get('a.txt'), 'hello world\n');
  assert.equal(told[0], null);
  assert.match(told[1] ?? '', /^2: /);
  // One move to the head before the step; none between its attempts.
  assert.equal(scratch.moves.length, 1);
  assert.deepEqual(
    events.flatMap((e) => (e.type === 'attempt_finished' ? [[e.attempt, e.passed]] : [])),
    [
      [1, false],
      [2, true],
    ],
  );
});

test('a resumed step carries its attempt count on: the interrupted attempt runs as itself, told the earlier failures', async () => {
  const told: Array<string | null> = [];
  const author = retrying(['', edit('a.txt', 'hello', 'hello world')], told);
  const { report, events, workspace } = await act([{ ...STEP_1, edits: '' }], {
    author,
    maxAttempts: 3,
    earlier: [{ step: 1, attempts: [{ attempt: 1, reason: 'failed: test', feedback: 'Failing tests: x' }] }],
  });
  assert.equal(report.steps[0]?.status, 'applied');
  assert.equal(workspace.get('a.txt'), 'hello world\n');
  assert.deepEqual(told, ['earlier 1: Failing tests: x', null]);
  assert.deepEqual(
    events.flatMap((e) => (e.type === 'attempt_started' ? [[e.attempt, e.maxAttempts]] : [])),
    [[2, 3]],
  );
});

test('a resumed step whose attempts were all made fails at once, trying none again', async () => {
  const told: Array<string | null> = [];
  const made = [1, 2].map((attempt) => ({ attempt, reason: `failed ${attempt}`, feedback: null }));
  const { report, events } = await act([{ ...STEP_1, edits: '' }], {
    author: retrying([], told),
    maxAttempts: 2,
    earlier: [{ step: 1, attempts: made }],
  });
  assert.equal(report.steps[0]?.status, 'failed');
  assert.match(
    report.steps[0]?.reason ?? '',
    /no attempt passed \(2 attempts, before the session was resumed\)/,
  );
  assert.deepEqual(told, []);
  assert.ok(!events.some((e) => e.type === 'attempt_started'));
});

test('no attempt passes: the step fails with the best attempt (fewest failing tests) and writes nothing', async () => {
  const author = retrying([
    edit('a.txt', 'hello', 'hello 1'),
    edit('a.txt', 'hello 1', 'hello 2'),
    edit('a.txt', 'hello 2', 'hello 3'),
  ]);
  const { report, workspace, approver } = await act([{ ...STEP_1, edits: '' }], {
    author,
    maxAttempts: 3,
    script: failing(
      'not ok 1 - a\nnot ok 2 - b\n',
      'not ok 1 - a\nBEST TAIL\n',
      'not ok 1 - a\nnot ok 2 - b\nnot ok 3 - c\n',
    ),
  });
  assert.equal(report.steps[0]?.status, 'failed');
  assert.match(
    report.steps[0]?.reason ?? '',
    /no attempt passed \(3 attempts\); the best, attempt 2 \(1 failing command, 1 failing test\)/,
  );
  assert.match(
    report.steps[0]?.reason ?? '',
    /Failing tests: a\nOutput \(last lines\):\nnot ok 1 - a\nBEST TAIL/,
  );
  assert.equal(workspace.get('a.txt'), 'hello\n');
  assert.equal(approver.reviews.length, 0);
});

test('the same failing edit twice ends the step before max_attempts', async () => {
  const same = edit('a.txt', 'hello', 'hello wrld');
  const { report, runner } = await act([{ ...STEP_1, edits: '' }], {
    author: retrying([same, same, same]),
    maxAttempts: 3,
    script: failing('not ok 1 - x\n', 'not ok 1 - x\n', 'not ok 1 - x\n'),
  });
  assert.equal(report.steps[0]?.status, 'failed');
  assert.match(report.steps[0]?.reason ?? '', /stopped early: attempt 2 failed the same way as attempt 1/);
  assert.equal(runner.calls.filter((c) => c.name === 'test').length, 2);
});

test('a step of written edits has one attempt whatever max_attempts says', async () => {
  const { report, runner, events } = await act([STEP_1], {
    maxAttempts: 3,
    script: failing('not ok 1 - x\n', 'not ok 1 - y\n'),
  });
  assert.equal(report.steps[0]?.status, 'failed');
  assert.equal(runner.calls.filter((c) => c.name === 'test').length, 1);
  assert.ok(!events.some((e) => e.type === 'attempt_started'));
});

/** The agent author over a scripted model, for the tests below. */
function scriptedAgent(client: FakeModel) {
  return agentAuthor({
    client,
    summary: 'Greet the world.',
    limits: {
      maxIterations: 10,
      maxConsecutiveMistakes: 3,
      maxToolResultBytes: 4096,
      maxFinishRejections: 3,
    },
    contextTokens: 32_000,
    replyReserveTokens: 1000,
    reads: () => ({ run: () => Promise.resolve({ ok: false, forModel: 'no reads', forUser: 'no reads' }) }),
    fence: () => 'fencefencefence1',
    now: () => 0,
    describeStop: (stop) => `stopped: ${stop.kind}`,
  });
}

test('an agent that slips (no tool twice) gets another attempt; a model that is gone does not', async () => {
  const done = '<attempt_completion><result>done</result></attempt_completion>';
  const change =
    '<replace_in_file>\n<path>a.txt</path>\n<diff>\n<<<<<<< SEARCH\nhello\n=======\nhello world\n>>>>>>> REPLACE\n</diff>\n</replace_in_file>';
  const slipping = new FakeModel(['I will do it.', 'Done, I think.', change, done]);
  const slipped = await act([{ ...STEP_1, edits: '' }], { author: scriptedAgent(slipping), maxAttempts: 3 });
  assert.equal(slipped.report.steps[0]?.status, 'applied', slipped.report.steps[0]?.reason ?? '');
  assert.match(slipping.requests[2]?.messages.at(-1)?.content ?? '', /stopped: mistakes/);
  const gone = new FakeModel([
    { failure: { kind: 'no_server', endpoint: 'http://127.0.0.1:1', detail: 'refused' } },
  ]);
  const ended = await act([{ ...STEP_1, edits: '' }], { author: scriptedAgent(gone), maxAttempts: 3 });
  assert.equal(ended.report.steps[0]?.status, 'failed');
  assert.equal(gone.requests.length, 1);
});

test('the agent author: its retry extends the conversation with the failure as untrusted data', async () => {
  const change = (from: string, to: string) =>
    `<replace_in_file>\n<path>a.txt</path>\n<diff>\n<<<<<<< SEARCH\n${from}\n=======\n${to}\n>>>>>>> REPLACE\n</diff>\n</replace_in_file>`;
  const done = '<attempt_completion><result>done</result></attempt_completion>';
  const client = new FakeModel([
    change('hello', 'hello wrld'),
    done,
    change('hello wrld', 'hello world'),
    done,
  ]);
  const author = agentAuthor({
    client,
    summary: 'Greet the world.',
    limits: {
      maxIterations: 10,
      maxConsecutiveMistakes: 3,
      maxToolResultBytes: 4096,
      maxFinishRejections: 3,
    },
    contextTokens: 32_000,
    replyReserveTokens: 1000,
    reads: () => ({ run: () => Promise.resolve({ ok: false, forModel: 'no reads', forUser: 'no reads' }) }),
    fence: () => 'fencefencefence1',
    now: () => 0,
    describeStop: (stop) => stop.kind,
  });
  const { report, events, workspace } = await act([{ ...STEP_1, edits: '', intent: 'Say hello world.' }], {
    author,
    maxAttempts: 3,
    script: failing('not ok 1 - greets the world\n# expected "hello world"\n'),
  });
  assert.equal(report.steps[0]?.status, 'applied', report.steps[0]?.reason ?? '');
  assert.equal(workspace.get('a.txt'), 'hello world\n');
  const [first, , retry] = client.requests.map((r) => r.messages);
  assert.match(first?.[1]?.content ?? '', /# Step 1: Greet\n\nSay hello world\.[\s\S]*Greet the world\./);
  const last = retry?.at(-1)?.content ?? '';
  assert.match(last, /\[\[tool_result name=verify status=error fence=fencefencefence1\]\]/);
  assert.match(last, /Failing tests: greets the world/);
  // The retry's request starts with every message of the first attempt, byte for byte.
  const second = client.requests[1]?.messages ?? [];
  assert.deepEqual(retry?.slice(0, second.length), second);
  assert.ok(
    events.some((e) => e.type === 'step_agent' && e.attempt === 2 && e.event.type === 'tool_call'),
    'the loop events carry their attempt',
  );
});

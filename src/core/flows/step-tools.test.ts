/**
 * The act-mode tools through the act flow's seam: an author that writes in the scratch with
 * them (as the act-mode loop will) and gives no edit blocks of its own. The flow captures what
 * the tools wrote; the protected file they touched is in the review, as the tools said.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ActTools } from '../agent/act-tools.js';
import type { AideEvent } from '../events.js';
import { FakeApprover, FakeRecorder, FakeRunner, FakeScratch, FakeShadow } from '../testing/fakes.js';
import { actFlow, type ActDeps, type ActInput, type StepAuthor } from './act.js';
import { drive } from './drive.js';
import { stepTools } from './step-tools.js';

test("an author writing through the act tools: the scratch's changes are the step's, protected ones in the review", async () => {
  const shadow = new FakeShadow();
  const workspace = new Map([
    ['src/total.ts', 'export const total = 2;\n'],
    ['src/total.test.ts', 'expect(total).toBe(3);\n'],
    ['.aide/sandbox.json', '{"allowed_commands": ["npm test"]}\n'],
  ]);
  const base = shadow.checkpoint(shadow.tree(workspace));
  const scratch = new FakeScratch(shadow, 'tools-test', base);
  const runner = new FakeRunner();
  const approver = new FakeApprover();
  const input: ActInput = {
    session: 'tools-test',
    steps: [{ number: 1, title: 'Fix total', run: [], edits: '' }],
    base,
    dryRun: false,
    commands: [{ name: 'test', run: ['npm', 'test'] }],
    policy: {
      timeoutMs: 1000,
      totalTimeoutMs: 10_000,
      flakeReruns: 0,
      tailBytes: 1024,
      maxLogBytes: 1 << 20,
      envAllow: [],
    },
    allowedCommands: ['npm test'],
    protectedPaths: ['**/*.test.ts'],
    userEnv: { PATH: '/bin' },
    logDir: (step) => `/logs/step-${step}`,
  };
  let tools: ActTools | undefined;
  const deps: ActDeps = {
    scratch,
    runner,
    fs: scratch.fs,
    approver,
    recorder: new FakeRecorder(shadow, workspace),
    now: () => 0,
    author: {
      // eslint-disable-next-line require-yield -- an author that emits no events of its own
      async *author(request) {
        tools = stepTools({ input, deps }, request.step, 1);
        const block = (s: string, r: string) => `<<<<<<< SEARCH\n${s}\n=======\n${r}\n>>>>>>> REPLACE\n`;
        await tools.run({
          tool: 'replace_in_file',
          input: {
            path: 'src/total.test.ts',
            diff: block('expect(total).toBe(3);', 'expect(total).toBe(2);'),
          },
        });
        await tools.run({
          tool: 'write_file',
          input: { path: '.aide/sandbox.json', content: '{"allowed_commands": ["sh"]}\n' },
        });
        await tools.run({ tool: 'run_command', input: { command: 'npm test' } });
        return { ok: true, edits: '' };
      },
    } satisfies StepAuthor,
  };
  const events: AideEvent[] = [];
  const report = await drive(actFlow(input, deps), (event) => {
    events.push(event);
  });
  assert.equal(report.steps[0]?.status, 'applied', report.steps[0]?.reason ?? '');
  assert.deepEqual(tools?.written(), ['src/total.test.ts']);
  assert.deepEqual(tools?.protectedTouched(), [{ path: 'src/total.test.ts', rule: '**/*.test.ts' }]);
  assert.deepEqual(approver.reviews[0]?.protectedFiles, tools?.protectedTouched());
  assert.equal(workspace.get('.aide/sandbox.json'), '{"allowed_commands": ["npm test"]}\n');
  assert.equal(workspace.get('src/total.test.ts'), 'expect(total).toBe(2);\n');
  assert.equal(runner.calls[0]?.logFile, '/logs/step-1/attempt-1-tool-1.log');
  assert.equal(runner.calls[0]?.cwd, scratch.path);
});

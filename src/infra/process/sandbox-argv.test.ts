import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { ProcessCommandRunner } from './command-runner.js';
import { findSandboxTools } from './isolation.js';
import { sandboxArgv, type SandboxPlan, type SandboxTools } from './sandbox-argv.js';

const env = { PATH: '/usr/bin:/bin' };
const tools = await findSandboxTools(env);

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'aide-plan-'));
  t.after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** What a command sees inside a plan, one fact a line. */
const REPORT = 'if (: > "$1/f") 2>/dev/null; then echo writable; else echo read-only; fi; grep -c : /proc/net/dev; echo "ppid $PPID"; id -u';

async function runInside(t: TestContext, plan: SandboxPlan, withTools: SandboxTools): Promise<string[]> {
  const workspace = tempDir(t);
  const isolation = {
    report: { mechanism: plan.mechanism, network: 'off', workspaceReadOnly: plan.readOnly, processTree: 'namespace', detail: null } as const,
    wrap: (argv: readonly string[]) => sandboxArgv(plan, withTools, [workspace], argv),
  };
  const runner = new ProcessCommandRunner({ isolation });
  const scratch = tempDir(t);
  const result = await runner.run({ name: 'plan', run: ['/bin/sh', '-c', REPORT, 'report', workspace], cwd: scratch, env, timeoutMs: 10_000, logFile: join(scratch, 'log'), maxLogBytes: 10_000, tailBytes: 1000 });
  assert.equal(result.exitCode, 0, result.tail);
  return result.tail.split('\n');
}

// Every fallback plan runs for real here, although this machine passes the strongest probe.
const plans: SandboxPlan[] = [
  { mechanism: 'unshare', network: true, readOnly: true, pid: true },
  { mechanism: 'unshare', network: true, readOnly: true, pid: false },
  { mechanism: 'unshare', network: true, readOnly: false, pid: false },
  { mechanism: 'unshare', network: false, readOnly: true, pid: true },
  { mechanism: 'unshare', network: false, readOnly: true, pid: false },
  { mechanism: 'bwrap', network: true, readOnly: true, pid: true },
  { mechanism: 'bwrap', network: false, readOnly: true, pid: true },
];

for (const plan of plans) {
  for (const mapsCurrentUser of plan.mechanism === 'unshare' ? [true, false] : [false]) {
    const name = `${plan.mechanism}${plan.mechanism === 'unshare' ? (mapsCurrentUser ? ' --map-current-user' : ' -r') : ''}`;
    test(`${name} with network ${plan.network ? 'off' : 'on'}, ${plan.readOnly ? 'read-only' : 'writable'}, ${plan.pid ? 'own' : 'shared'} PIDs: the command sees exactly that`, async (t) => {
      const [write, interfaces, ppid, uid] = await runInside(t, plan, { ...tools, unshareMapsCurrentUser: mapsCurrentUser });
      assert.equal(write, plan.readOnly ? 'read-only' : 'writable');
      assert.equal(interfaces === '1', plan.network, `interfaces: ${interfaces ?? ''}`);
      assert.equal(ppid === 'ppid 1', plan.pid, ppid);
      assert.equal(uid, String(process.getuid?.()));
    });
  }
}

test('without --map-current-user, unshare maps root; with it, the user keeps their uid', () => {
  const plan: SandboxPlan = { mechanism: 'unshare', network: true, readOnly: true, pid: true };
  const old = sandboxArgv(plan, { ...tools, unshareMapsCurrentUser: false }, ['/w'], ['true']);
  const current = sandboxArgv(plan, { ...tools, unshareMapsCurrentUser: true }, ['/w'], ['true']);
  assert.deepEqual(old.slice(1, 5), ['-r', '-mnpf', '--kill-child', '--mount-proc']);
  assert.deepEqual(current.slice(1, 6), ['--map-current-user', '--keep-caps', '-mnpf', '--kill-child', '--mount-proc']);
});

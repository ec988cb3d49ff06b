/**
 * Runs a plan for real on throwaway folders and checks, from inside, every protection the
 * report would claim for it: nothing is trusted because a tool exited 0.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { probe } from './probe.js';
import type { SandboxPlan, SandboxTools } from './sandbox-argv.js';
import { tempRoot } from './sandbox-layout.js';
import { Sandbox } from './sandbox.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The checks, run inside the plan. Arguments: $1 a read-only folder (the "workspace"), $2 the
 * scratch, $3 the command's TMPDIR, $4 a folder outside the scratch holding a listening UNIX
 * socket, $5 the name of an entry of the host's /run ('' when it has none).
 */
export function checkScript(plan: SandboxPlan): string {
  const checks = ['ws=$1 scratch=$2 tmp=$3 outside=$4 run=$5', 'fail() { echo "aide: $2" >&2; exit "$1"; }'];
  if (plan.filesystem !== 'open') {
    checks.push('if (: > "$ws/probe") 2>/dev/null; then fail 10 "$ws is still writable"; fi');
    checks.push('if umount "$ws" 2>/dev/null; then fail 11 "the command can unmount $ws"; fi');
    checks.push('(: > "$scratch/probe") 2>/dev/null || fail 14 "the scratch is not writable"');
  }
  if (plan.filesystem === 'confined') {
    checks.push('(: > "$tmp/probe") 2>/dev/null || fail 15 "its own temp folder is not writable"');
    checks.push(
      'if (: > "$outside/probe") 2>/dev/null; then fail 16 "$outside, outside the scratch, is writable"; fi',
    );
    // As root outside, / is writable unless the sandbox made it read-only.
    checks.push('if (: > /.aide-probe) 2>/dev/null; then rm -f /.aide-probe; fail 16 "/ is writable"; fi');
    checks.push(
      'if [ -e "$outside/socket" ]; then fail 17 "a UNIX socket outside the scratch is in sight (the temp folder is shared)"; fi',
    );
    checks.push('if [ -n "$run" ] && [ -e "/run/$run" ]; then fail 18 "the host\'s /run is in sight"; fi');
    // As root, a writable /proc lets a command set the host's core_pattern, a helper the kernel
    // runs as root outside every namespace; `[ -w ]` asks without writing.
    checks.push('if [ -w /proc/sys/kernel/core_pattern ]; then fail 19 "/proc/sys is writable"; fi');
  }
  if (plan.layers === true) {
    // On the overlay, the scratch's file is seen and can go; outside, probePlan checks it stayed.
    checks.push('[ -f "$scratch/kept" ] || fail 20 "the scratch is not seen through its overlay"');
    checks.push(
      'rm -f "$scratch/kept" && ! [ -e "$scratch/kept" ] || fail 21 "a file of the scratch cannot be removed on its overlay"',
    );
  }
  if (plan.network)
    checks.push('[ "$(grep -c : /proc/net/dev)" = 1 ] || fail 12 "network interfaces are visible"');
  if (plan.pid) checks.push('[ "$PPID" = 1 ] || fail 13 "not in a PID namespace"');
  return checks.join('\n');
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? ''
  );
}

function listen(path: string): Promise<Server | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => {
      resolve(null);
    });
    server.listen(path, () => {
      resolve(server);
    });
  });
}

function hostRunEntry(): string {
  try {
    return readdirSync('/run')[0] ?? '';
  } catch {
    return '';
  }
}

/** Runs the checks inside `plan`: null when every one holds, else the first failure in the tool's or the check's words. */
export async function probePlan(plan: SandboxPlan, tools: SandboxTools, env: Env): Promise<string | null> {
  const dir = mkdtempSync(join(tempRoot(env), 'aide-isolation-'));
  const [ws, scratch, outside] = ['ws', 'scratch', 'outside'].map((name) => join(dir, name)) as [
    string,
    string,
    string,
  ];
  for (const folder of [ws, scratch, outside]) mkdirSync(folder);
  writeFileSync(join(ws, 'file'), 'probe\n');
  if (plan.layers === true) writeFileSync(join(scratch, 'kept'), 'probe\n');
  // A path too long for a socket address still leaves a file there to be seen or not.
  const server = plan.filesystem === 'confined' ? await listen(join(outside, 'socket')) : null;
  if (plan.filesystem === 'confined' && server === null) writeFileSync(join(outside, 'socket'), '');
  const sandbox = new Sandbox(plan, tools, {
    env,
    readOnlyPaths: [ws],
    homeBinds: [],
    allowNetwork: !plan.network,
  });
  try {
    const tmp = sandbox.environment({})['TMPDIR'] ?? '';
    const checks = [
      '/bin/sh',
      '-c',
      checkScript(plan),
      'aide-probe',
      ws,
      scratch,
      tmp,
      outside,
      hostRunEntry(),
    ];
    let wrapped: string[];
    try {
      wrapped = sandbox.wrap(checks, scratch, plan.layers === true ? 'probe' : undefined);
    } catch (error) {
      // A temp folder whose path an overlay's options cannot name: the plans without one remain.
      if (plan.layers === true && error instanceof Error) return error.message;
      throw error;
    }
    const [program = '', ...args] = wrapped;
    const result = await probe([program, ...args], { env, cwd: scratch, infoFd: sandbox.reportsInit });
    if (!result.ok)
      return firstLine(result.stderr) || `${plan.mechanism} exited ${result.code ?? 'on a signal'}`;
    if (plan.layers === true && (!existsSync(join(scratch, 'kept')) || existsSync(join(scratch, 'probe'))))
      return 'the overlay over the scratch let a change through to the scratch itself';
    return null;
  } finally {
    sandbox.dispose();
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

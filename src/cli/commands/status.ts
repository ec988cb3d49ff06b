import { join } from 'node:path';
import type { CommandSpec } from './spec.js';

/** state.json as far as it can be shown: a session recorded by an older aide may lack fields. */
interface ShownState {
  session?: string;
  plan?: string;
  title?: string;
  status?: string;
  dryRun?: boolean;
  base?: string;
  steps?: Array<{ number: number; status: string; checkpoint: string | null }>;
}

/** What status says about carrying a session on. */
interface Resumable {
  session: string;
  plan: string;
  command: string;
  /** A write-back of this session was killed half way: resuming finishes it. */
  pendingWriteBack: { step: number; files: number } | null;
}

const STATUS_TEXT: Record<string, string> = { not_run: 'not run' };

function renderState(state: ShownState, killed: boolean): string[] {
  const status = state.status ?? 'unknown';
  const shown = killed ? 'running when its aide process ended (killed or crashed)' : status;
  const lines = [`session ${state.session ?? '?'}: ${shown}${state.dryRun === true ? ' (dry run)' : ''}`];
  if (state.plan !== undefined) lines.push(`plan: ${state.plan}${state.title === undefined ? '' : ` — ${state.title}`}`);
  for (const step of state.steps ?? []) {
    lines.push(`  step ${step.number}: ${STATUS_TEXT[step.status] ?? step.status}${step.checkpoint === null ? '' : ` (checkpoint ${step.checkpoint.slice(0, 10)})`}`);
  }
  if (state.base !== undefined) lines.push(`undo the whole session with \`aide restore ${state.base.slice(0, 10)}\``);
  return lines;
}

function renderResumable(resumable: Resumable, other: boolean): string[] {
  const lines: string[] = [];
  if (other) lines.push(`session ${resumable.session} (${resumable.plan}) is unfinished`);
  const write = resumable.pendingWriteBack;
  if (write !== null) {
    lines.push(`aide stopped while it wrote step ${write.step} into your files: some of its ${write.files} files may be written and others not`);
    lines.push(`finish writing it and carry the session on with \`${resumable.command}\``);
  } else lines.push(`carry it on with \`${resumable.command}\``);
  return lines;
}

export const statusCommand: CommandSpec = {
  command: 'status',
  describe: 'Show the current or last `aide act` session: its plan, what each step did, how to carry it on',
  builder: (yargs) => yargs.example('$0 status', 'what the last act session did, how to undo it, and how to resume it if it stopped'),
  run: async (_argv, globals, io) => {
    const [{ findWorkspaceRoot }, { listSessionStates }, { lockHolder }, { resumeCommand }] = await Promise.all([
      import('../../infra/git/workspace-root.js'),
      import('../../infra/session/session-state.js'),
      import('../../infra/shadow/lock.js'),
      import('../act-session-select.js'),
    ]);
    const root = await findWorkspaceRoot(globals.cwd, io.env);
    const stateDir = join(root, '.aide/state');
    const sessions = await listSessionStates(stateDir);
    const last = sessions[0];
    // `running` in state.json with no aide holding the lock: that aide was killed.
    const holder = await lockHolder(stateDir);
    const killed = last?.state?.status === 'running' && holder?.command !== 'act';
    // What `aide act --resume` would pick: the newest unfinished session (of its own kind).
    const unfinished = sessions.find((s) => s.state !== null && s.state.status !== 'finished' && !(s === last && s.state.status === 'running' && !killed));
    const resumable: Resumable | null =
      unfinished?.state == null
        ? null
        : { session: unfinished.session, plan: unfinished.state.plan, command: resumeCommand(unfinished.state.dryRun), pendingWriteBack: unfinished.pendingWriteBack };
    if (globals.json) {
      const session = last === undefined ? null : (last.state ?? last.raw);
      io.stdout.write(`${JSON.stringify({ schema: 'aide.status/1', ok: true, session, killed, resumable }, null, 2)}\n`);
      return 0;
    }
    if (last === undefined) {
      io.stdout.write('No aide act session in this workspace yet.\n');
      return 0;
    }
    const lines = renderState(last.state ?? last.raw ?? {}, killed);
    if (resumable !== null) lines.push(...renderResumable(resumable, resumable.session !== last.session));
    io.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  },
};

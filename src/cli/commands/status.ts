import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CommandSpec } from './spec.js';

interface SessionState {
  session: string;
  plan?: string;
  title?: string;
  status?: string;
  dryRun?: boolean;
  base?: string;
  head?: string;
  steps?: Array<{ number: number; status: string; checkpoint: string | null }>;
}

/** The newest session that has a state.json (act sessions; verify runs keep only logs). */
async function lastSession(stateDir: string): Promise<SessionState | null> {
  const dir = join(stateDir, 'sessions');
  const names = await readdir(dir).catch(() => [] as string[]);
  const found = await Promise.all(
    names.map(async (name) => {
      const file = join(dir, name, 'state.json');
      const info = await stat(file).catch(() => null);
      return info === null ? null : { file, mtime: info.mtimeMs };
    }),
  );
  const newest = found.filter((f) => f !== null).sort((a, b) => b.mtime - a.mtime)[0];
  if (newest === undefined) return null;
  return JSON.parse(await readFile(newest.file, 'utf8')) as SessionState;
}

function renderState(state: SessionState): string {
  const lines = [`session ${state.session}: ${state.status ?? 'unknown'}${state.dryRun === true ? ' (dry run)' : ''}`];
  if (state.plan !== undefined) lines.push(`plan: ${state.plan}${state.title === undefined ? '' : ` — ${state.title}`}`);
  for (const step of state.steps ?? []) lines.push(`  step ${step.number}: ${step.status}${step.checkpoint === null ? '' : ` (checkpoint ${step.checkpoint.slice(0, 10)})`}`);
  if (state.base !== undefined) lines.push(`undo the whole session with \`aide restore ${state.base.slice(0, 10)}\``);
  return `${lines.join('\n')}\n`;
}

export const statusCommand: CommandSpec = {
  command: 'status',
  describe: 'Show the current or last `aide act` session: its plan and what each step did',
  builder: (yargs) => yargs.example('$0 status', 'what the last act session did, and how to undo it'),
  run: async (_argv, globals, io) => {
    const { findWorkspaceRoot } = await import('../../infra/git/workspace-root.js');
    const root = await findWorkspaceRoot(globals.cwd, io.env);
    const state = await lastSession(join(root, '.aide/state'));
    if (globals.json) io.stdout.write(`${JSON.stringify({ schema: 'aide.status/1', ok: true, session: state }, null, 2)}\n`);
    else io.stdout.write(state === null ? 'No aide act session in this workspace yet.\n' : renderState(state));
    return 0;
  },
};

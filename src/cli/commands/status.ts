import { z } from 'zod';
import { AideError } from '../../shared/errors.js';
import { useColor } from '../io.js';
import type { CommandRunner, RawArgv } from './spec.js';

/** How many sessions the list shows. */
const RECENT = 5;
/** Enough checkpoints to see the restores that concern the recent sessions. */
const CHECKPOINTS_READ = 1000;

export const statusOptionsSchema = z.object({
  /** A session id or a unique prefix of one; omitted: the newest session. */
  session: z.union([z.string(), z.number()]).transform(String).pipe(z.string().min(1)).optional(),
});
export type StatusOptions = z.infer<typeof statusOptionsSchema>;

export function statusOptions(argv: RawArgv): StatusOptions {
  const parsed = statusOptionsSchema.safeParse({ session: argv['session'] });
  if (!parsed.success)
    throw new AideError('usage', 'aide status SESSION needs a session id (or the first characters of one)', {
      hint: 'Run `aide status` to list the recent sessions.',
    });
  return parsed.data;
}

export const statusRun: CommandRunner = {
  run: async (argv, globals, io) => {
    const options = statusOptions(argv);
    const [{ readStatusRecords }, { resumeCommand }, history, render, { makeStyle }] = await Promise.all([
      import('../wiring/status.js'),
      import('../../core/flows/session-select.js'),
      import('../session-history.js'),
      import('../render/status.js'),
      import('../render/style.js'),
    ]);
    const records = await readStatusRecords(globals.cwd, io.env);
    const { sessions } = records;
    let shown = sessions[0];
    if (options.session !== undefined) {
      const found = history.findSession(sessions, options.session);
      if (Array.isArray(found)) {
        const hint =
          found.length === 0
            ? 'Run `aide status` to list the recent sessions.'
            : `It could be ${found.slice(0, 5).join(', ')}${found.length > 5 ? ', …' : ''}: give more of the id.`;
        throw new AideError(
          'usage',
          found.length === 0
            ? `no session "${options.session}" in this workspace`
            : `"${options.session}" names ${found.length} sessions`,
          { hint },
        );
      }
      shown = found as (typeof sessions)[number];
    }
    // `running` in state.json with no aide holding the lock: that aide was killed. While aide act
    // holds it, the newest running session is the live one; any other running one was killed.
    const live =
      (await records.lockCommand()) === 'act'
        ? sessions.find((s) => s.state?.status === 'running')
        : undefined;
    const killed = (s: (typeof sessions)[number] | undefined) =>
      s !== undefined && s.state?.status === 'running' && s !== live;
    const checkpoints = await records.checkpoints(CHECKPOINTS_READ);
    const undone = history.replayRestores(sessions, checkpoints);
    const undoOf = (s: (typeof sessions)[number]) => history.sessionUndo(s, sessions, undone);
    // What `aide act --resume` would pick: the newest unfinished session (of its own kind).
    const unfinished = sessions.find(
      (s) => s.state !== null && s.state.status !== 'finished' && !(s === live),
    );
    const resumable =
      unfinished?.state == null
        ? null
        : {
            session: unfinished.session,
            plan: unfinished.state.plan,
            command: resumeCommand(unfinished.state.dryRun),
            pendingWriteBack: unfinished.pendingWriteBack,
          };
    const recent = options.session === undefined ? sessions.slice(0, RECENT) : [];
    if (globals.json) {
      const session = shown === undefined ? null : (shown.state ?? shown.raw);
      const summary = (s: (typeof sessions)[number]) => ({
        session: s.session,
        status: s.state?.status ?? null,
        dryRun: s.state?.dryRun ?? null,
        plan: s.state?.plan ?? null,
        updatedAt: new Date(s.updated).toISOString(),
        killed: killed(s),
      });
      const json = {
        schema: 'aide.status/1',
        ok: true,
        session,
        killed: killed(shown),
        undo: shown === undefined ? null : undoOf(shown),
        resumable,
        recent: recent.map(summary),
      };
      io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
      return 0;
    }
    if (shown === undefined) {
      io.stdout.write('No aide act session in this workspace yet.\n');
      return 0;
    }
    const now = new Date();
    const lines = render.renderSession(shown, killed(shown), undoOf(shown), now);
    if (resumable !== null && (options.session === undefined || resumable.session === shown.session))
      lines.push(...render.renderResumable(resumable, resumable.session !== shown.session));
    if (recent.length > 1) {
      const rows = recent.map((found) => ({ found, killed: killed(found), undo: undoOf(found) }));
      lines.push(
        '',
        ...render.renderRecent(rows, sessions.length - recent.length, now, makeStyle(useColor(io))),
      );
    }
    io.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  },
};

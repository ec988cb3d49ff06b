/**
 * `aide checkpoints`: list, show, compare, take and prune the checkpoints in the workspace's
 * shadow repository. Reading needs no lock and creates nothing; taking, comparing with the
 * working tree and pruning take the workspace lock.
 */
import { z } from 'zod';
import { AideError, ExitCode } from '../../shared/errors.js';
import { useColor, type CliIo, type GlobalOptions } from '../io.js';
import type { FileChangeSummary } from '../../core/ports/checkpoints.js';
import type { Checkpoint, CheckpointReader } from '../wiring/checkpoints.js';
import type { CommandRunner, RawArgv } from './spec.js';

/** A count or a number of days: yargs hands `--limit x` over as NaN. */
const positive = (flag: string, example: string, whole: boolean) => {
  const error = `${flag} needs a ${whole ? 'whole ' : ''}number above 0, e.g. ${flag} ${example}`;
  const number = z.number({ error }).positive({ error });
  return whole ? number.int({ error }) : number;
};

const listSchema = z.object({
  session: z.string().optional(),
  limit: positive('--limit', '50', true).default(20),
  stats: z.boolean().default(false),
  all: z.boolean().default(false),
});
const showSchema = z.object({ id: z.string() });
const diffSchema = z.object({ id: z.string(), id2: z.string().optional() });
const saveSchema = z.object({ message: z.string().default('manual checkpoint') });
const pruneSchema = z
  .object({
    keep: positive('--keep', '20', true).optional(),
    olderThan: positive('--older-than', '30', false).optional(),
    dryRun: z.boolean().default(false),
  })
  .refine((o) => o.keep !== undefined || o.olderThan !== undefined, {
    error: 'say what to prune: --keep N (sessions to keep) and/or --older-than DAYS',
  });

export type ListOptions = z.infer<typeof listSchema>;
export type PruneOptions = z.infer<typeof pruneSchema>;

function parse<T extends z.ZodType>(schema: T, input: Record<string, unknown>): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success) {
    throw new AideError('usage', result.error.issues.map((i) => i.message).join('; '), {
      hint: 'See `aide checkpoints --help`.',
    });
  }
  return result.data;
}

export const listOptions = (argv: RawArgv): ListOptions =>
  parse(listSchema, {
    session: argv['session'],
    limit: argv['limit'],
    stats: argv['stats'],
    all: argv['all'],
  });
export const pruneOptions = (argv: RawArgv): PruneOptions =>
  parse(pruneSchema, { keep: argv['keep'], olderThan: argv['olderThan'], dryRun: argv['dryRun'] });

async function modules() {
  const [wiring, render, style] = await Promise.all([
    import('../wiring/checkpoints.js'),
    import('../render/checkpoints.js'),
    import('../render/style.js'),
  ]);
  return { ...wiring, render, ...style };
}

function print(io: CliIo, globals: GlobalOptions, schema: string, data: unknown, text: () => string): number {
  io.stdout.write(globals.json ? `${JSON.stringify({ schema, ...(data as object) }, null, 2)}\n` : text());
  return ExitCode.ok;
}

async function reader(globals: GlobalOptions, io: CliIo) {
  const m = await modules();
  const reader = await m.openReader(globals.cwd, io.env);
  return { m, reader, style: m.makeStyle(useColor(io)) };
}

const NO_SHADOW =
  'This workspace has no checkpoints yet: `aide apply` takes one before it writes, `aide checkpoints save` takes one now.';

/**
 * What a checkpoint changed: against its parent, or for a session's first, against the newest
 * older checkpoint of a real (not dry-run) session: the state the files had before it.
 */
async function changesOf(
  r: CheckpointReader,
  checkpoint: Checkpoint,
  dryRuns: ReadonlySet<string>,
): Promise<FileChangeSummary[]> {
  if (checkpoint.parent !== null) return r.changesOf(checkpoint);
  const { EMPTY_TREE } = await import('../wiring/checkpoints.js');
  const all = await r.list({ limit: 1000 });
  const older = all.slice(all.findIndex((c) => c.id === checkpoint.id) + 1);
  const previous = older.find((c) => !dryRuns.has(c.session));
  return r.changes(previous?.tree ?? EMPTY_TREE, checkpoint.id);
}

/** The listing's file counts for sessions' first checkpoints, with dry runs skipped as above. */
async function countFiles(
  r: CheckpointReader,
  list: readonly Checkpoint[],
  dryRuns: ReadonlySet<string>,
): Promise<Checkpoint[]> {
  if (dryRuns.size === 0) return [...list];
  return Promise.all(
    list.map(async (c) =>
      c.parent === null && !dryRuns.has(c.session)
        ? { ...c, filesChanged: (await changesOf(r, c, dryRuns)).length }
        : c,
    ),
  );
}

export const showRun: CommandRunner = {
  run: async (argv, globals, io) => {
    const { id } = parse(showSchema, { id: argv['id'] });
    const { m, reader: r, style } = await reader(globals, io);
    if (r === null) throw new AideError('checkpoint_unknown', `no checkpoint "${id}"`, { hint: NO_SHADOW });
    const checkpoint = await r.show(id);
    const dryRuns = await m.dryRunSessions(r.workspace.stateDir);
    const changes = await changesOf(r, checkpoint, dryRuns);
    const dryRun = dryRuns.has(checkpoint.session);
    const json = { checkpoint: { ...checkpoint, dryRun }, changes: m.render.changesJson(changes) };
    return print(io, globals, 'aide.checkpoint/1', json, () =>
      m.render.renderShow(checkpoint, changes, new Date(), style, dryRun),
    );
  },
};

export const diffRun: CommandRunner = {
  run: async (argv, globals, io) => {
    const options = parse(diffSchema, { id: argv['id'], id2: argv['id2'] });
    const { m, reader: r, style } = await reader(globals, io);
    if (r === null)
      throw new AideError('checkpoint_unknown', `no checkpoint "${options.id}"`, { hint: NO_SHADOW });
    const from = await r.resolve(options.id);
    const to =
      options.id2 === undefined
        ? await m.withStore(
            globals.cwd,
            io.env,
            'checkpoints diff',
            async (store) => (await store.snapshot()).tree,
          )
        : await r.resolve(options.id2);
    const [text, changes] = await Promise.all([r.diff(from, to), r.changes(from, to)]);
    return print(
      io,
      globals,
      'aide.checkpoints.diff/1',
      {
        from,
        to: options.id2 === undefined ? 'working tree' : to,
        changes: m.render.changesJson(changes),
        diff: text,
      },
      () => m.render.renderDiff(text, style),
    );
  },
};

export const saveRun: CommandRunner = {
  run: async (argv, globals, io) => {
    const { message } = parse(saveSchema, { message: argv['message'] });
    const m = await modules();
    const result = await m.withStore(globals.cwd, io.env, 'checkpoints save', (store) =>
      store.checkpoint({ reason: 'manual', message }),
    );
    return print(io, globals, 'aide.checkpoints.save/1', result, () => {
      const lines = [
        `Checkpoint ${result.checkpoint.short} saved (${message}). Return to it with \`aide restore ${result.checkpoint.short}\`.`,
      ];
      for (const s of result.skipped)
        lines.push(
          `  warning: ${s.path} (${s.bytes} bytes) is over checkpoints.max_file_bytes and was not saved`,
        );
      return `${lines.join('\n')}\n`;
    });
  },
};

export const pruneRun: CommandRunner = {
  run: async (argv, globals, io) => {
    const options = pruneOptions(argv);
    const m = await modules();
    const result = await m.withStore(globals.cwd, io.env, 'checkpoints prune', async (store) => {
      const pruned = await store.prune({
        dryRun: options.dryRun,
        now: new Date(),
        ...(options.keep === undefined ? {} : { keep: options.keep }),
        ...(options.olderThan === undefined ? {} : { olderThanDays: options.olderThan }),
      });
      // The kept scratch goes too: the next session checks one out afresh.
      if (!options.dryRun) await store.removeKeptScratch(m.tempRoot(io.env));
      return pruned;
    });
    return print(io, globals, 'aide.checkpoints.prune/1', { dryRun: options.dryRun, ...result }, () =>
      m.render.renderPrune(result, options.dryRun),
    );
  },
};

export const listRun: CommandRunner = {
  run: async (argv, globals, io) => {
    const options = listOptions(argv);
    const { m, reader: r, style } = await reader(globals, io);
    if (options.stats) {
      if (r === null)
        return print(io, globals, 'aide.checkpoints.stats/1', { stats: null }, () => `${NO_SHADOW}\n`);
      const stats = await r.stats();
      return print(io, globals, 'aide.checkpoints.stats/1', { stats }, () => m.render.renderStats(stats));
    }
    const dryRuns = r === null ? new Set<string>() : await m.dryRunSessions(r.workspace.stateDir);
    // Dry runs are hidden unless asked for (--all, or --session naming one): read enough to fill the page.
    const showDry = options.all || options.session !== undefined;
    const read =
      r === null
        ? []
        : await r.list({
            limit: showDry ? options.limit : options.limit + 1000,
            ...(options.session === undefined ? {} : { session: options.session }),
          });
    const hidden = showDry ? 0 : read.filter((c) => dryRuns.has(c.session)).length;
    const wanted = (showDry ? read : read.filter((c) => !dryRuns.has(c.session))).slice(0, options.limit);
    const list =
      r === null
        ? []
        : (await countFiles(r, wanted, dryRuns)).map((c) => ({ ...c, dryRun: dryRuns.has(c.session) }));
    // A restore killed half way: say so first, with how to finish or undo it.
    const { pendingRestoreLines } = await import('../render/restore.js');
    const pending = r === null ? null : await m.pendingRestore(r.workspace.stateDir);
    const note = pending === null ? '' : `${pendingRestoreLines(pending, style).join('\n')}\n`;
    if (options.session !== undefined && list.length === 0 && r !== null) {
      throw new AideError('checkpoint_unknown', `no session "${options.session}" has checkpoints here`, {
        hint: 'The SESSION column of `aide checkpoints` (or `aide status`) names the sessions; give one exactly.',
      });
    }
    return print(
      io,
      globals,
      'aide.checkpoints/1',
      { checkpoints: list, hiddenDryRun: hidden, pendingRestore: pending },
      () => note + m.render.renderList(list, new Date(), style, hidden),
    );
  },
};

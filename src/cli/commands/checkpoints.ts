/**
 * `aide checkpoints`: list, show, compare, take and prune the checkpoints in the workspace's
 * shadow repository. Reading needs no lock and creates nothing; taking, comparing with the
 * working tree and pruning take the workspace lock.
 */
import { z } from 'zod';
import { AideError, ExitCode } from '../../shared/errors.js';
import { useColor, type CliIo, type GlobalOptions } from '../io.js';
import type { Checkpoint } from '../../infra/shadow/checkpoints.js';
import type { FileChangeSummary, ShadowStore } from '../../infra/shadow/shadow-store.js';
import type { CommandSpec, RawArgv } from './spec.js';

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
  const [store, root, render, style, config] = await Promise.all([
    import('../../infra/shadow/shadow-store.js'),
    import('../../infra/git/workspace-root.js'),
    import('../render/checkpoints.js'),
    import('../render/style.js'),
    import('../../config/load-workspace.js'),
  ]);
  return { ...store, ...root, render, ...style, ...config };
}

function print(io: CliIo, globals: GlobalOptions, schema: string, data: unknown, text: () => string): number {
  io.stdout.write(globals.json ? `${JSON.stringify({ schema, ...(data as object) }, null, 2)}\n` : text());
  return ExitCode.ok;
}

/** Opens the shadow for writing (lock held) and always closes it. */
async function withStore<T>(
  globals: GlobalOptions,
  io: CliIo,
  command: string,
  use: (store: ShadowStore) => Promise<T>,
): Promise<T> {
  const m = await modules();
  const root = await m.findWorkspaceRoot(globals.cwd, io.env);
  const maxFileBytes = (await m.loadWorkspaceConfig(root, io.env)).config.value.checkpoints.max_file_bytes;
  const store = await m.ShadowStore.open(root, io.env, { maxFileBytes, command });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

async function reader(globals: GlobalOptions, io: CliIo) {
  const m = await modules();
  const reader = await m.ShadowReader.openExisting(await m.findWorkspaceRoot(globals.cwd, io.env), io.env);
  return { m, reader, style: m.makeStyle(useColor(io)) };
}

const NO_SHADOW =
  'This workspace has no checkpoints yet: `aide apply` takes one before it writes, `aide checkpoints save` takes one now.';

/**
 * The sessions that were dry runs (`aide act --dry-run`): their checkpoints record what aide
 * verified in a scratch copy and never wrote, a state the files never had. Known from each
 * session's state.json, never from anything in the shadow a verify command could have written.
 */
async function dryRunSessions(stateDir: string): Promise<ReadonlySet<string>> {
  const { listSessionStates } = await import('../../infra/session/session-state.js');
  const sessions = await listSessionStates(stateDir);
  return new Set(sessions.filter((s) => s.state?.dryRun === true).map((s) => s.session));
}

type Reader = NonNullable<Awaited<ReturnType<typeof reader>>['reader']>;

/**
 * What a checkpoint changed: against its parent, or for a session's first, against the newest
 * older checkpoint of a real (not dry-run) session: the state the files had before it.
 */
async function changesOf(
  r: Reader,
  checkpoint: Checkpoint,
  dryRuns: ReadonlySet<string>,
): Promise<FileChangeSummary[]> {
  if (checkpoint.parent !== null) return r.changesOf(checkpoint);
  const { EMPTY_TREE } = await import('../../infra/shadow/shadow-store.js');
  const all = await r.list({ limit: 1000 });
  const older = all.slice(all.findIndex((c) => c.id === checkpoint.id) + 1);
  const previous = older.find((c) => !dryRuns.has(c.session));
  return r.changes(previous?.tree ?? EMPTY_TREE, checkpoint.id);
}

/** The listing's file counts for sessions' first checkpoints, with dry runs skipped as above. */
async function countFiles(
  r: Reader,
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

const show: CommandSpec = {
  command: 'show <id>',
  describe: 'Show a checkpoint: when, why, and the files it changed',
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'Checkpoint id (the first characters are enough)' })
      .example('$0 checkpoints show 3f2a9c1b', 'what that checkpoint recorded'),
  run: async (argv, globals, io) => {
    const { id } = parse(showSchema, { id: argv['id'] });
    const { m, reader: r, style } = await reader(globals, io);
    if (r === null) throw new AideError('checkpoint_unknown', `no checkpoint "${id}"`, { hint: NO_SHADOW });
    const checkpoint = await r.show(id);
    const dryRuns = await dryRunSessions(r.workspace.stateDir);
    const changes = await changesOf(r, checkpoint, dryRuns);
    const dryRun = dryRuns.has(checkpoint.session);
    const json = { checkpoint: { ...checkpoint, dryRun }, changes: m.render.changesJson(changes) };
    return print(io, globals, 'aide.checkpoint/1', json, () =>
      m.render.renderShow(checkpoint, changes, new Date(), style, dryRun),
    );
  },
};

const diff: CommandSpec = {
  command: 'diff <id> [id2]',
  describe: 'Diff a checkpoint against another, or against the working tree now',
  builder: (y) =>
    y
      .positional('id', { type: 'string', describe: 'The older checkpoint' })
      .positional('id2', {
        type: 'string',
        describe: 'The newer checkpoint; omitted: the files as they are now',
      })
      .example('$0 checkpoints diff 3f2a9c1b', 'what changed since that checkpoint')
      .example('$0 checkpoints diff 3f2a9c1b 8e0d77aa', 'what changed between two checkpoints'),
  run: async (argv, globals, io) => {
    const options = parse(diffSchema, { id: argv['id'], id2: argv['id2'] });
    const { m, reader: r, style } = await reader(globals, io);
    if (r === null)
      throw new AideError('checkpoint_unknown', `no checkpoint "${options.id}"`, { hint: NO_SHADOW });
    const from = await r.resolve(options.id);
    const to =
      options.id2 === undefined
        ? await withStore(globals, io, 'checkpoints diff', async (store) => (await store.snapshot()).tree)
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

const save: CommandSpec = {
  command: 'save',
  describe: 'Take a checkpoint of the files as they are now',
  builder: (y) =>
    y
      .option('message', {
        alias: 'm',
        type: 'string',
        describe: 'What this checkpoint is for',
        requiresArg: true,
      })
      .example('$0 checkpoints save -m "before my refactor"', 'take one before a risky hand edit'),
  run: async (argv, globals, io) => {
    const { message } = parse(saveSchema, { message: argv['message'] });
    const result = await withStore(globals, io, 'checkpoints save', (store) =>
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

const prune: CommandSpec = {
  command: 'prune',
  describe: 'Remove old sessions of checkpoints and reclaim their space',
  builder: (y) =>
    y
      .option('keep', { type: 'number', describe: 'Keep only the newest N sessions', requiresArg: true })
      .option('older-than', {
        type: 'number',
        describe: 'Remove sessions whose last checkpoint is older than DAYS',
        requiresArg: true,
      })
      .option('dry-run', {
        type: 'boolean',
        default: false,
        describe: 'List what would be removed; remove nothing',
      })
      .example('$0 checkpoints prune --keep 20', 'keep the 20 newest sessions')
      .example('$0 checkpoints prune --older-than 30 --dry-run', 'see what a month-old cut-off would remove')
      .epilog(
        'The newest session is always kept. A session is one `aide apply`, one `checkpoints save`, or one `aide act` run.',
      ),
  run: async (argv, globals, io) => {
    const options = pruneOptions(argv);
    const m = await modules();
    const result = await withStore(globals, io, 'checkpoints prune', (store) =>
      store.prune({
        dryRun: options.dryRun,
        now: new Date(),
        ...(options.keep === undefined ? {} : { keep: options.keep }),
        ...(options.olderThan === undefined ? {} : { olderThanDays: options.olderThan }),
      }),
    );
    return print(io, globals, 'aide.checkpoints.prune/1', { dryRun: options.dryRun, ...result }, () =>
      m.render.renderPrune(result, options.dryRun),
    );
  },
};

export const checkpointsCommand: CommandSpec = {
  command: 'checkpoints',
  describe: 'List checkpoints (newest first); show, diff, save and prune them',
  builder: (y) =>
    y
      // Not global: these belong to the listing, not to `show`, `diff`, `save` or `prune`.
      .option('session', { type: 'string', describe: 'Only this session', requiresArg: true, global: false })
      .option('limit', {
        type: 'number',
        default: 20,
        describe: 'Show at most N checkpoints',
        requiresArg: true,
        global: false,
      })
      .option('stats', {
        type: 'boolean',
        default: false,
        describe: 'Report the size of the shadow repository instead',
        global: false,
      })
      .option('all', {
        type: 'boolean',
        default: false,
        describe: 'List the checkpoints of dry runs too (marked "dry run")',
        global: false,
      })
      .example('$0 checkpoints', 'the 20 newest checkpoints')
      .example('$0 checkpoints --all', 'the same, with the checkpoints of `aide act --dry-run` sessions')
      .example('$0 checkpoints --stats', 'how much space checkpoints take')
      .epilog(
        'Checkpoints live in .aide/state/shadow.git, never in your own .git. Every `aide apply` takes one before it writes.\n' +
          'Undo to a checkpoint with `aide restore ID`.\n\n' +
          'An `aide act --dry-run` session records what it verified in a scratch copy as checkpoints too. Your files never had ' +
          'those states, so they are hidden unless --all (or --session naming that session) asks for them, marked "dry run" ' +
          'where shown, and the files changed before a real checkpoint are counted without them.',
      ),
  subcommands: [show, diff, save, prune],
  run: async (argv, globals, io) => {
    const options = listOptions(argv);
    const { m, reader: r, style } = await reader(globals, io);
    if (options.stats) {
      if (r === null)
        return print(io, globals, 'aide.checkpoints.stats/1', { stats: null }, () => `${NO_SHADOW}\n`);
      const stats = await r.stats();
      return print(io, globals, 'aide.checkpoints.stats/1', { stats }, () => m.render.renderStats(stats));
    }
    const dryRuns = r === null ? new Set<string>() : await dryRunSessions(r.workspace.stateDir);
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
    const [{ readPendingRestore }, { pendingRestoreLines }] = await Promise.all([
      import('../../infra/shadow/restore-journal.js'),
      import('../render/restore.js'),
    ]);
    const pending = r === null ? null : await readPendingRestore(r.workspace.stateDir);
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

/**
 * In-memory stand-ins for the ports the act flows run on, for unit tests of the flows' decisions
 * (the real adapters are tested against real git and processes in infra/ and test/e2e/). One
 * FakeShadow holds the trees and checkpoints that the scratch, the recorder and the session
 * store share; files are text, keyed by '/'-separated paths.
 */
import type { AideEvent } from '../events.js';
import type {
  Approval,
  Approver,
  CheckpointRecord,
  CommandResult,
  CommandRun,
  CommandRunner,
  FileStat,
  FileSystem,
  FileWrite,
  IgnoredPath,
  IsolationReport,
  KeptStep,
  OpenSession,
  PendingWriteBack,
  Scratch,
  ScratchCapture,
  ScratchChange,
  ScratchMove,
  SessionLog,
  SessionPlan,
  SessionRecord,
  SessionRecorder,
  SessionStatus,
  SessionStore,
  StepDecision,
  StepOutcome,
  StepReview,
  StoredSession,
  WriteBackResult,
  WriteBackStep,
} from '../ports.js';

/** Files by path: a tree's content. */
export type Files = ReadonlyMap<string, string>;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Trees and checkpoints by id, and blobs by content: the shadow repository, in memory. */
export class FakeShadow {
  private readonly trees = new Map<string, Files>();
  private readonly checkpoints = new Map<string, string>();
  private readonly blobs = new Map<string, string>();
  private count = 0;

  /** Records a tree; the same files give the same id. */
  tree(files: Files): string {
    const key = JSON.stringify([...files].sort(([a], [b]) => a.localeCompare(b)));
    for (const [id, known] of this.trees)
      if (JSON.stringify([...known].sort(([a], [b]) => a.localeCompare(b))) === key) return id;
    const id = `tree${++this.count}`;
    this.trees.set(id, new Map(files));
    return id;
  }

  /** A checkpoint of a tree: a new id each time. */
  checkpoint(tree: string): string {
    const id = `ckpt${++this.count}`;
    this.checkpoints.set(id, tree);
    return id;
  }

  /** The files of a tree or checkpoint. */
  files(id: string): Files {
    const files = this.trees.get(this.checkpoints.get(id) ?? id);
    if (files === undefined) throw new Error(`no tree or checkpoint ${id}`);
    return files;
  }

  blob(content: string): string {
    const id = `blob:${content}`;
    this.blobs.set(id, content);
    return id;
  }

  readBlob(id: string): string {
    const content = this.blobs.get(id);
    if (content === undefined) throw new Error(`no blob ${id}`);
    return content;
  }

  /** The changes from one set of files to another, as a scratch capture lists them. */
  changes(from: Files, to: Files): ScratchChange[] {
    const paths = [...new Set([...from.keys(), ...to.keys()])].sort();
    return paths.flatMap((path): ScratchChange[] => {
      const before = from.get(path);
      const after = to.get(path);
      if (before === after) return [];
      return [
        {
          path,
          status: before === undefined ? 'added' : after === undefined ? 'deleted' : 'modified',
          oldMode: before === undefined ? null : '100644',
          newMode: after === undefined ? null : '100644',
          oldBlob: before === undefined ? null : this.blob(before),
          newBlob: after === undefined ? null : this.blob(after),
        },
      ];
    });
  }

  /** A `git diff`-shaped text between two trees or checkpoints: whole files removed and added. */
  diff(from: string, to: string): string {
    const a = this.files(from);
    const b = this.files(to);
    return this.changes(a, b)
      .map(({ path, status }) => {
        const before = a.get(path);
        const after = b.get(path);
        const mode =
          status === 'added'
            ? 'new file mode 100644\n'
            : status === 'deleted'
              ? 'deleted file mode 100644\n'
              : '';
        const lines = (text: string | undefined, sign: string) =>
          text === undefined
            ? ''
            : text
                .replace(/\n$/, '')
                .split('\n')
                .map((l) => `${sign}${l}\n`)
                .join('');
        return (
          `diff --git a/${path} b/${path}\n${mode}` +
          `--- ${before === undefined ? '/dev/null' : `a/${path}`}\n` +
          `+++ ${after === undefined ? '/dev/null' : `b/${path}`}\n@@ @@\n` +
          lines(before, '-') +
          lines(after, '+')
        );
      })
      .join('');
  }
}

/** A file system of text files under absolute paths; folders are implied by the files in them. */
export class MemoryFileSystem implements FileSystem {
  readonly files = new Map<string, string>();

  readFile(path: string): Promise<Uint8Array | null> {
    const text = this.files.get(path);
    return Promise.resolve(text === undefined ? null : encoder.encode(text));
  }

  lstat(path: string): Promise<FileStat | null> {
    if (this.files.has(path)) return Promise.resolve({ kind: 'file', mode: 0o644, size: 0 });
    const folder = [...this.files.keys()].some((p) => p.startsWith(`${path}/`));
    return Promise.resolve(folder ? { kind: 'directory', mode: 0o755, size: 0 } : null);
  }

  async realpath(path: string): Promise<string | null> {
    return (await this.lstat(path)) === null ? null : path;
  }

  commit(changes: readonly FileWrite[]): Promise<void> {
    for (const change of changes) {
      if (change.kind === 'write') this.files.set(change.path, decoder.decode(change.content));
      else if (change.kind === 'delete') this.files.delete(change.path);
      else throw new Error('the memory file system holds no symlinks');
    }
    return Promise.resolve();
  }

  /** The files under `root`, by relative path. */
  under(root: string): Map<string, string> {
    return new Map(
      [...this.files]
        .filter(([p]) => p.startsWith(`${root}/`))
        .map(([p, t]) => [p.slice(root.length + 1), t]),
    );
  }
}

/** A scratch copy in a MemoryFileSystem under /scratch; `ignored` paths are left out of a capture. */
export class FakeScratch implements Scratch {
  readonly path = '/scratch';
  readonly links = [];
  readonly fs = new MemoryFileSystem();
  /** Scratch-relative path → the ignore rule that leaves it out of a capture. */
  readonly ignored = new Map<string, string>();
  moves: string[] = [];
  disposed = false;

  constructor(
    private readonly shadow: FakeShadow,
    readonly session: string,
    public base: string,
  ) {
    this.load(base);
  }

  moveTo(target: string): Promise<ScratchMove> {
    const from = this.base;
    this.moves.push(target);
    this.load(target);
    return Promise.resolve({ from, to: target, written: 0, removed: 0, swept: false });
  }

  capture(): Promise<ScratchCapture> {
    const files = new Map([...this.fs.under(this.path)].filter(([p]) => !this.ignored.has(p)));
    const tree = this.shadow.tree(files);
    return Promise.resolve({
      base: this.base,
      tree,
      changes: this.shadow.changes(this.shadow.files(this.base), files),
    });
  }

  async changedFiles(): Promise<ScratchChange[]> {
    return (await this.capture()).changes;
  }

  ignoredPaths(paths: readonly string[]): Promise<IgnoredPath[]> {
    return Promise.resolve(
      paths.flatMap((path) => {
        const rule = this.ignored.get(path);
        return rule === undefined ? [] : [{ path, rule }];
      }),
    );
  }

  async diff(capture?: ScratchCapture): Promise<string> {
    const taken = capture ?? (await this.capture());
    return this.shadow.diff(taken.base, taken.tree);
  }

  dispose(): Promise<void> {
    this.disposed = true;
    return Promise.resolve();
  }

  private load(id: string): void {
    this.base = id;
    for (const path of [...this.fs.files.keys()])
      if (path.startsWith(`${this.path}/`)) this.fs.files.delete(path);
    for (const [path, text] of this.shadow.files(id)) this.fs.files.set(`${this.path}/${path}`, text);
  }
}

const ISOLATED: IsolationReport = {
  mechanism: 'unshare',
  network: 'off',
  workspaceReadOnly: true,
  writable: 'scratch',
  sockets: 'hidden',
  processTree: 'namespace',
  detail: null,
};

/** What a scripted command does: its result fields, and files it writes into its cwd. */
export type CommandScript = (run: CommandRun) => Partial<CommandResult> | undefined;

/** A command runner that runs nothing: each command's result comes from the script (default: exit 0). */
export class FakeRunner implements CommandRunner {
  readonly isolation = ISOLATED;
  readonly calls: CommandRun[] = [];
  constructor(private readonly script: CommandScript = () => undefined) {}

  run(command: CommandRun): Promise<CommandResult> {
    this.calls.push(command);
    return Promise.resolve({
      exitCode: 0,
      signal: null,
      timedOut: false,
      cancelled: false,
      truncated: false,
      durationMs: 1,
      outputBytes: 0,
      tail: '',
      startError: null,
      ...this.script(command),
    });
  }
}

/** Answers from a script: the step decisions in order (then approve), and one answer to confirm. */
export class FakeApprover implements Approver {
  readonly reviews: StepReview[] = [];
  readonly questions: string[] = [];
  constructor(
    private readonly decisions: StepDecision[] = [],
    private readonly answer: Approval = 'yes',
  ) {}

  confirm(question: string): Promise<Approval> {
    this.questions.push(question);
    return Promise.resolve(this.answer);
  }

  reviewStep(review: StepReview): Promise<StepDecision> {
    this.reviews.push(review);
    return Promise.resolve(this.decisions.shift() ?? { kind: 'approve' });
  }
}

/**
 * The session's shadow side: checkpoints in the FakeShadow, write-backs into `workspace`
 * (relative paths), a conflict for every file that is no longer what the step started from.
 */
export class FakeRecorder implements SessionRecorder {
  readonly written: WriteBackStep[] = [];
  readonly saved = new Map<string, string>();

  constructor(
    private readonly shadow: FakeShadow,
    readonly workspace: Map<string, string>,
    public pending: PendingWriteBack | null = null,
  ) {}

  checkpointTree(
    tree: string,
    meta: { step: string; verdict: string; message: string },
  ): Promise<CheckpointRecord> {
    const id = this.shadow.checkpoint(tree);
    return Promise.resolve({
      id,
      short: id,
      time: '2026-12-01T00:00:00.000Z',
      session: 'fake',
      reason: 'act',
      message: meta.message,
      step: meta.step,
      verdict: meta.verdict,
      skipped: [],
      filesChanged: 0,
    });
  }

  writeBack(changes: readonly ScratchChange[], step: WriteBackStep): Promise<WriteBackResult> {
    const conflicts = changes.flatMap((c) => {
      const now = this.workspace.get(c.path);
      const was = c.oldBlob === null ? undefined : this.shadow.readBlob(c.oldBlob);
      return now === was ? [] : [{ path: c.path, reason: 'changed' as const }];
    });
    if (conflicts.length > 0) return Promise.resolve({ written: 0, conflicts });
    for (const c of changes) {
      if (c.newBlob === null) this.workspace.delete(c.path);
      else this.workspace.set(c.path, this.shadow.readBlob(c.newBlob));
    }
    this.written.push(step);
    return Promise.resolve({ written: changes.length, conflicts: [] });
  }

  pendingWriteBack(): Promise<PendingWriteBack | null> {
    return Promise.resolve(this.pending);
  }

  async finishWriteBack(pending: PendingWriteBack): Promise<WriteBackResult> {
    const result = await this.writeBack(pending.changes, pending);
    this.pending = null;
    return result;
  }

  diff(from: string, to: string): Promise<string> {
    return Promise.resolve(this.shadow.diff(from, to));
  }

  saveFile(name: string, content: string): Promise<string> {
    this.saved.set(name, content);
    return Promise.resolve(`/session/${name}`);
  }

  readBlob(id: string): Promise<Uint8Array> {
    return Promise.resolve(encoder.encode(this.shadow.readBlob(id)));
  }
}

/** A session's records in memory: the events it was given, state.json as the real log keeps it. */
export class MemorySessionLog implements SessionLog {
  readonly events: AideEvent[] = [];
  ended: SessionStatus | null = null;

  constructor(public snapshot: SessionRecord) {}

  logDir(step: number): string {
    return `/session/logs/step-${step}`;
  }

  event(event: AideEvent): Promise<void> {
    this.events.push(event);
    if (event.type === 'step_started') this.set(event.step, { status: 'running' });
    if (event.type === 'step_finished') {
      const { number, status, checkpoint, output } = event.report;
      this.set(number, { status, checkpoint, output });
    }
    return Promise.resolve();
  }

  adoptPlan(plan: SessionPlan, done: readonly KeptStep[]): Promise<void> {
    const kept = new Map(done.map((d) => [d.number, d]));
    this.snapshot = {
      ...this.snapshot,
      planHash: plan.planHash,
      steps: plan.steps.map((s) => ({
        number: s.number,
        title: s.title,
        hash: s.hash,
        status: kept.get(s.number)?.status ?? 'pending',
        checkpoint: kept.get(s.number)?.checkpoint ?? null,
        output: kept.get(s.number)?.output ?? null,
      })),
    };
    return Promise.resolve();
  }

  end(status: SessionStatus, steps: readonly StepOutcome[] | null): Promise<void> {
    for (const s of steps ?? [])
      this.set(s.number, { status: s.status, checkpoint: s.checkpoint, output: s.output });
    this.snapshot = { ...this.snapshot, status };
    this.ended = status;
    return Promise.resolve();
  }

  private set(number: number, change: Partial<SessionRecord['steps'][number]>): void {
    this.snapshot = {
      ...this.snapshot,
      steps: this.snapshot.steps.map((s) => (s.number === number ? { ...s, ...change } : s)),
    };
  }
}

/** Sessions in memory over one workspace (`workspace`: relative path → text). */
export class FakeSessionStore implements SessionStore {
  readonly stored: StoredSession[] = [];
  readonly logs: MemorySessionLog[] = [];
  readonly recorders: FakeRecorder[] = [];
  /** The pending write-back the next reopened session's recorder finds. */
  pending: PendingWriteBack | null = null;

  constructor(
    readonly shadow: FakeShadow,
    readonly workspace: Map<string, string>,
  ) {}

  list(): Promise<StoredSession[]> {
    return Promise.resolve([...this.stored]);
  }

  start(request: { plan: SessionPlan; dryRun: boolean }): Promise<OpenSession> {
    const session = `act-test-${this.logs.length + 1}`;
    const base = this.shadow.checkpoint(this.shadow.tree(this.workspace));
    const log = new MemorySessionLog({
      schema: 'aide.session/1',
      session,
      plan: request.plan.plan,
      planHash: request.plan.planHash,
      title: request.plan.title,
      dryRun: request.dryRun,
      base,
      head: base,
      status: 'running',
      only: request.plan.only,
      startedAt: '2026-12-01T00:00:00.000Z',
      updatedAt: '2026-12-01T00:00:00.000Z',
      steps: request.plan.steps.map((s) => ({ ...s, status: 'pending', checkpoint: null, output: null })),
    });
    return Promise.resolve(this.opened(session, base, log, null));
  }

  reopen({ state }: StoredSession & { state: SessionRecord }): Promise<OpenSession> {
    const log = new MemorySessionLog({ ...state, status: 'running' });
    return Promise.resolve(this.opened(state.session, state.base, log, this.pending));
  }

  private opened(
    session: string,
    base: string,
    log: MemorySessionLog,
    pending: PendingWriteBack | null,
  ): OpenSession {
    const recorder = new FakeRecorder(this.shadow, this.workspace, pending);
    this.logs.push(log);
    this.recorders.push(recorder);
    return { session, base, log, recorder };
  }
}

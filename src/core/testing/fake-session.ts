/**
 * A session's records and shadow side in memory, for unit tests of the act flows (the real
 * store is infra/session, over real git and files).
 */
import type { AideEvent } from '../events.js';
import type { CheckpointRecord } from '../ports/checkpoints.js';
import type {
  CheckpointTreeMeta,
  PendingWriteBack,
  SessionRecorder,
  WriteBackResult,
  WriteBackStep,
} from '../ports/session.js';
import type {
  KeptStep,
  OpenSession,
  SessionLog,
  SessionPlan,
  SessionRecord,
  SessionStatus,
  SessionStore,
  StepOutcome,
  StoredSession,
} from '../ports/session-store.js';
import type { ChangedFile, TreeChange } from '../ports/changes.js';

import type { FakeShadow } from './fake-files.js';

const encoder = new TextEncoder();

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

  checkpointTree(tree: string, meta: CheckpointTreeMeta): Promise<CheckpointRecord> {
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

  writeBack(changes: readonly TreeChange[], step: WriteBackStep): Promise<WriteBackResult> {
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

  changedFiles(from: string, to: string): Promise<ChangedFile[]> {
    return Promise.resolve(this.shadow.changedFiles(from, to));
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

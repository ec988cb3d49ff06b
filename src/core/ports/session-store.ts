/**
 * Where act sessions are recorded (`.aide/state/sessions/<id>/`): state.json, the audit log and
 * the step logs. The core decides what a session does (start, resume, end); the store keeps it.
 */
import type { AideEvent } from '../events.js';
import type { SessionRecorder } from './session.js';

/** A step's status as state.json records it: how it ended, or pending (not started) or running. */
export type RecordedStepStatus =
  | 'pending'
  | 'running'
  | 'applied'
  | 'verified'
  | 'skipped'
  | 'failed'
  | 'conflict'
  | 'refused'
  | 'aborted'
  | 'not_run'
  | 'cancelled';

/**
 * How a session stands: running (in progress, or killed), finished (every step done), stopped
 * (a step failed or conflicted, or an error stopped it), interrupted (a signal, or a question
 * answered no), crashed (an internal error stopped it).
 */
export type SessionStatus = 'running' | 'finished' | 'stopped' | 'interrupted' | 'crashed';

/** One step as state.json records it. */
export interface SessionStepRecord {
  number: number;
  title: string;
  status: RecordedStepStatus;
  /** The checkpoint recording the step; null when none was taken. */
  checkpoint: string | null;
  /** A hash of the step's content: how a resume tells which steps changed. */
  hash: string;
  /** The output of the step's Run commands; null when it has none. */
  output: string | null;
  /** A model step's attempts as each ended (a resumed step's follow its earlier ones); absent: none. */
  attempts?: AttemptRecord[];
}

/** One attempt at a model step as it ended. */
export interface AttemptRecord {
  attempt: number;
  passed: boolean;
  /** Why it failed; null when it passed. */
  reason: string | null;
  /** What the model was told of the failure (a resumed step's fresh conversation starts from it); absent: not recorded. */
  feedback?: string | null;
}

/** A session's state.json (schema aide.session/1), field by field as infra/session validates it. */
export interface SessionRecord {
  schema: 'aide.session/1';
  session: string;
  /** The plan file, relative to the workspace root. */
  plan: string;
  /** sha256 of the plan file's text when the session last started or resumed. */
  planHash: string;
  title: string;
  dryRun: boolean;
  /** The checkpoint the session started from: the undo target. */
  base: string;
  /** The checkpoint of the last finished step (the base before any). */
  head: string;
  status: SessionStatus;
  /** The one step a `--step N` session carries out; null: the whole plan. */
  only: number | null;
  /** ISO 8601. */
  startedAt: string;
  updatedAt: string;
  steps: SessionStepRecord[];
}

/** A session folder as the store found it. */
export interface StoredSession {
  session: string;
  /** null when its state.json is not one this aide reads (an older aide, or damaged). */
  state: SessionRecord | null;
  /** A write-back of this session killed half way (its journal is there), or null. */
  pendingWriteBack: { step: number; files: number } | null;
}

/** The plan a session runs, as state.json records it. */
export interface SessionPlan {
  /** Relative to the workspace root. */
  plan: string;
  planHash: string;
  title: string;
  steps: ReadonlyArray<{ number: number; title: string; hash: string }>;
  /** `--step N`: the one step the session carries out; null: the whole plan. */
  only: number | null;
}

/** A step as the session's end records it. */
export interface StepOutcome {
  number: number;
  status: Exclude<RecordedStepStatus, 'pending' | 'running'>;
  checkpoint: string | null;
  output: string | null;
}

/** A finished step a resumed session keeps (applied, verified or skipped). */
export interface KeptStep extends StepOutcome {
  status: 'applied' | 'verified' | 'skipped';
}

/** The records of one open session, kept in step with its events. */
export interface SessionLog {
  /** state.json as last written. */
  readonly snapshot: Readonly<SessionRecord>;
  /** How the session ended, once `end` recorded it; null while it runs. */
  readonly ended: SessionStatus | null;
  /** The folder for a step's logs. */
  logDir(step: number): string;
  /**
   * Appends the event to the audit log; a step starting or finishing is recorded in state.json
   * (and a finished step's write-back journal goes).
   */
  event(event: AideEvent): Promise<void>;
  /**
   * The plan as it is now: finished steps keep what they recorded (with the step's new hash),
   * every other step is pending again, with the failed attempts it carries on from (`earlier`),
   * and removed steps go.
   */
  adoptPlan(
    plan: SessionPlan,
    done: readonly KeptStep[],
    earlier: ReadonlyArray<{ step: number; attempts: ReadonlyArray<Omit<AttemptRecord, 'passed'>> }>,
  ): Promise<void>;
  /** The session's end: each step as it ended (null: as recorded so far), and how the session ended. */
  end(status: SessionStatus, steps: readonly StepOutcome[] | null): Promise<void>;
}

/** An open session: its records and its shadow side. */
export interface OpenSession {
  session: string;
  /** The checkpoint it started from. */
  base: string;
  log: SessionLog;
  recorder: SessionRecorder;
}

/** The act sessions of one workspace. */
export interface SessionStore {
  /** Every session with a state.json, newest first. */
  list(): Promise<StoredSession[]>;
  /**
   * A new session: the workspace as it is checkpointed (its base, with `message`) on a new
   * branch, and state.json written with every step pending.
   */
  start(request: { plan: SessionPlan; dryRun: boolean; message: string }): Promise<OpenSession>;
  /**
   * A recorded session (as `list` found it) opened again: state.json says running again; its
   * audit log is appended to.
   */
  reopen(found: StoredSession & { state: SessionRecord }): Promise<OpenSession>;
}

/** Plan documents: `.aide/plans/` and any plan file named. */
export interface PlanFiles {
  /** The newest `.md` file of the plans folder (absolute path), or null when there is none. */
  newest(): Promise<string | null>;
  /** A plan's text; throws what the file system threw. */
  read(file: string): Promise<string>;
}

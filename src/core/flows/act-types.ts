/**
 * The nouns of aide act, in a leaf every part of it imports: a step and its report, the
 * session's report, the flow's input and ports, the seam a step's edits come through (a
 * StepAuthor), and the context a step runs in.
 */
import type { StepReport, StepStatus } from '../act-report.js';
import type { AideEvent } from '../events.js';
import type { Approver } from '../ports/approval.js';
import type { CommandRunner } from '../ports/commands.js';
import type { FileSystem } from '../ports/files.js';
import type { Scratch } from '../ports/scratch.js';
import type { SessionRecorder } from '../ports/session.js';
import type { VerifyReport } from '../verify/report.js';
import type { VerifyCommand, VerifyPolicy } from './verify.js';

/** The part of a plan step act carries out. */
export interface ActStep {
  number: number;
  title: string;
  run: ReadonlyArray<string | readonly string[]>;
  /** The edit blocks, verbatim (the formats `aide apply` accepts); '' when none. */
  edits: string;
  /** The step's Verify: names: optional commands it asks for, in addition to the others. */
  verify?: readonly string[];
  /** What the step is for, in the plan's words (an agent author's task); absent: the title says it. */
  intent?: string;
  /** The step's Files: the files it is expected to touch. */
  files?: readonly string[];
}

// The reports live in the leaf act-report.ts (state.json and the renderers import them too).
export type { ActReport, StepReport, StepStatus } from '../act-report.js';

export interface ActInput {
  session: string;
  steps: readonly ActStep[];
  /** The session's first checkpoint: the workspace as it was. */
  base: string;
  dryRun: boolean;
  /** Every verify command, optional ones included: a step runs those not optional and those its Verify: names. */
  commands: readonly VerifyCommand[];
  /** `--step N`: the one step runs without the steps before it, so it has no earlier output for its templates. */
  alone?: boolean;
  policy: VerifyPolicy;
  /** sandbox.json allowed_commands: the only command lines a Run: may execute, exactly as written. */
  allowedCommands: readonly string[];
  /** config.json protected_paths: globs, or `glob#/pointer` for one value of a JSON file. */
  protectedPaths: readonly string[];
  /** Match protected paths without regard to case: the workspace's file system ignores it. */
  protectedCaseInsensitive?: boolean;
  userEnv: Readonly<Record<string, string | undefined>>;
  /** Folder for a step's logs: `<session>/logs/step-<n>`. */
  logDir: (step: number) => string;
  signal?: AbortSignal;
  /**
   * sandbox.json max_attempts: attempts at most for a step whose author can try again (an
   * agent); 1 when absent. A step of written edits has one attempt whatever this says.
   */
  maxAttempts?: number;
  /** Carrying on an interrupted session (`--resume`); absent for a new one. */
  resume?: ActResume;
}

/** A step a resumed session finished before: reported as it ended, not run again. */
export interface DoneStep {
  number: number;
  status: 'applied' | 'verified' | 'skipped';
  checkpoint: string | null;
  output: string | null;
}

export interface ActResume {
  /** The checkpoint of the last finished step: where the next step starts. */
  head: string;
  done: readonly DoneStep[];
  /**
   * The attempts each unfinished model step ended before the session stopped (a step whose
   * content changed since starts afresh, so it has none here): the step carries on with the next
   * number, and its author is told how they failed.
   */
  earlier?: ReadonlyArray<{ step: number; attempts: readonly EarlierAttempt[] }>;
}

/** An attempt at a step that ended (failed) before the session was resumed, as state.json recorded it. */
export interface EarlierAttempt {
  attempt: number;
  /** Why it failed, as its report said it. */
  reason: string | null;
  /** What the model was told of the failure (failing tests, output tail); null when not recorded. */
  feedback: string | null;
}

export interface ActDeps {
  /** Where each step's edits come from: the plan's written edits (`writtenEdits`), or an agent. */
  author: StepAuthor;
  scratch: Scratch;
  runner: CommandRunner;
  /** Writes files inside the scratch (the edits). */
  fs: FileSystem;
  approver: Approver;
  recorder: SessionRecorder;
  now: () => number;
}

/**
 * Why an attempt at a step failed, for an author asked again: edits that did not apply, a Run
 * command that failed, files the capture lost, or a verification that did not pass.
 */
export interface AttemptFailure {
  /** `author`: the author gave no edits (the model stopped, or could not be reached). */
  stage: 'author' | 'edits' | 'run' | 'capture' | 'verify';
  /** Why, as the step's report says it. */
  reason: string;
  /** The verification that did not pass (stage verify); null otherwise. */
  verify: VerifyReport | null;
}

/** What an author is asked for: one attempt's edits for a step. */
export interface AuthorRequest {
  step: ActStep;
  /** The output of each earlier step's Run commands, by number (for `{{ steps.N.output }}`). */
  outputs: ReadonlyMap<number, string>;
  /** The scratch copy at the session's head: the files the edits will apply to. */
  cwd: string;
  /** Why the previous attempt failed, when the author is asked again; null for the first. */
  previous: AttemptFailure | null;
  /** 1 for the first attempt at the step, 2 for the first retry, … (a resumed step carries on the count). */
  attempt: number;
  /**
   * The attempts that failed before the session was resumed, with what each was told (none for
   * a step started in this session): the attempt after a resume has no conversation to carry on.
   */
  earlier?: readonly EarlierAttempt[];
  /** The session's input, ports and head (an agent builds its tools from them and reads what earlier steps changed). */
  context: StepContext;
  signal?: AbortSignal;
}

/**
 * An author's answer: edit blocks (any format `aide apply` takes; '' for none), or why there are none.
 * - `written`: the scratch-relative paths the author wrote itself, in the scratch (an agent's
 *   tools); they are checked against the capture like the paths its edits write.
 */
export type Authored =
  | { ok: true; edits: string; written?: readonly string[] }
  /** `retry`: asked again, the author may do better (an agent that slipped, not one whose model is gone). */
  /** `modelUnavailable`: the model could not be used (a server gone mid-step, a full context): exit 3. */
  | { ok: false; reason: string; cancelled?: true; retry?: boolean; modelUnavailable?: true };

/**
 * Where a step's edits come from. The plan's written edits are one author; an agent loop that
 * reads the scratch and writes blocks is another. Its events (a model's progress) are the step's.
 */
export interface StepAuthor {
  author(request: AuthorRequest): AsyncGenerator<AideEvent, Authored>;
  /**
   * Whether, asked again after a failure, it may answer differently (an agent): the step then
   * gets up to `maxAttempts` attempts. Absent or false: one attempt (written edits).
   */
  retries?(step: ActStep): boolean;
}

/** A step's report: what is not given is empty (no files, no verification, no checkpoint). */
export function stepReport(
  step: ActStep,
  status: StepStatus,
  reason: string | null,
  extra: Partial<StepReport> = {},
): StepReport {
  return {
    number: step.number,
    title: step.title,
    status,
    reason,
    files: [],
    protectedFiles: [],
    verify: null,
    checkpoint: null,
    patchFile: null,
    output: null,
    ...extra,
  };
}

/** What a step runs in: the session's input and ports, and what the steps before it left. */
export interface StepContext {
  input: ActInput;
  deps: ActDeps;
  /** The output of each step's Run commands, for `{{ steps.N.output }}` and `{{ last.output }}`. */
  outputs: Map<number, string>;
  /** The session's latest checkpoint: where the next step starts. */
  head: string;
  /** Verify runs so far: each writes to a layer of its own (CommandRun.layer), so none sees another's leftovers. */
  verifyRuns: number;
}

/** A part of a step that worked (its value) or did not (why, for the person reading the step). */
// `cancelled`: Ctrl-C stopped it (the step is cancelled, not failed); the reason is for people only.
export type Outcome<T> = { ok: true; value: T } | { ok: false; reason: string; cancelled?: true };

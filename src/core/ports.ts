/**
 * The ports: what the core needs from the outside world. infra/ implements them; tests use
 * the real implementations against temp directories.
 */
import type { ChangedFile } from './events.js';

export interface FileStat {
  kind: 'file' | 'directory' | 'symlink' | 'other';
  /** Permission bits. */
  mode: number;
  size: number;
}

/** A symlink as content: the target text stored in the link (never resolved). */
export interface SymlinkContent {
  symlink: string;
}

/** What was at a path before a change, kept for rollback: a file's bytes, a symlink, or nothing (null). */
export type PreviousContent = Uint8Array | SymlinkContent | null;

/**
 * One change to write. `previous` is what the path held before (null: nothing), kept for
 * rollback. `executable` sets (true) or clears (false) a file's executable bits, as git
 * records them; omitted, an existing file keeps its mode. A new file gets 0666 or 0777 less
 * the umask, like a git checkout, and an existing file's other bits (a 0600 secret) are kept.
 */
export type FileWrite =
  | { kind: 'write'; path: string; content: Uint8Array; previous: PreviousContent; executable?: boolean }
  | { kind: 'symlink'; path: string; target: string; previous: PreviousContent }
  | { kind: 'delete'; path: string; previous: Uint8Array | SymlinkContent };

/** File access by absolute path. */
export interface FileSystem {
  /** The bytes of a file, or null when nothing is there. */
  readFile(path: string): Promise<Uint8Array | null>;
  /** Like lstat(2): a symlink is reported as one. null when nothing is there. */
  lstat(path: string): Promise<FileStat | null>;
  /** The canonical path with every symlink resolved; null when it does not exist. */
  realpath(path: string): Promise<string | null>;
  /**
   * Writes all changes, each atomically (temp file in the same folder, then rename) with its
   * mode kept. If any write fails, the ones already made are rolled back and it throws.
   */
  commit(changes: readonly FileWrite[]): Promise<void>;
}

/** A checkpoint as the core sees it: a recorded state of the workspace in the shadow repository. */
export interface CheckpointRecord {
  id: string;
  short: string;
  /** ISO 8601. */
  time: string;
  session: string;
  reason: string;
  message: string;
  step: string | null;
  verdict: string | null;
  /** Paths left out of this checkpoint (too large); restore never touches them. */
  skipped: string[];
  /** Files that differ from the previous checkpoint. */
  filesChanged: number;
}

export interface CheckpointRequest {
  /** The session's branch to record on; omitted: a new session of its own, named after the reason. */
  session?: string;
  reason: string;
  message: string;
  step?: string;
  verdict?: string;
  /**
   * Paths about to be written or deleted (relative to the workspace root, '/'-separated). The
   * checkpoint holds each as it is now, whatever the ignore rules say, and so does every later
   * one, so restore can put back or remove what the write does (an ignored `.env` included).
   */
  paths?: readonly string[];
}

export interface CheckpointResult {
  checkpoint: CheckpointRecord;
  /** false when the workspace had not changed since the session's last checkpoint. */
  created: boolean;
  /** Files left out of this checkpoint, with their sizes. */
  skipped: Array<{ path: string; bytes: number }>;
  /**
   * Those of the request's `paths` that git ignores: checkpointed all the same, but a change to
   * them shows in neither `git status` nor `git diff`, so the caller should say so.
   */
  ignored?: string[];
}

/** Takes checkpoints of the workspace (the shadow repository). */
export interface Checkpointer {
  checkpoint(request: CheckpointRequest): Promise<CheckpointResult>;
}

/** What a restore does to one path of the workspace. */
export interface RestoreChange {
  /** Relative to the workspace root, '/'-separated. */
  path: string;
  /** create: the path is missing now; modify: it is overwritten; remove: it is deleted. */
  action: 'create' | 'modify' | 'remove';
  /** What the path holds afterwards; null for a removal. */
  kind: 'file' | 'executable' | 'symlink' | null;
}

/** Why a path that differs is left as it is. */
export type RestoreSkipReason =
  /** Over the size limit now: its current content is in no checkpoint, so it is never overwritten. */
  | 'too-large-now'
  /** The target checkpoint left it out (over the size limit then): its content there is unknown. */
  | 'too-large-then'
  /** Something aide did not capture (an ignored file, a symlink, a folder) is at the path or in its way. */
  | 'not-captured'
  /** A submodule or nested repository recorded as a link, not as files. */
  | 'nested-link'
  /** A path inside a .git folder: never written. */
  | 'git-internal'
  /** A file name that is not UTF-8: aide cannot name it exactly, so it never writes or removes it. */
  | 'name-not-utf8';

export interface RestoreSkip {
  path: string;
  reason: RestoreSkipReason;
}

/** What a restore to a checkpoint would change, computed against the workspace as it is now. */
export interface RestorePlan {
  target: CheckpointRecord;
  /** Removals first, then writes; each group sorted by path. */
  changes: RestoreChange[];
  leftAlone: RestoreSkip[];
}

/** A checkpoint named by a restore journal. */
export interface CheckpointRef {
  id: string;
  short: string;
}

/** A restore that was interrupted (killed) before it finished: its journal is still there. */
export interface PendingRestore {
  target: CheckpointRef;
  /** The safety checkpoint that run took. */
  safety: CheckpointRef;
  /** The checkpoint that undoes it: the state before the first of a chain of interrupted runs. */
  undo: CheckpointRef;
  /** ISO 8601. */
  startedAt: string;
  pid: number;
}

export interface RestoreOutcome {
  /** Files and symlinks written. */
  written: number;
  removed: number;
  /** Folders removed because the restore emptied them, relative to the root. */
  foldersRemoved: string[];
}

/** Restores the workspace's files to a checkpoint (the shadow repository). */
export interface Restorer {
  /** The restore a crash left half done, if any. */
  pendingRestore(): Promise<PendingRestore | null>;
  /** Removes the temp files an interrupted restore left; returns how many. */
  recover(pending: PendingRestore): Promise<number>;
  /** Plans a restore to `target` (an id, abbreviated or full); throws `checkpoint_unknown`. */
  planRestore(target: string): Promise<RestorePlan>;
  /**
   * Applies a plan after `safety` was taken: journal first, then every file atomically, then
   * the folders the removals emptied. Refuses (nothing written) when the safety checkpoint is
   * not the state the plan was computed from: the workspace changed in between.
   */
  applyRestore(plan: RestorePlan, safety: CheckpointRecord, pending: PendingRestore | null): Promise<RestoreOutcome>;
  /** Completes an interrupted restore that has nothing left to write: its emptied folders, its journal. */
  finishPending(pending: PendingRestore): Promise<RestoreOutcome>;
}

export type Approval = 'yes' | 'no';

/** A changed file a `protected_paths` rule covers, with the rule (as configured) that matched. */
export interface ProtectedChange {
  path: string;
  rule: string;
}

/** Writing protected files outside an act step review (aide apply; the model's write tools next). */
export interface ProtectedWriteRequest {
  /** What writes them, for the question: "aide apply". */
  command: string;
  /** Every file the write changes. */
  files: ChangedFile[];
  /** The protected ones among them, each with its rule. */
  protectedFiles: ProtectedChange[];
}

/**
 * approve: write them; decline: the person said no; refuse: no one could be asked (no terminal,
 * no --allow-protected): `reason` says so, `hint` gives the command that would allow it.
 */
export type ProtectedDecision = { kind: 'approve' } | { kind: 'decline' } | { kind: 'refuse'; reason: string; hint: string };

/** Gives, or withholds, the second and explicit yes a protected file takes. */
export interface ProtectedApprover {
  approveProtected(request: ProtectedWriteRequest): Promise<ProtectedDecision>;
}

/** A verified step, as it is shown for approval. */
export interface StepReview {
  step: number;
  title: string;
  /** One line: "verified: 3 commands, 41 tests passed". */
  verdict: string;
  files: ChangedFile[];
  /** The changed files protected_paths covers: writing them takes a second, explicit yes. */
  protectedFiles: ProtectedChange[];
}

/**
 * What to do with a verified step. `refuse`: the approver may not decide it (--yes and a
 * protected file without --allow-protected); the reason says what would.
 */
export type StepDecision =
  | { kind: 'approve' }
  /** `reason`: why, in the user's words ("you chose Skip step"); shown after "skipped: ". */
  | { kind: 'skip'; reason?: string }
  | { kind: 'abort' }
  | { kind: 'refuse'; reason: string };

/** Asks the person at the keyboard, or answers for them (--yes). Flows never know which. */
export interface Approver {
  /** `details` are short lines shown above the question. */
  confirm(question: string, details: readonly string[]): Promise<Approval>;
  /** Whether to write a verified step into the workspace. */
  reviewStep(review: StepReview): Promise<StepDecision>;
}

/** One path that differs between a scratch's base and its captured state. */
export interface ScratchChange {
  /** Workspace-relative, '/'-separated. */
  path: string;
  status: 'added' | 'modified' | 'deleted' | 'type_changed';
  /** Git mode before ('100644', '100755', '120000' for a symlink); null when added. */
  oldMode: string | null;
  /** Git mode after; null when deleted. */
  newMode: string | null;
  /** Blob id before (what the workspace file must still be before it is overwritten); null when added. */
  oldBlob: string | null;
  /** Blob id after; null when deleted. */
  newBlob: string | null;
}

/** The scratch's files read back into the shadow's object store. */
/** A path git ignores, and why: the ignore file, line and pattern (e.g. `.gitignore:3:.env`). */
export interface IgnoredPath {
  path: string;
  rule: string;
}

export interface ScratchCapture {
  /** The tree the scratch was last moved to (or opened at): what the changes are relative to. */
  base: string;
  /** The scratch's files as a tree (linked folders left out). */
  tree: string;
  changes: ScratchChange[];
}

/** What a move did. */
export interface ScratchMove {
  /** Tree the files were at before the move (after the sweep, if any). */
  from: string;
  /** Tree the files are at now. */
  to: string;
  /** Files (and symlinks) written. */
  written: number;
  /** Files removed. */
  removed: number;
  /** Whether the scratch was swept for edits before moving (a walk of its files, like `git status`). */
  swept: boolean;
}

/** A folder of the workspace linked into the scratch instead of copied (`link` in sandbox.json). */
export interface ScratchLink {
  /** Workspace-relative path, as configured. */
  path: string;
  /** The workspace folder the symlink points at (absolute). */
  target: string;
  /** True while the symlink is in place. */
  linked: boolean;
  /**
   * Why it is not linked: absent from the workspace, tracked in the base (checked out instead),
   * its parent folder not in the base, or something the scratch made itself already there.
   */
  reason: 'missing_in_workspace' | 'tracked_in_base' | 'no_parent_in_base' | 'occupied' | null;
}

/**
 * A private checkout of a snapshot or checkpoint outside the workspace, where a step's edits are
 * made and its verify commands run. The workspace and the user's `.git` are never written.
 */
export interface Scratch {
  /** Absolute path of the checkout. Edits and verify commands happen here, nowhere else. */
  readonly path: string;
  readonly session: string;
  /** The tree the scratch was last moved to (or opened at). */
  readonly base: string;
  readonly links: readonly ScratchLink[];
  /**
   * Moves the scratch to another snapshot or checkpoint (a tree or commit id): only the files
   * that differ are written, files the target lacks are removed, edits are discarded; ignored
   * files (build outputs, caches) stay, like in a developer's checkout. Cost grows with the files
   * that differ, not with the repository, when `sweep` is false: pass it only when nothing has
   * written to the scratch since the last capture() or moveTo(). By default the scratch is first
   * swept for edits (a walk of its files, as long as `git status`).
   */
  moveTo(target: string, options?: { sweep?: boolean }): Promise<ScratchMove>;
  /** Records the scratch's current files as a tree in the shadow's object store, with the changes from `base`. */
  capture(): Promise<ScratchCapture>;
  /** The changes from `base` (a capture). */
  changedFiles(): Promise<ScratchChange[]>;
  /** Which of these scratch-relative paths git ignores (a capture leaves them out), each with the rule that does. */
  ignoredPaths(paths: readonly string[]): Promise<IgnoredPath[]>;
  /** A unified diff from `base` to the capture (taken now when not given). */
  diff(capture?: ScratchCapture): Promise<string>;
  /** Removes the scratch. Links are removed as links: nothing is deleted through them. */
  dispose(): Promise<void>;
}

/** Opens the scratch of a session (one per session; stale ones of dead processes are removed first). */
export interface ScratchOpener {
  open(session: string, base: string): Promise<Scratch>;
}

/** One verify command as the runner receives it: fully resolved, nothing inherited. */
export interface CommandRun {
  /** The command's name in sandbox.json, for messages. */
  name: string;
  /** An argv (run without a shell) or a shell line (run by /bin/sh -c). */
  run: readonly string[] | string;
  /** Absolute folder the command runs in (a scratch). */
  cwd: string;
  /** The child's complete environment: nothing else is passed through. */
  env: Readonly<Record<string, string>>;
  /** Milliseconds before the whole process group is killed (TERM, then KILL after a grace period). */
  timeoutMs: number;
  /** Absolute path of the log file: stdout and stderr interleaved, capped at `maxLogBytes`. */
  logFile: string;
  /** Bytes of the log kept beyond which the rest is dropped and a marker line written. */
  maxLogBytes: number;
  /** Bytes at most of the tail: whole lines from the end of the output, ANSI escapes stripped. */
  tailBytes: number;
  /** Called with each output line (ANSI stripped, at most a few KiB each), in order, e.g. to count tests. */
  onLine?: (line: string) => void;
  /** Aborting kills the whole process group (TERM, then KILL) and the result says `cancelled`. */
  signal?: AbortSignal;
}

/** How one run of a command ended. The runner never rejects: every failure is described here. */
export interface CommandResult {
  /** null when killed by a signal or never started. */
  exitCode: number | null;
  /** e.g. 'SIGKILL' when killed by a signal. */
  signal: string | null;
  timedOut: boolean;
  /** Stopped because the run's AbortSignal fired (Ctrl-C). */
  cancelled: boolean;
  /** The log reached `maxLogBytes`: the rest of the output was read and dropped. */
  truncated: boolean;
  durationMs: number;
  /** All output bytes the command produced, kept or not. */
  outputBytes: number;
  /** The last whole lines of the output, at most `tailBytes`, ANSI escapes stripped. */
  tail: string;
  /** Why the command could not be started at all (e.g. "spawn npx ENOENT"); null when it ran. */
  startError: string | null;
}

/** What protection verify commands actually ran under; never more than was in force. */
export interface IsolationReport {
  /** 'unshare' (user, mount, network and PID namespaces), 'bwrap', or 'none'. */
  mechanism: 'unshare' | 'bwrap' | 'none';
  /** 'off': commands had no network; 'allowed': by sandbox.json or --no-isolation; 'unavailable': wanted off, but no mechanism works. */
  network: 'off' | 'allowed' | 'unavailable';
  /** The workspace folder and every git dir aide knows (its .git, a linked worktree's common dir, the shadow, alternates) were read-only for the commands. */
  workspaceReadOnly: boolean;
  /**
   * Where commands could write: 'scratch' (only the scratch and their own HOME and temp folder;
   * the rest of the file system read-only), 'outside-workspace' (anywhere but the workspace and
   * its git dirs), 'anywhere'.
   */
  writable: 'scratch' | 'outside-workspace' | 'anywhere';
  /** UNIX sockets on disk outside the scratch (docker, ssh-agent): 'hidden' behind private /tmp, /run, /dev/shm and $HOME, or 'reachable'. */
  sockets: 'hidden' | 'reachable';
  /** Every process a command started dies with it (PID namespace); else only its process group. */
  processTree: 'namespace' | 'process-group';
  /** Why isolation is missing or partial, in one sentence; null when all is in force. */
  detail: string | null;
}

/** Runs verify commands, each in its own process group, under the isolation it reports. */
export interface CommandRunner {
  readonly isolation: IsolationReport;
  run(command: CommandRun): Promise<CommandResult>;
}

/** Why a verified step could not be written into the workspace. */
export interface WriteBackConflict {
  path: string;
  /**
   * changed / deleted: not what the step started from; mode: the same bytes, but its executable
   * bit (or file-or-symlink kind) is not; created: the step adds it, but it exists now; outside:
   * a path that leads out of the workspace.
   */
  reason: 'changed' | 'mode' | 'created' | 'deleted' | 'outside';
}

/** The step a write-back belongs to: what its journal records before the first file changes. */
export interface WriteBackStep {
  step: number;
  /** The step's checkpoint, already recorded: the workspace is to be made to match it. */
  checkpoint: string;
  /** The tree the step started from: its verified patch is the diff from here to the checkpoint. */
  from: string;
  /** The output of the step's Run commands (later steps' templates); null when it has none. */
  output: string | null;
}

/** A write-back that was killed half way (SIGKILL, a crash): its journal is still there. */
export interface PendingWriteBack extends WriteBackStep {
  /** The process that was writing (its temp files carry its pid). */
  pid: number;
  /** ISO 8601. */
  startedAt: string;
  changes: ScratchChange[];
}

export interface WriteBackResult {
  written: number;
  conflicts: WriteBackConflict[];
}

/** The shadow and workspace side of one act session. */
export interface SessionRecorder {
  /** Records a scratch's captured tree as the session's next checkpoint (branch aide/<session>). */
  checkpointTree(tree: string, meta: { step: string; verdict: string; message: string }): Promise<CheckpointRecord>;
  /**
   * Writes a step's changes into the workspace, each file atomically and only if every file is
   * still what the step started from (or already what it ends with); otherwise writes nothing
   * and returns the conflicts. A journal naming the step and its changes is written first and
   * left in place until the session's state records the step, so a kill at any moment in
   * between can be rolled forward (`aide act --resume`).
   */
  writeBack(changes: readonly ScratchChange[], step: WriteBackStep): Promise<WriteBackResult>;
  /** The write-back a kill interrupted in this session, or null. */
  pendingWriteBack(): Promise<PendingWriteBack | null>;
  /**
   * Rolls an interrupted write-back forward: every file still at its old content or already at
   * its new is (re)written to the new; anything else is a conflict, and then nothing is written.
   * Temp files the killed process left are removed first. The journal stays, as after writeBack.
   */
  finishWriteBack(pending: PendingWriteBack): Promise<WriteBackResult>;
  /** A unified diff between two trees or checkpoints of the shadow. */
  diff(from: string, to: string): Promise<string>;
  /** Saves a file (a patch) in the session's folder; returns its absolute path. */
  saveFile(name: string, content: string): Promise<string>;
  /** The bytes of a blob of the shadow's object store (a ScratchChange's oldBlob or newBlob). */
  readBlob(id: string): Promise<Uint8Array>;
}

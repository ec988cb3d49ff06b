/**
 * The two kinds of error (STYLE.md §2): an AideError is expected and user-facing; anything
 * else that escapes is a bug and exits 70 with its stack.
 */

/** Process exit codes, the contract in DESIGN.md. */
export const ExitCode = {
  ok: 0,
  /** verification failed, review blocked, or edits did not apply */
  failed: 1,
  /** usage or configuration error */
  usage: 2,
  /** the model is unavailable or unusable */
  modelUnavailable: 3,
  /** approval was needed but there is no TTY and no --yes */
  approvalNeeded: 4,
  /** the user aborted */
  aborted: 5,
  /** files changed under aide */
  conflict: 6,
  /** a bug in aide */
  internal: 70,
  /** stopped by Ctrl-C (SIGINT), as shells report it: 128 + 2 */
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** Stable machine-readable error codes (the `code` field of `--json` errors). */
export type AideErrorCode =
  | 'usage'
  | 'input_missing'
  | 'input_unreadable'
  | 'config_invalid'
  | 'config_exists'
  | 'workspace_invalid'
  | 'edits_failed'
  | 'no_edits'
  | 'workspace_locked'
  | 'workspace_conflict'
  | 'checkpoint_unknown'
  | 'checkpoint_damaged'
  | 'shadow_failed'
  | 'restore_failed'
  | 'approval_needed'
  | 'isolation_unavailable'
  /** The model server cannot be used: none there, unknown model, context too small, a cut prompt. */
  | 'model_unavailable'
  /** The model ended without a usable result (no plan within the limits). */
  | 'model_gave_up'
  | 'aborted';

/**
 * A fix that takes a command-line flag. Only the CLI knows its flags, so code below it names the
 * fix and cli/render/error.ts words it, as the error's hint (REMEDY_TEXT there, one per remedy).
 */
export type Remedy =
  /** The --cwd given does not exist. */
  | 'check_cwd'
  /** aide ran inside a git dir: run it in the work tree (or give --cwd one). */
  | 'use_work_tree'
  /** The workspace would be / or $HOME: run in a project folder (or give --cwd one). */
  | 'use_project_folder'
  /** `aide verify --staged` or `--ref` outside a git repository: verify the files as they are. */
  | 'verify_working_tree'
  /** The staged content has conflicts: resolve and stage, then `aide verify --staged` again. */
  | 'restage_and_verify'
  /** `aide verify --ref` named no commit: say how to name one. */
  | 'name_a_commit'
  /** `aide init` found the files there already: see them, or replace them with --force. */
  | 'init_force';

export interface AideErrorOptions {
  /** How to fix it, in one or two sentences. */
  hint?: string;
  /** A fix that names a CLI flag, worded by the CLI; `hint` wins when both are given. */
  remedy?: Remedy;
  /** Defaults to 2 (usage/config) for usage and config codes, else 1. */
  exitCode?: ExitCode;
  /** Extra lines printed under the message (e.g. one per invalid field). */
  details?: readonly string[];
  /** Structured detail for `--json` consumers (e.g. each config problem with file, line and path). */
  data?: Readonly<Record<string, unknown>>;
  cause?: unknown;
}

export class AideError extends Error {
  readonly code: AideErrorCode;
  readonly hint: string | undefined;
  readonly remedy: Remedy | undefined;
  readonly exitCode: ExitCode;
  readonly details: readonly string[];
  readonly data: Readonly<Record<string, unknown>> | undefined;

  constructor(code: AideErrorCode, message: string, options: AideErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AideError';
    this.code = code;
    this.hint = options.hint;
    this.remedy = options.remedy;
    this.details = options.details ?? [];
    this.data = options.data;
    this.exitCode = options.exitCode ?? defaultExitCode(code);
  }
}

function defaultExitCode(code: AideErrorCode): ExitCode {
  switch (code) {
    case 'usage':
    case 'input_missing':
    case 'input_unreadable':
    case 'config_invalid':
    case 'config_exists':
    case 'workspace_invalid':
      return ExitCode.usage;
    case 'checkpoint_unknown':
    case 'isolation_unavailable':
      return ExitCode.usage;
    case 'edits_failed':
    case 'no_edits':
    case 'shadow_failed':
    case 'restore_failed':
    case 'checkpoint_damaged':
      return ExitCode.failed;
    case 'workspace_locked':
    case 'workspace_conflict':
      return ExitCode.conflict;
    case 'approval_needed':
      return ExitCode.approvalNeeded;
    case 'aborted':
      return ExitCode.aborted;
    case 'model_unavailable':
      return ExitCode.modelUnavailable;
    case 'model_gave_up':
      return ExitCode.failed;
  }
}

export function isAideError(value: unknown): value is AideError {
  return value instanceof AideError;
}

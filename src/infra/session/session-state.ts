/**
 * state.json of an act session (`.aide/state/sessions/<id>/state.json`, schema aide.session/1):
 * what `aide status` shows and what `aide act --resume` carries on from. Rewritten whole
 * (temp file, rename) after every transition, so a crash or kill -9 leaves the last complete
 * state: a session still `running` when no aide holds the workspace lock was killed.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { STEP_STATUSES, type StepStatus } from '../../core/act-report.js';
import { readWriteBackJournal } from './write-back-journal.js';

export const SESSION_SCHEMA = 'aide.session/1';

const objectId = z.string().regex(/^[0-9a-f]{40,64}$/, { error: 'expected a full object id' });
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, { error: 'expected a sha256 in hex' });

// The statuses a step ends with, from the one list act reports (act-report.ts), and two of its own.
export const sessionStepStatusSchema = z
  .enum(['pending', 'running', ...STEP_STATUSES])
  .describe(
    'pending: not started; running: started, not finished (a kill leaves it so); the rest: how the step ended, as aide act reports it.',
  );
export type SessionStepStatus = z.infer<typeof sessionStepStatusSchema>;

export const sessionStepSchema = z.object({
  number: z.number().int().positive().describe('The step number in the plan.'),
  title: z.string().describe("The step's title."),
  status: sessionStepStatusSchema,
  checkpoint: objectId.nullable().describe('The checkpoint recording the step; null when none was taken.'),
  hash: sha256.describe(
    "A stable hash of the step's content (everything but its number): how a resume tells which steps changed.",
  ),
  output: z
    .string()
    .nullable()
    .describe(
      "The output of the step's Run commands, for `{{ steps.N.output }}` and `{{ last.output }}` after a resume; null when it has none.",
    ),
  attempts: z
    .array(
      z.object({
        attempt: z.number().int().positive(),
        passed: z.boolean(),
        reason: z.string().nullable().describe('Why it failed; null when it passed.'),
        feedback: z
          .string()
          .nullable()
          .optional()
          .describe(
            'What the model was told of the failure (failing tests, output tail): after a resume, the step starts a fresh conversation that tells it. Absent when it passed.',
          ),
      }),
    )
    .optional()
    .describe(
      "A model step's attempts as each ended, in order; a resumed step's attempts follow its earlier ones. Absent: the step had none (written edits, or an older aide).",
    ),
});
export type SessionStep = z.infer<typeof sessionStepSchema>;

export const sessionStatusSchema = z
  .enum(['running', 'finished', 'stopped', 'interrupted', 'crashed'])
  .describe(
    'running: in progress, or killed (no aide holds the lock); finished: every step done; stopped: a step failed or conflicted, or an error stopped it; interrupted: Ctrl-C, SIGTERM, or a question answered no; crashed: an internal error in aide stopped it (a step it was on stays running).',
  );
export type SessionStatus = z.infer<typeof sessionStatusSchema>;

export const sessionStateSchema = z.object({
  schema: z.literal(SESSION_SCHEMA),
  session: z
    .string()
    .min(1)
    .describe('The session id; its checkpoints are on the shadow branch aide/<session>.'),
  plan: z.string().min(1).describe('The plan file, relative to the workspace root.'),
  planHash: sha256.describe("sha256 of the plan file's text when the session last started or resumed."),
  title: z.string().describe("The plan's title."),
  dryRun: z.boolean(),
  base: objectId.describe(
    'The checkpoint the session started from: the workspace as it was (the undo target).',
  ),
  head: objectId.describe(
    'The checkpoint of the last finished step (the base before any): where the next step starts.',
  ),
  status: sessionStatusSchema,
  only: z
    .number()
    .int()
    .positive()
    .nullable()
    .default(null)
    .describe('The one step a `--step N` session carries out; null: the whole plan.'),
  startedAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
  steps: z.array(sessionStepSchema).describe('Every step of the plan, in order, with what it did so far.'),
});
export type SessionState = z.infer<typeof sessionStateSchema>;

/** A step status as aide act reports it is one state.json can hold. */
export function recordedStatus(status: StepStatus): SessionStepStatus {
  return status;
}

/** Steps a resume does not run again. */
export function isDone(status: SessionStepStatus): boolean {
  return status === 'applied' || status === 'verified' || status === 'skipped';
}

/** One session folder as found on disk. */
export interface FoundSession {
  session: string;
  dir: string;
  /** The parsed state; null when state.json is not aide.session/1 (an older aide, or damaged). */
  state: SessionState | null;
  /** The raw JSON when it did not parse as a state (for a best-effort display). */
  raw: unknown;
  /** When state.json was last written (its updatedAt, else the file's mtime), ms since the epoch. */
  updated: number;
  /** Whether a write-back of this session was killed half way (a journal is there). */
  pendingWriteBack: { step: number; files: number } | null;
}

async function readSession(dir: string, session: string): Promise<FoundSession | null> {
  const file = join(dir, 'state.json');
  const info = await stat(file).catch(() => null);
  if (info === null) return null;
  let raw: unknown = null;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    // A state.json that is not JSON: shown as damaged, never resumed.
  }
  const parsed = sessionStateSchema.safeParse(raw);
  const state = parsed.success ? parsed.data : null;
  const journal = await readWriteBackJournal(dir).catch(() => null);
  return {
    session,
    dir,
    state,
    raw,
    updated: state === null ? info.mtimeMs : Date.parse(state.updatedAt),
    pendingWriteBack: journal === null ? null : { step: journal.step, files: journal.changes.length },
  };
}

/** Every session folder with a state.json (act sessions; verify runs keep only logs), newest first. */
export async function listSessionStates(stateDir: string): Promise<FoundSession[]> {
  const root = join(stateDir, 'sessions');
  const names = await readdir(root).catch(() => [] as string[]);
  const found = await Promise.all(names.map((name) => readSession(join(root, name), name)));
  return found
    .filter((f) => f !== null)
    .sort((a, b) => b.updated - a.updated || b.session.localeCompare(a.session));
}

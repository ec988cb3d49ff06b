/**
 * Which session `aide act --resume` carries on: the newest unfinished one (stopped, interrupted,
 * or still `running` in state.json, which under the workspace lock means it was killed), of the
 * named plan if one is given, of the same kind (a dry run resumes a dry run). When there is none,
 * a usage error says what there is instead.
 */
import { AideError } from '../../shared/errors.js';
import type { SessionRecord, StoredSession } from '../ports/session-store.js';

/** A session that can be carried on: its state.json is one this aide reads. */
export type ResumableSession = StoredSession & { state: SessionRecord };

const START_NEW = 'Start a session with `aide act [plan]`.';

export function resumeCommand(dryRun: boolean): string {
  return `aide act --resume${dryRun ? ' --dry-run' : ''}`;
}

function nothingToResume(message: string, hint: string): AideError {
  return new AideError('input_missing', `nothing to resume: ${message}`, { hint });
}

/**
 * The session to resume among `all` (newest first), or the error (exit 2) naming what exists.
 * `plan` is the plan file named, relative to the workspace root.
 */
export function findResumable(
  all: readonly StoredSession[],
  plan: string | undefined,
  dryRun: boolean,
): ResumableSession {
  const ofPlan = plan === undefined ? all : all.filter((s) => s.state?.plan === plan);
  const unfinished = ofPlan.filter(
    (s): s is ResumableSession => s.state !== null && s.state.status !== 'finished',
  );
  const match = unfinished.find((s) => s.state.dryRun === dryRun);
  if (match !== undefined) return match;
  const other = unfinished[0];
  if (other !== undefined) {
    const kind = other.state.dryRun ? 'a dry run' : 'not a dry run';
    throw nothingToResume(
      `the unfinished session ${other.session} (${other.state.plan}) is ${kind}`,
      `Resume it with \`${resumeCommand(other.state.dryRun)}\`.`,
    );
  }
  const last = ofPlan[0];
  if (last === undefined) {
    const newest = all[0]?.state;
    if (plan !== undefined && newest !== undefined && newest !== null) {
      throw nothingToResume(
        `no session ran ${plan} (the last session, ${newest.session}, ran ${newest.plan})`,
        `Name no plan to resume the newest unfinished session. ${START_NEW}`,
      );
    }
    throw nothingToResume(
      plan === undefined ? 'there is no aide act session in this workspace' : `no session ran ${plan}`,
      START_NEW,
    );
  }
  if (last.state === null) {
    throw nothingToResume(
      `the last session, ${last.session}, was recorded by an older aide and cannot be resumed`,
      START_NEW,
    );
  }
  throw nothingToResume(
    `the last session, ${last.session} (${last.state.plan}), finished`,
    `\`aide status\` shows what it did. ${START_NEW}`,
  );
}

/**
 * A session whose write-back was killed half way leaves the workspace partly written: a new
 * session would start from that. Only `aide act --resume` of that session may go on.
 */
export function refusePendingWriteBacks(sessions: readonly StoredSession[], resuming: string | null): void {
  const pending = sessions.find((s) => s.pendingWriteBack !== null && s.session !== resuming);
  if (pending?.pendingWriteBack == null) return;
  const plan = pending.state === null ? '' : ` ${pending.state.plan}`;
  throw new AideError(
    'workspace_conflict',
    `session ${pending.session} was stopped while it wrote step ${pending.pendingWriteBack.step} into your files: some of them may be written and others not`,
    {
      hint: `Finish it with \`aide act --resume${plan}\` (a file changed since is reported, never overwritten); \`aide status\` shows the session.`,
    },
  );
}

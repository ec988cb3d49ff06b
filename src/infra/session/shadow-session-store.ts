/**
 * The session store on disk: session folders under `<workspace>/.aide/state/sessions/`, each
 * session's checkpoints on the shadow branch aide/<session>, and its write-backs through the
 * recorder into the workspace.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileSystem } from '../../core/ports/files.js';
import type { PlanFiles, SessionPlan, SessionRecord, SessionStore } from '../../core/ports/session-store.js';
import type { OpenSession, StoredSession } from '../../core/ports/session-store.js';
import { newSessionId } from '../shadow/checkpoints.js';
import { ShadowSessionRecorder } from '../shadow/session-recorder.js';
import type { ShadowStore } from '../shadow/shadow-store.js';
import { ActSessionLog } from './act-session.js';
import { SessionFiles } from './session-files.js';
import { listSessionStates } from './session-state.js';

export class ShadowSessionStore implements SessionStore {
  /**
   * @param store the workspace's shadow store (its lock held)
   * @param writes writes into the workspace (the step write-backs)
   */
  constructor(
    private readonly store: ShadowStore,
    private readonly writes: FileSystem,
    private readonly now: () => Date = () => new Date(),
  ) {}

  list(): Promise<StoredSession[]> {
    return listSessionStates(this.store.workspace.stateDir);
  }

  async start(request: { plan: SessionPlan; dryRun: boolean; message: string }): Promise<OpenSession> {
    const session = newSessionId('act', this.now(), randomBytes(2).toString('hex'));
    const files = await SessionFiles.create(this.store.workspace.stateDir, session);
    const base = await this.store.checkpoint({
      session,
      newSession: true,
      reason: 'act',
      message: request.message,
    });
    const log = await ActSessionLog.start(
      files,
      { session, dryRun: request.dryRun, base: base.checkpoint.id },
      request.plan,
      this.now,
    );
    return { session, base: base.checkpoint.id, log, recorder: this.recorder(session, files) };
  }

  async reopen(found: StoredSession & { state: SessionRecord }): Promise<OpenSession> {
    const { state } = found;
    // The folder it was found in (listSessionStates names a session by its folder).
    const files = await SessionFiles.open(join(this.store.workspace.stateDir, 'sessions', found.session));
    const recorder = this.recorder(state.session, files);
    const log = await ActSessionLog.resume(files, state, this.now);
    return { session: state.session, base: state.base, log, recorder };
  }

  private recorder(session: string, files: SessionFiles): ShadowSessionRecorder {
    return new ShadowSessionRecorder(this.store, session, files, this.writes);
  }
}

/** The plans of a workspace: the newest `.md` of its plans folder by modification time. */
export function planFiles(plansDir: string): PlanFiles {
  return {
    newest: async () => {
      const names = (await readdir(plansDir).catch(() => [] as string[])).filter((n) => n.endsWith('.md'));
      const dated = await Promise.all(
        names.map(async (name) => ({
          path: join(plansDir, name),
          mtime: (await stat(join(plansDir, name))).mtimeMs,
        })),
      );
      return dated.sort((a, b) => b.mtime - a.mtime)[0]?.path ?? null;
    },
    read: (file) => readFile(file, 'utf8'),
  };
}

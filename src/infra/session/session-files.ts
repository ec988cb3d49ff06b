/**
 * A session's folder, `.aide/state/sessions/<id>/`: `state.json` (rewritten atomically after
 * every transition, so a crash leaves the last complete state), `audit.jsonl` (append-only:
 * every event with its time), the write-back journal while a step's files are being written,
 * beside the logs and saved patches. A resumed session opens the same folder again.
 */
import { appendFileSync, renameSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionState } from './session-state.js';

export class SessionFiles {
  private constructor(readonly dir: string) {}

  static async create(stateDir: string, session: string): Promise<SessionFiles> {
    const dir = join(stateDir, 'sessions', session);
    await mkdir(join(dir, 'logs'), { recursive: true });
    return new SessionFiles(dir);
  }

  /** The folder of an existing session (`aide act --resume`): its audit log is appended to. */
  static async open(dir: string): Promise<SessionFiles> {
    await mkdir(join(dir, 'logs'), { recursive: true });
    return new SessionFiles(dir);
  }

  get logs(): string {
    return join(this.dir, 'logs');
  }

  /*
   * The audit line and state.json are written synchronously: each is a few hundred bytes into the
   * page cache (tens of microseconds), made on every event, before the event is shown. Through
   * the thread pool each took two to four round trips (open, write, close, rename), and on a busy
   * machine (a step's background sweep running) each round trip waited for a core: 10-13 ms of a
   * 50 ms act step went to this bookkeeping.
   */

  /** One line per event, with the time and the step and attempt it belongs to (null outside steps). */
  audit(entry: object, step: number | null, now: Date, attempt = 1): Promise<void> {
    return settled(() => {
      appendFileSync(
        join(this.dir, 'audit.jsonl'),
        `${JSON.stringify({ time: now.toISOString(), step, attempt: step === null ? null : attempt, ...entry })}\n`,
      );
    });
  }

  /** Replaces state.json whole: a temp file, then a rename. */
  writeState(state: Readonly<SessionState>): Promise<void> {
    return settled(() => {
      const file = join(this.dir, 'state.json');
      writeFileSync(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
      renameSync(`${file}.tmp`, file);
    });
  }

  /** Saves a file in the session's folder; returns its path. */
  async save(name: string, content: string): Promise<string> {
    const file = join(this.dir, name);
    await writeFile(file, content);
    return file;
  }
}

/** `write` run at once (before the caller's next await resolves); a failure rejects the promise. */
function settled(write: () => void): Promise<void> {
  return Promise.resolve().then(write);
}

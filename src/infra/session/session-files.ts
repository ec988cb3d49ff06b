/**
 * A session's folder, `.aide/state/sessions/<id>/`: `state.json` (rewritten atomically after
 * every transition, so a crash leaves the last complete state) and `audit.jsonl` (append-only:
 * every event with its time), beside the logs and saved patches.
 */
import { appendFile, mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export class SessionFiles {
  private constructor(readonly dir: string) {}

  static async create(stateDir: string, session: string): Promise<SessionFiles> {
    const dir = join(stateDir, 'sessions', session);
    await mkdir(join(dir, 'logs'), { recursive: true });
    return new SessionFiles(dir);
  }

  get logs(): string {
    return join(this.dir, 'logs');
  }

  /** One line per event, with the time and the step it belongs to (null outside steps). */
  async audit(entry: object, step: number | null, now: Date): Promise<void> {
    await appendFile(join(this.dir, 'audit.jsonl'), `${JSON.stringify({ time: now.toISOString(), step, attempt: step === null ? null : 1, ...entry })}\n`);
  }

  /** Replaces state.json whole: a temp file, then a rename. */
  async writeState(state: Readonly<Record<string, unknown>>): Promise<void> {
    const file = join(this.dir, 'state.json');
    await writeFile(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
    await rename(`${file}.tmp`, file);
  }

  /** Saves a file in the session's folder; returns its path. */
  async save(name: string, content: string): Promise<string> {
    const file = join(this.dir, name);
    await writeFile(file, content);
    return file;
  }
}

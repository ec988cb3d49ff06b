/**
 * A session's folder, `.aide/state/sessions/<id>/`: `state.json` (rewritten atomically after
 * every transition, so a crash leaves the last complete state), `audit.jsonl` (append-only:
 * every event with its time), the write-back journal while a step's files are being written,
 * beside the logs and saved patches. A resumed session opens the same folder again.
 */
import { appendFile, mkdir, rename, writeFile } from 'node:fs/promises';
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

  /** One line per event, with the time and the step and attempt it belongs to (null outside steps). */
  async audit(entry: object, step: number | null, now: Date, attempt = 1): Promise<void> {
    await appendFile(
      join(this.dir, 'audit.jsonl'),
      `${JSON.stringify({ time: now.toISOString(), step, attempt: step === null ? null : attempt, ...entry })}\n`,
    );
  }

  /** Replaces state.json whole: a temp file, then a rename. */
  async writeState(state: Readonly<SessionState>): Promise<void> {
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

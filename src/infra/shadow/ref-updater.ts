/**
 * Branch updates of the shadow through one long-lived `git update-ref --stdin` per reflog
 * message, instead of a git process per checkpoint: an act session moves its branch once per
 * step, and each `update-ref` start cost the step 5–10 ms of the main thread (node's fork) and as
 * much again waiting for git.
 *
 * Each update is its own transaction (`start`, `update <ref> <new> <old>`, `prepare`, `commit`),
 * written in one write of well under PIPE_BUF, and git answers each command with `<command>: ok`
 * as it goes. The old value is checked as with a one-off `update-ref <ref> <new> <old>` (an empty
 * old value: the ref must not exist). A failed transaction makes git exit (`fatal: …`): that
 * update is refused with a GitCommandError holding git's message, and the next one starts a new
 * process. If aide dies mid-write, git reads the end of its input with a transaction started and
 * not committed, which it aborts: the ref is never half-moved. An idle process never keeps aide
 * running.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { holdWhileBusy } from './idle-child.js';
import { GitCommandError, type ShadowGit } from './git.js';

const REPLIES = ['start: ok', 'prepare: ok', 'commit: ok'] as const;
/** A transaction that takes longer than this fails (and its process is killed). */
const TRANSACTION_TIMEOUT_MS = 60_000;

interface Pending {
  replies: number;
  resolve(): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

class UpdateProcess {
  private readonly pending: Pending[] = [];
  private output = '';
  private stderr = '';
  private ended = false;

  constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly args: readonly string[],
    private readonly gone: (process: UpdateProcess) => void,
  ) {
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      this.output += text;
      this.drain();
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => (this.stderr += text));
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => {
      this.fail(error);
    });
    child.on('close', (code) => {
      this.fail(new GitCommandError(this.args, code, this.stderr));
    });
    this.hold(false);
  }

  update(ref: string, id: string, old: string): Promise<void> {
    if (this.ended) return Promise.reject(new GitCommandError(this.args, null, this.stderr));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.child.kill('SIGKILL');
        this.fail(new GitCommandError(this.args, null, `timed out after ${TRANSACTION_TIMEOUT_MS} ms`));
      }, TRANSACTION_TIMEOUT_MS);
      timer.unref();
      this.pending.push({ replies: 0, resolve, reject, timer });
      this.hold(true);
      this.child.stdin.write(`start\nupdate ${ref} ${id} ${old}\nprepare\ncommit\n`);
    });
  }

  close(): void {
    this.ended = true;
    this.child.stdin.end();
  }

  private drain(): void {
    for (;;) {
      const eol = this.output.indexOf('\n');
      if (eol === -1) return;
      const line = this.output.slice(0, eol);
      this.output = this.output.slice(eol + 1);
      const waiter = this.pending[0];
      if (waiter === undefined || line !== REPLIES[waiter.replies]) {
        this.child.kill('SIGKILL');
        this.fail(new GitCommandError(this.args, null, `unexpected reply ${JSON.stringify(line)}`));
        return;
      }
      waiter.replies++;
      if (waiter.replies === REPLIES.length) {
        this.pending.shift();
        clearTimeout(waiter.timer);
        waiter.resolve();
        this.hold(this.pending.length > 0);
      }
    }
  }

  private fail(error: Error): void {
    this.ended = true;
    this.gone(this);
    for (const waiter of this.pending.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
  }

  private hold(busy: boolean): void {
    holdWhileBusy(this.child, busy);
  }
}

/** The shadow's branch updates, one `update-ref --stdin` per reflog message (see the file comment). */
export class RefUpdater {
  private readonly processes = new Map<string, UpdateProcess>();

  constructor(private readonly git: ShadowGit) {}

  /**
   * Points `ref` at `id` if it is at `old` now (`''`: if it does not exist), with `message` in
   * its reflog. Throws GitCommandError when git refuses.
   */
  update(ref: string, id: string, old: string, message: string): Promise<void> {
    if (/[\s\0]/.test(ref) || /[^0-9a-f]/.test(id) || /[^0-9a-f]/.test(old) || /[\n\0]/.test(message))
      return Promise.reject(new Error(`not a ref update: ${JSON.stringify([ref, id, old, message])}`));
    let process = this.processes.get(message);
    if (process === undefined) {
      const args = ['update-ref', '-m', message, '--stdin'];
      process = new UpdateProcess(this.git.start(args), args, (gone) => {
        if (this.processes.get(message) === gone) this.processes.delete(message);
      });
      this.processes.set(message, process);
    }
    return process.update(ref, id, old);
  }

  /** Ends the processes once they have answered what was asked. */
  close(): void {
    for (const process of this.processes.values()) process.close();
    this.processes.clear();
  }
}

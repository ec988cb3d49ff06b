/**
 * The built CLI on a real pseudo-terminal (util-linux `script`), driven like a person would:
 * wait for text on the screen, then press keys. No sleeps: every key waits for what it answers.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripAnsi } from '../../src/shared/text.js';
import { BIN } from './cli.js';
import { testEnv } from './sandbox.js';

// .ci/run installs util-linux `script` (Debian: bsdutils).
export const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
export const needScript = () => {
  assert.ok(hasScript, 'this test needs util-linux `script` (Debian: apt-get install bsdutils)');
};

export const KEY = { down: '\u001b[B', enter: '\r', ctrlC: '\u0003' } as const;

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
/** What a person reads: no colors, no carriage returns. */
export const plain = (text: string) => stripAnsi(text).replace(/\r/g, '');

export interface PtyRun {
  /** Everything written to the terminal so far, as plain text. */
  output(): string;
  /** Resolves once `text` appears after everything an earlier wait matched; fails after `ms`. */
  waitFor(text: string | RegExp, ms?: number): Promise<void>;
  press(...keys: string[]): void;
  /**
   * Resolves once `script` has passed every key pressed so far to the terminal (its input log
   * has them): with echo off nothing on the screen says the keys arrived. Fails after `ms`.
   */
  keysDelivered(ms?: number): Promise<void>;
  /** `stty -a` of aide's terminal while aide runs: its echo, raw mode and the rest. */
  terminalSettings(): string;
  /** Sends a signal to aide itself (not `script`, not the shell between them), as `kill` would. */
  signal(name: NodeJS.Signals): void;
  /** The exit code once aide (and `script`) ended; fails after `ms`. */
  exit(ms?: number): Promise<number | null>;
}

/** The processes started under `pid`, children first (Linux /proc). */
function descendants(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .split(' ')
    .filter((p) => p !== '')
    .map(Number);
  return children.flatMap((child) => [child, ...descendants(child)]);
}

export function onTerminal(cwd: string, args: readonly string[], env: Record<string, string> = {}): PtyRun {
  // A pseudo-terminal from `script` has no size until one is set; listr2 and the pager use it.
  const command = `stty cols 100 rows 40; ${[process.execPath, BIN, ...args].map(quote).join(' ')}`;
  // The keys `script` passes on are logged (-I), flushed as they come (-f), for keysDelivered().
  const logDir = mkdtempSync(join(tmpdir(), 'aide-pty-'));
  const inputLog = join(logDir, 'input');
  const child = spawn('script', ['-qef', '-O', '/dev/null', '-I', inputLog, '-c', command], {
    cwd,
    env: testEnv(undefined, { TERM: 'xterm', ...env }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.on('exit', () => {
    rmSync(logDir, { recursive: true, force: true });
  });
  let pressed = '';
  const aidePid = () =>
    descendants(child.pid ?? 0).find((pid) =>
      readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(BIN),
    );
  let raw = '';
  let seen = 0;
  const listeners = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    raw += chunk;
    for (const listener of listeners) listener();
  });
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      child.stdin.end();
      resolve(code);
      for (const listener of listeners) listener();
    });
  });
  const fail = (what: string) => {
    child.kill('SIGKILL');
    return new Error(`${what}; the terminal showed:\n${plain(raw).slice(-3000)}`);
  };
  return {
    output: () => plain(raw),
    waitFor(text, ms = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const rest = plain(raw).slice(seen);
          const index = typeof text === 'string' ? rest.indexOf(text) : rest.search(text);
          if (index < 0) {
            if (child.exitCode !== null)
              done(() => {
                reject(fail(`aide exited before showing ${String(text)}`));
              });
            return;
          }
          const length =
            typeof text === 'string' ? text.length : (rest.slice(index).match(text)?.[0].length ?? 0);
          seen += index + length;
          done(resolve);
        };
        const timer = setTimeout(() => {
          done(() => {
            reject(fail(`no ${String(text)} after ${ms} ms`));
          });
        }, ms);
        const done = (settle: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          settle();
        };
        listeners.add(check);
        check();
      });
    },
    press(...keys) {
      for (const key of keys) child.stdin.write(key);
      pressed += keys.join('');
    },
    async keysDelivered(ms = 10_000) {
      const deadline = Date.now() + ms;
      const logged = () => (existsSync(inputLog) ? readFileSync(inputLog, 'utf8') : '');
      // The log starts with a header line; the keys are at its end.
      while (!logged().includes(pressed)) {
        if (Date.now() > deadline) throw fail(`script did not pass on the keys pressed within ${ms} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    terminalSettings() {
      const aide = aidePid();
      assert.ok(aide !== undefined, 'aide is not running');
      const result = spawnSync('stty', ['-F', readlinkSync(`/proc/${aide}/fd/0`), '-a'], {
        encoding: 'utf8',
      });
      assert.equal(result.status, 0, result.stderr);
      return result.stdout;
    },
    signal(name) {
      // The shell between `script` and aide names BIN too, inside one argument.
      const aide = aidePid();
      assert.ok(aide !== undefined, 'aide is not running');
      process.kill(aide, name);
    },
    async exit(ms = 60_000) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          reject(fail(`aide still running after ${ms} ms`));
        }, ms);
      });
      try {
        return await Promise.race([exited, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

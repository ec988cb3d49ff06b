/**
 * Which sandbox plans passed their probe on this machine lately, remembered between aide runs.
 *
 * Each aide verify, act and review proves the plan it will use by running a check inside it
 * (isolation.ts): ~10 program starts and 50–100 ms before the first command, paid by every commit
 * a pre-commit hook reviews. A plan that passed is written down here, keyed by everything its
 * result depends on, and trusted for a few minutes.
 *
 * Only passes are remembered, never failures, and plans are still tried strongest first: a
 * remembered pass can only pick the plan a fresh probe would have tried first, never a weaker
 * one. A forged or stale entry (the file is in the user's cache folder, which a verify command
 * under a weaker plan could write) can at worst name a plan that no longer works, and then the
 * commands fail to start inside it: no command ever runs less isolated because of this file.
 *
 * The key: the plan, the path and identity (inode, size, mtime) of every sandbox program, the
 * kernel release, the user, and the TMPDIR, HOME and XDG_RUNTIME_DIR the probe hid. An upgraded
 * bwrap or a new kernel is a new key and is probed at once; what the key cannot see (a sysctl or
 * an AppArmor profile changed) is probed again when the five minutes run out.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { release } from 'node:os';
import { dirname, join } from 'node:path';
import type { SandboxPlan, SandboxTools } from './sandbox-argv.js';
import { aideCacheDir } from '../../shared/cache-dir.js';

type Env = Readonly<Record<string, string | undefined>>;

/** How long a pass is trusted: a working session's hooks and verify runs, not a day. */
export const PLAN_MEMORY_MS = 5 * 60_000;

/** At most this many entries are kept (the newest): one per plan and environment in practice. */
const MAX_ENTRIES = 32;

const FORMAT = 1;

interface Stored {
  format: number;
  /** Key hash → when the plan passed (ms since the epoch). */
  passed: Record<string, number>;
}

/** `$XDG_CACHE_HOME/aide/sandbox-plans.json`, else under `$HOME/.cache`; null without either. */
export function planMemoryFile(env: Env): string | null {
  const dir = aideCacheDir(env);
  return dir === null ? null : join(dir, 'sandbox-plans.json');
}

function identity(path: string | null): string {
  if (path === null) return '-';
  try {
    const stat = statSync(path);
    return `${path}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return `${path}:gone`;
  }
}

/** Everything a probe's verdict depends on, hashed. */
export function planKey(plan: SandboxPlan, tools: SandboxTools, env: Env): string {
  const programs = [
    tools.unshare,
    tools.bwrap,
    tools.mount,
    tools.umount,
    tools.pivotRoot,
    tools.setpriv,
    tools.ip,
  ].map(identity);
  const parts = [
    FORMAT,
    plan,
    programs,
    tools.unshareMapsCurrentUser,
    release(),
    process.getuid?.() ?? -1,
    env['TMPDIR'] ?? '',
    env['HOME'] ?? '',
    env['XDG_RUNTIME_DIR'] ?? '',
  ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}

function load(file: string): Stored {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (typeof raw !== 'object' || raw === null) return { format: FORMAT, passed: {} };
    const { format, passed } = raw as Partial<Stored>;
    if (format !== FORMAT || typeof passed !== 'object' || passed === null)
      return { format: FORMAT, passed: {} };
    const clean: Record<string, number> = {};
    for (const [key, at] of Object.entries(passed))
      if (/^[0-9a-f]{32}$/.test(key) && typeof at === 'number' && Number.isFinite(at)) clean[key] = at;
    return { format: FORMAT, passed: clean };
  } catch {
    return { format: FORMAT, passed: {} };
  }
}

/** Plans that passed lately, read from and written to `file` (null: nothing is remembered). */
export class PlanMemory {
  constructor(
    private readonly file: string | null,
    private readonly now: () => number = Date.now,
    private readonly maxAgeMs: number = PLAN_MEMORY_MS,
  ) {}

  /** Whether the plan with this key passed within the last few minutes (and not in the future). */
  passedLately(key: string): boolean {
    if (this.file === null) return false;
    const at = load(this.file).passed[key];
    if (at === undefined) return false;
    const age = this.now() - at;
    return age >= 0 && age < this.maxAgeMs;
  }

  /** Writes down that the plan passed now. Best effort: a cache that cannot be written is no error. */
  rememberPass(key: string): void {
    if (this.file === null) return;
    const stored = load(this.file);
    stored.passed[key] = this.now();
    const newest = Object.entries(stored.passed)
      .sort((a, b) => b[1] - a[1])
      .slice(0, MAX_ENTRIES);
    const text = `${JSON.stringify({ format: FORMAT, passed: Object.fromEntries(newest) })}\n`;
    const temp = `${this.file}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
      // A temp file renamed into place: a reader sees the old file or the new one, never half.
      writeFileSync(temp, text, { mode: 0o600, flag: 'wx' });
      renameSync(temp, this.file);
    } catch {
      // Read-only HOME, full disk: the next run probes again.
    }
  }
}

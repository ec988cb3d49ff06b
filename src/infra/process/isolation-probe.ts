/**
 * Whether bubblewrap is installed, and which version, for `aide doctor`. Which isolation
 * actually works is decided by running it (isolation.ts).
 */
import { probe } from './probe.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface BubblewrapProbe {
  present: boolean;
  version: string | null;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

export async function probeBubblewrap(env: Env): Promise<BubblewrapProbe> {
  const result = await probe(['bwrap', '--version'], { env });
  return result.ok
    ? { present: true, version: firstLine(result.stdout).replace(/^bubblewrap\s*/, '') || null }
    : { present: false, version: null };
}

/**
 * What the OS offers for running verify commands without network access (threat T10): an
 * unprivileged user + network namespace (`unshare -rn`, verified here as root and as an
 * ordinary user) and bubblewrap. Probes only; nothing here isolates anything yet.
 */
import { probe } from './probe.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface NamespaceProbe {
  available: boolean;
  /** What failed, in the tool's words, when not available. */
  detail: string;
}

export interface BubblewrapProbe {
  present: boolean;
  version: string | null;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

/** `unshare -rn true`: can this user make a network namespace with no interfaces up? */
export async function probeNetworkNamespace(env: Env): Promise<NamespaceProbe> {
  const result = await probe(['unshare', '-rn', 'true'], { env });
  if (result.ok) return { available: true, detail: 'unshare -rn true exited 0' };
  if (result.missing) return { available: false, detail: 'unshare is not installed (util-linux)' };
  return { available: false, detail: firstLine(result.stderr) || `unshare -rn true exited ${result.code ?? 'on a signal'}` };
}

export async function probeBubblewrap(env: Env): Promise<BubblewrapProbe> {
  const result = await probe(['bwrap', '--version'], { env });
  return result.ok ? { present: true, version: firstLine(result.stdout).replace(/^bubblewrap\s*/, '') || null } : { present: false, version: null };
}

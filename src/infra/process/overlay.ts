/**
 * Whether overlayfs mounts inside an unprivileged user + mount namespace (`unshare -rm`) here,
 * with `userxattr` as the sandbox mounts it: a write lands in the upper layer and a removal
 * leaves the lower one alone.
 *
 * The sandbox uses one over the scratch for act's verify commands (sandbox.ts `layers`): what
 * they write is thrown away with the layer, so the scratch needs no sweep after them. It is not
 * used for the scratch itself: the mount exists only inside its namespace, so aide's own
 * process, which writes the model's edits and reads the result back, could not see it, and the
 * lower layer must not change while mounted (the kernel's overlayfs docs call that undefined),
 * which rules out the live workspace.
 */
import { access, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { probe } from './probe.js';

export interface OverlayProbe {
  available: boolean;
  /** How it was found out, or what failed. */
  detail: string;
}

const cache = new Map<string, Promise<OverlayProbe>>();

const MOUNT =
  'mount -t overlay overlay -o "lowerdir=$1,upperdir=$2,workdir=$3,userxattr" "$4" && echo written > "$4/written" && test -f "$4/probe" && rm "$4/probe" && ! test -e "$4/probe"';

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

async function detect(
  tempRoot: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<OverlayProbe> {
  if (process.platform !== 'linux')
    return { available: false, detail: `overlayfs is Linux-only (this is ${process.platform})` };
  const dir = await mkdtemp(join(tempRoot, 'aide-overlay-probe-'));
  try {
    if (/[,:]/.test(dir))
      return {
        available: false,
        detail: `the temp dir ${tempRoot} has a "," or ":", which overlay mount options cannot hold`,
      };
    const [lower, upper, work, merged] = ['lower', 'upper', 'work', 'merged'].map((name) =>
      join(dir, name),
    ) as [string, string, string, string];
    await Promise.all([lower, upper, work, merged].map((path) => mkdir(path)));
    await writeFile(join(lower, 'probe'), 'lower\n');
    const result = await probe(['unshare', '-rm', 'sh', '-c', MOUNT, 'sh', lower, upper, work, merged], {
      env,
    });
    if (result.missing) return { available: false, detail: 'unshare is not installed (util-linux)' };
    if (!result.ok)
      return {
        available: false,
        detail: `unshare -rm + mount -t overlay failed: ${result.stderr.trim().split('\n')[0] ?? ''}`,
      };
    const copiedUp =
      (await exists(join(upper, 'written'))) &&
      !(await exists(join(lower, 'written'))) &&
      (await exists(join(lower, 'probe')));
    return copiedUp
      ? {
          available: true,
          detail: `unshare -rm + overlayfs: mounted and written in ${Math.round(result.ms)} ms, process start included`,
        }
      : { available: false, detail: 'the overlay mounted but a write did not land in its upper layer' };
  } finally {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Probes once per process and temp dir; later calls get the cached answer. */
export function detectOverlay(
  tempRoot: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<OverlayProbe> {
  let found = cache.get(tempRoot);
  if (found === undefined) {
    found = detect(tempRoot, env).catch((error: unknown) => ({
      available: false,
      detail: `probe failed: ${String(error)}`,
    }));
    cache.set(tempRoot, found);
  }
  return found;
}

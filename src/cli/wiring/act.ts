/**
 * The infra adapters `aide act` runs on, built in one place: the workspace and its config, the
 * session store, the plans folder, the isolated runner, the shadow store (its lock held) and
 * the scratch copies. The commands get ports; only this module knows which classes stand behind.
 */
import { existsSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { PLANS_DIR, STATE_DIR } from '../../config/files.js';
import type { FileSystem } from '../../core/ports/files.js';
import type { Scratch } from '../../core/ports/scratch.js';
import type { PlanFiles, SessionStore, StoredSession } from '../../core/ports/session-store.js';
import { ignoresCase } from '../../infra/fs/case-sensitivity.js';
import { NodeFileSystem } from '../../infra/fs/node-file-system.js';
import { listSessionStates } from '../../infra/session/session-state.js';
import { planFiles, ShadowSessionStore } from '../../infra/session/shadow-session-store.js';
import { ScratchTracker } from '../../infra/shadow/scratch/tracking.js';
import { ShadowStore } from '../../infra/shadow/shadow-store.js';
import type { RepoLayout } from '../../infra/git/user-repo.js';
import type { CliIo } from '../io.js';
import { openVerifyRunner, type VerifyRunner } from './runner.js';
import { tempRoot } from './temp-root.js';

export { openWorkspace } from './workspace.js';

/** The workspace's sessions, read only: nothing is created when there are none. */
export function readSessions(root: string): Promise<StoredSession[]> {
  return listSessionStates(join(root, STATE_DIR));
}

/** The workspace's plans folder. */
export function workspacePlans(root: string): PlanFiles {
  return planFiles(join(root, PLANS_DIR));
}

export interface ActAdaptersRequest {
  root: string;
  io: CliIo;
  allowNetwork: boolean;
  isolate: boolean;
  homeBinds: readonly string[];
  maxFileBytes: number;
  links: readonly string[];
  /** Verify commands write to a throwaway layer where one mounts (sandbox.json `keep_verify_writes` off). */
  layers: boolean;
  /** The repository's layout, when locating the workspace told it (null: in no repository). */
  layout?: RepoLayout | null;
}

/** What an act session runs on; `close()` releases them all, whichever fail. */
export interface ActAdapters {
  runner: VerifyRunner;
  sessions: SessionStore;
  /** Writes inside a scratch (the step's edits), each told to the open scratch (tracking.ts). */
  scratchFs: FileSystem;
  /** Whether the workspace's file system ignores case (protected paths are matched so). */
  caseInsensitive: boolean;
  /** A scratch copy at `head`, jailed by its real path (on macOS the temp dir is behind a symlink). */
  openScratch(session: string, head: string): Promise<Scratch>;
  /** Disposes the runner and releases the shadow store's lock, whichever fail; throws the first failure. */
  close(): Promise<void>;
}

/**
 * The runner (it may refuse: no isolation) and the shadow store, which takes the lock. Where the
 * workspace has a shadow already, the isolation is proven (or recalled) while the shadow opens
 * and the kept scratch is swept: a probe after a plan's memory ran out costs 50–100 ms that the
 * sweep's walk hides. Without one, the runner comes first, so a refusal creates nothing.
 */
export async function openActAdapters(request: ActAdaptersRequest): Promise<ActAdapters> {
  const { root, io, layout } = request;
  const shadowKept = existsSync(join(root, STATE_DIR, 'shadow.git'));
  const opening = openVerifyRunner({
    root,
    env: io.env,
    allowNetwork: request.allowNetwork,
    isolate: request.isolate,
    homeBinds: request.homeBinds,
    // Verify commands write to a throwaway layer where one mounts: the scratch needs no sweep after them.
    layers: request.layers,
    ...(layout === undefined ? {} : { gitDirs: layout === null ? [] : [layout.gitDir, layout.commonDir] }),
  });
  // Handled here as well, so a refusal while the shadow opens is no unhandled rejection; it is
  // thrown where the runner is awaited.
  opening.catch(() => undefined);
  if (!shadowKept) await opening;
  let store: ShadowStore;
  try {
    store = await ShadowStore.open(root, io.env, {
      maxFileBytes: request.maxFileBytes,
      command: 'act',
      ...(layout === undefined ? {} : { layout }),
    });
  } catch (error) {
    // Nothing may be left of the runner: its private folder goes with it.
    await opening.then(
      (runner) => {
        runner.dispose();
      },
      () => undefined,
    );
    throw error;
  }
  const scratchesAt = (real: string) => store.scratches({ tempRoot: real, links: request.links, keep: true });
  // The kept scratch's sweep needs no base: it runs while the session's first snapshot is taken.
  // A temp dir that cannot be resolved fails when the scratch is opened, as it always did.
  const early = await realpath(tempRoot(io.env)).then(scratchesAt, () => undefined);
  // Its move, to the tree of the session's first snapshot, runs while that is committed.
  early?.prepareKept(store.nextSnapshotTree());
  const caseInsensitive = await ignoresCase(root);
  let runner: Awaited<typeof opening>;
  try {
    runner = await opening;
  } catch (error) {
    await settleAll([() => early?.releaseEarly(), () => store.close()]);
    throw error;
  }
  // A step's capture reads only the paths aide wrote until a command runs in the scratch.
  const tracker = new ScratchTracker();
  return {
    runner: {
      isolation: runner.isolation,
      layers: runner.layers,
      run: async (command) => {
        // On a layer, the scratch stays exactly as it was (sandbox.ts): nothing foreign ran there.
        if (command.layer !== undefined && runner.layers === true) return runner.run(command);
        tracker.commandRan();
        try {
          return await runner.run(command);
        } finally {
          // Again once it ended: what it left running may have written meanwhile.
          tracker.commandRan();
        }
      },
      dispose: () => {
        runner.dispose();
      },
    },
    sessions: new ShadowSessionStore(store, new NodeFileSystem({ afterChange: io.afterWorkspaceChange })),
    // A scratch's files need not survive a crash: its writes skip the fsync.
    scratchFs: tracker.files(new NodeFileSystem({ durable: false })),
    caseInsensitive,
    openScratch: async (session, head) => {
      const scratches = early ?? scratchesAt(await realpath(tempRoot(io.env)));
      const scratch = await scratches.open(session, head);
      tracker.attach(scratch, { commandsLeaveNothing: runner.isolation.processTree === 'namespace' });
      return scratch;
    },
    close: async () => {
      const failed = await settleAll([
        () => {
          runner.dispose();
          return undefined;
        },
        // Before the lock goes: a sweep no session took leaves no owner record behind.
        () => early?.releaseEarly(),
        () => store.close(),
      ]);
      if (failed !== undefined) throw failed;
    },
  };
}

/** Runs every clean-up step, whichever fail; returns the first failure. */
export async function settleAll(
  steps: ReadonlyArray<() => Promise<void> | undefined>,
): Promise<Error | undefined> {
  let first: Error | undefined;
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      first ??= error instanceof Error ? error : new Error(String(error));
    }
  }
  return first;
}

/**
 * What `aide verify` runs on besides the runner (runner.ts): the project's files read to detect
 * its commands, and the source tree (working tree, index or commit) written into the shadow and
 * checked out in a scratch copy. The workspace lock is held only while the snapshot and the
 * scratch are made: a long test run does not block other aide commands.
 */
import { randomBytes } from 'node:crypto';
import type { SandboxConfig } from '../../config/sandbox-schema.js';
import { detectProject } from '../../core/init/init-workspace.js';
import type { Scratch } from '../../core/ports/scratch.js';
import type { CommandSelection } from '../../core/verify/select-commands.js';
import { NodeDirectoryLister } from '../../infra/fs/list-directories.js';
import { NodeFileSystem } from '../../infra/fs/node-file-system.js';
import { newSessionId } from '../../infra/shadow/checkpoints.js';
import { ShadowStore } from '../../infra/shadow/shadow-store.js';
import type { VerifyOptions } from '../commands/verify-options.js';
import type { VerifyContext } from '../render/verify.js';
import { namedBy } from './named-ref.js';
import { tempRoot } from './temp-root.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The project at the workspace root as its files tell it (package.json, Cargo.toml, …). */
export function detectRootProject(root: string): ReturnType<typeof detectProject> {
  return detectProject(new NodeFileSystem(), new NodeDirectoryLister(), root);
}

/** The tree to verify, written into the shadow. */
async function sourceTree(
  store: ShadowStore,
  options: VerifyOptions,
): Promise<{ source: VerifyContext['source']; skipped: VerifyContext['skipped'] }> {
  if (options.staged)
    return {
      source: { kind: 'staged', ref: null, commit: null, tree: await store.stagedTree() },
      skipped: [],
    };
  if (options.ref !== undefined) {
    const { commit, tree } = await namedBy('--ref', store.refTree(options.ref));
    return { source: { kind: 'ref', ref: options.ref, commit, tree }, skipped: [] };
  }
  const snap = await store.snapshot();
  return { source: { kind: 'worktree', ref: null, commit: null, tree: snap.tree }, skipped: snap.skipped };
}

/** The scratch copy a verify runs in, and what its report tells of it. */
export interface PreparedVerify {
  /** The workspace's state folder (the run's logs go under it). */
  stateDir: string;
  scratch: Scratch;
  context: VerifyContext;
}

/** Snapshot, scratch: under the workspace lock, released before the commands run. */
export async function prepareVerify(
  root: string,
  env: Env,
  options: VerifyOptions,
  sandbox: SandboxConfig,
  maxFileBytes: number,
  selection: CommandSelection,
): Promise<PreparedVerify> {
  const store = await ShadowStore.open(root, env, { maxFileBytes, command: 'verify' });
  try {
    const { source, skipped } = await sourceTree(store, options);
    const session = newSessionId('verify', new Date(), randomBytes(2).toString('hex'));
    const scratch = await store
      .scratches({ tempRoot: tempRoot(env), links: sandbox.link, keep: true })
      .open(session, source.tree);
    return {
      stateDir: store.workspace.stateDir,
      scratch,
      context: {
        root,
        session,
        source,
        commandSource: selection.source,
        skipped,
        optionalNotRun: selection.optionalNotRun,
      },
    };
  } finally {
    await store.close();
  }
}

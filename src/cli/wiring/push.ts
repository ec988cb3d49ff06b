/**
 * The user's repository as `aide review --pre-push` needs it: where a pushed ref's range starts.
 * Read-only queries through the one door to the user's repository (infra/git/user-repo.ts).
 */
import { pushBase, resolveCommit } from '../../infra/git/user-repo.js';

export { EMPTY_TREE } from '../../infra/shadow/snapshot.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Where the review of one pushed ref starts: the remote's sha when this clone has it, else (a new
 * branch, or a remote sha never fetched) the parent of the oldest commit no remote branch holds;
 * null when the remote already has all of it.
 */
export async function pushedRangeBase(
  root: string,
  env: Env,
  remote: string,
  ref: { localSha: string; remoteSha: string | null },
): Promise<string | null> {
  if (ref.remoteSha !== null && (await resolveCommit(root, ref.remoteSha, env)) !== undefined)
    return ref.remoteSha;
  return pushBase(root, ref.localSha, remote, env);
}

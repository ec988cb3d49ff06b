/**
 * What git's pre-push hook is told on stdin: one line per ref being pushed,
 * `<local ref> <local sha> <remote ref> <remote sha>` (githooks(5)). A local sha of zeros deletes
 * the remote ref (nothing to review); a remote sha of zeros is a new branch (reviewed from where it
 * leaves what the remote has).
 */

/** One ref being pushed. */
export interface PushedRef {
  localRef: string;
  localSha: string;
  remoteRef: string;
  /** null: the remote does not have this ref yet (a new branch or tag). */
  remoteSha: string | null;
}

const ZEROS = /^0+$/;

/** The refs git pushes, deletions left out. Lines that are not four fields are ignored (blank ones). */
export function parsePrePush(input: string): PushedRef[] {
  const refs: PushedRef[] = [];
  for (const line of input.split('\n')) {
    const [localRef, localSha, remoteRef, remoteSha] = line.trim().split(/\s+/);
    if (
      localRef === undefined ||
      localSha === undefined ||
      remoteRef === undefined ||
      remoteSha === undefined
    )
      continue;
    if (ZEROS.test(localSha)) continue;
    refs.push({ localRef, localSha, remoteRef, remoteSha: ZEROS.test(remoteSha) ? null : remoteSha });
  }
  return refs;
}

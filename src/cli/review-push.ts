/**
 * `aide review --pre-push REMOTE`, what the pre-push hook runs: git's lines on stdin name each
 * ref pushed; each range is reviewed like `--from-ref A --to-ref B`: from what the remote has
 * (its sha, or for a new branch where the branch leaves the remote's branches) to the local sha.
 * A deletion has nothing to review. The exit code is the worst of the ranges'.
 */
import { parsePrePush } from '../core/hooks/pre-push.js';
import { ExitCode } from '../shared/errors.js';
import type { ReviewOptions } from './commands/review-options.js';
import type { CliIo, GlobalOptions } from './io.js';
import { runReview } from './review-run.js';
import { EMPTY_TREE, pushedRangeBase } from './wiring/push.js';
import { findWorkspaceRoot } from './wiring/workspace.js';

async function readAll(stream: CliIo['stdin']): Promise<string> {
  if (stream.isTTY === true) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer | string>)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

export async function runPushReview(
  remote: string,
  options: ReviewOptions,
  globals: GlobalOptions,
  io: CliIo,
): Promise<number> {
  const root = await findWorkspaceRoot(globals.cwd, io.env);
  const refs = parsePrePush(await readAll(io.stdin));
  let worst: number = ExitCode.ok;
  for (const ref of refs) {
    const base = await pushedRangeBase(root, io.env, remote, ref);
    if (base === null || base === ref.localSha) continue;
    if (!globals.json)
      io.stdout.write(
        `aide review: ${ref.localRef} -> ${remote} ${ref.remoteRef} (${base === EMPTY_TREE ? 'from the start' : base.slice(0, 12)}..${ref.localSha.slice(0, 12)})\n`,
      );
    const code = await runReview(
      { ...options, prePush: undefined, staged: false, fromRef: base, toRef: ref.localSha },
      globals,
      io,
    );
    if (code === ExitCode.interrupted) return code;
    worst = Math.max(worst, code);
  }
  if (refs.length === 0 && !globals.json) io.stdout.write('aide review: nothing pushed to review\n');
  return worst;
}

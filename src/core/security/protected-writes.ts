/**
 * The one decision every path that writes the workspace takes about protected files (threats
 * T6, T7) outside an act step review, which asks its own second question: `aide apply` today,
 * the model's write tools next. The rules are config.json's list as read before the change,
 * plus ALWAYS_PROTECTED; a protected file is written only on an explicit yes (a terminal
 * prompt or --allow-protected), and a flow that was given no approver writes none.
 */
import type { ChangedFile } from '../ports/changes.js';
import type { ProtectedApprover, ProtectedChange, ProtectedDecision } from '../ports/approval.js';
import { findProtected, type MatchOptions, type ProtectedCandidate } from './protected-paths.js';

export interface ProtectedPolicy extends MatchOptions {
  /** config.json protected_paths as on disk before the change: globs, or `glob#/pointer`. */
  rules: readonly string[];
}

/** What a writer needs to check protected files: the rules, and who may say yes. */
export interface ProtectedGuard {
  policy: ProtectedPolicy;
  approver: ProtectedApprover;
}

export interface ProtectedWrite {
  /** What writes, for the question: "aide apply". */
  command: string;
  /** The files the write changes, each under every name it has (a symlink's and its target's). */
  candidates: readonly ProtectedCandidate[];
  files: ChangedFile[];
  /** Nothing is written: the protected files are named, nobody is asked. */
  dryRun: boolean;
}

export interface ProtectedCheck {
  /** The protected files the write changes (named even in a dry run), each with its rule. */
  protectedFiles: ProtectedChange[];
  /** null: nothing protected, or a dry run; otherwise what the approver decided. */
  decision: ProtectedDecision | null;
}

/** Whether the write may go ahead: nothing protected, or an explicit yes. */
export function mayWrite(check: ProtectedCheck): boolean {
  return check.decision === null || check.decision.kind === 'approve';
}

/** The protected files a write changes (one entry per file), and the approver's decision on them. */
export async function checkProtectedWrite(
  write: ProtectedWrite,
  guard: ProtectedGuard,
): Promise<ProtectedCheck> {
  const found = await findProtected(guard.policy.rules, write.candidates, guard.policy);
  const seen = new Set<string>();
  const protectedFiles = found.filter((p) => !seen.has(p.path) && seen.add(p.path));
  if (protectedFiles.length === 0 || write.dryRun) return { protectedFiles, decision: null };
  const decision = await guard.approver.approveProtected({
    command: write.command,
    files: write.files,
    protectedFiles,
  });
  return { protectedFiles, decision };
}

/**
 * The apply flow: a model response in, every edit planned against the workspace, and the
 * changes written only if all of them apply (one atomic write per file). Dry runs stop
 * before the write.
 */
import { relative, sep } from 'node:path';
import { feedbackForModel } from '../edit/feedback.js';
import { parseResponse } from '../edit/parse-response.js';
import { planEdits, type BlockOutcome, type ContentChange, type FileInput } from '../edit/plan-edits.js';
import { decodeTextFile, encodeTextFile, lineCount, textFileContent } from '../edit/text-file.js';
import type { EditBlock, ParseProblem } from '../edit/types.js';
import { diffStat, unifiedDiff } from '../edit/unified-diff.js';
import type { AideEvent } from '../events.js';
import type { ChangedFile } from '../ports/changes.js';
import type { ProtectedChange, ProtectedDecision } from '../ports/approval.js';
import type { CheckpointResult, Checkpointer } from '../ports/checkpoints.js';
import type { FileSystem, FileWrite } from '../ports/files.js';
import { jailPath, type JailResult } from '../security/path-jail.js';
import type { ProtectedCandidate } from '../security/protected-paths.js';
import { checkProtectedWrite, mayWrite, type ProtectedGuard } from '../security/protected-writes.js';

export interface ApplyRequest {
  /** The model's response text. */
  response: string;
  /** The workspace root, a real (symlink-free) absolute path. */
  root: string;
  /** Plan and report, but write nothing. */
  dryRun: boolean;
}

export interface ApplyReport {
  /** Every block applied (or would apply, in a dry run) and the response had edits. */
  ok: boolean;
  dryRun: boolean;
  /** Files were written to the workspace. */
  written: boolean;
  /** Number of edit blocks found in the response. */
  blockCount: number;
  problems: ParseProblem[];
  blocks: BlockOutcome[];
  files: ChangedFile[];
  /** The checkpoint taken before writing (undo with `aide restore`); null when nothing was written. */
  checkpoint: CheckpointResult | null;
  /** The changed files protected_paths covers (named in a dry run too), each with its rule. */
  protectedFiles: ProtectedChange[];
  /** What was decided about them; null when none is protected or in a dry run. Anything but approve: nothing written. */
  protectedDecision: ProtectedDecision | null;
  /** What to tell the model on failure; empty when all applied. */
  forModel: string;
}

export interface ApplyDeps {
  fs: FileSystem;
  /** Takes the checkpoint that makes the apply undoable; absent, nothing is recorded. */
  checkpoints?: Checkpointer;
  /**
   * The protected-paths check for writes into the workspace. Absent only where the files are a
   * scratch's (aide act's edits): the step's review checks what the scratch changed.
   */
  protect?: ProtectedGuard;
}

interface Resolved {
  /** Blocks renamed to their canonical workspace path. */
  blocks: EditBlock[];
  inputs: Map<string, FileInput>;
  /** Real path on disk of each canonical path. */
  targets: Map<string, string>;
  rejected: BlockOutcome[];
}

async function readInput(fs: FileSystem, target: string): Promise<FileInput> {
  const bytes = await fs.readFile(target);
  if (bytes === null) return { state: 'missing' };
  const decoded = decodeTextFile(bytes);
  return decoded.ok
    ? { state: 'text', file: decoded.file }
    : { state: 'unreadable', reason: decoded.message };
}

function rejection(block: EditBlock, message: string, hint: string): BlockOutcome {
  const { index, line, path, format } = block;
  return { index, line, path, format, ok: false, failure: { kind: 'path-rejected', message, hint } };
}

/** Jails every block's path and reads each file once; blocks whose path is refused become failures. */
async function resolvePaths(blocks: readonly EditBlock[], root: string, fs: FileSystem): Promise<Resolved> {
  const resolved: Resolved = { blocks: [], inputs: new Map(), targets: new Map(), rejected: [] };
  const jailed = new Map<string, JailResult>();
  // Real path → the canonical path that claimed it: a lookup, not a scan per block (10,000 blocks).
  const claimed = new Map<string, string>();
  for (const block of blocks) {
    const jail = jailed.get(block.path) ?? (await jailPath(root, block.path, fs));
    jailed.set(block.path, jail);
    if (!jail.ok) {
      resolved.rejected.push(
        rejection(block, `aide refuses to edit ${block.path}: ${jail.reason}`, jail.hint),
      );
      continue;
    }
    // Two names for one file (a symlink and its target): planning them separately would let
    // the second write silently undo the first.
    const alias = claimed.get(jail.target);
    if (alias !== undefined && alias !== jail.path) {
      resolved.rejected.push(
        rejection(
          block,
          `${block.path} is the same file as ${alias} (through a symlink)`,
          `Edit it under one name only: ${alias}.`,
        ),
      );
      continue;
    }
    // A rename (git diff -M) reads the file it moves, through the same jail.
    let renameFrom: string | undefined;
    if (block.renameFrom !== undefined) {
      const source = jailed.get(block.renameFrom) ?? (await jailPath(root, block.renameFrom, fs));
      jailed.set(block.renameFrom, source);
      if (!source.ok) {
        resolved.rejected.push(
          rejection(block, `aide refuses to rename ${block.renameFrom}: ${source.reason}`, source.hint),
        );
        continue;
      }
      renameFrom = source.path;
      await readOnce(resolved, claimed, fs, source);
    }
    resolved.blocks.push({ ...block, path: jail.path, ...(renameFrom === undefined ? {} : { renameFrom }) });
    await readOnce(resolved, claimed, fs, jail);
  }
  return resolved;
}

/** Reads a jailed path's file the first time a block names it. */
async function readOnce(
  resolved: Resolved,
  claimed: Map<string, string>,
  fs: FileSystem,
  jail: { path: string; target: string },
): Promise<void> {
  if (resolved.inputs.has(jail.path)) return;
  resolved.inputs.set(jail.path, await readInput(fs, jail.target));
  resolved.targets.set(jail.path, jail.target);
  claimed.set(jail.target, jail.path);
}

/** "a.ts, b.ts and 3 more" */
function pathList(paths: readonly string[]): string {
  const shown = paths.slice(0, 3).join(', ');
  return paths.length > 3 ? `${shown} and ${paths.length - 3} more` : shown;
}

function summarize(change: ContentChange): ChangedFile {
  const action = change.before === null ? 'created' : change.after === null ? 'deleted' : 'modified';
  // A file created or deleted whole is one hunk of its every line: its counts are its line count,
  // and its diff (as large as the file: 20 MB for a 20 MB reply) is made only if something reads
  // it (a dry run, --json, a look at the diff before a yes), not for the usual one-line report.
  const whole = change.before === null ? change.after : change.after === null ? change.before : null;
  const count = whole === null ? 0 : lineCount(whole);
  if (whole === null || count === 0) {
    const diff = unifiedDiff(change.path, change.before, change.after);
    return { path: change.path, action, ...diffStat(diff), diff };
  }
  const counts = { added: change.before === null ? count : 0, removed: change.before === null ? 0 : count };
  let diff: string | undefined;
  // Enumerable, after the counts: JSON.stringify and a spread see it as the plain field it was.
  return Object.defineProperty({ path: change.path, action, ...counts }, 'diff', {
    enumerable: true,
    get: () => (diff ??= unifiedDiff(change.path, change.before, change.after)),
  }) as ChangedFile;
}

function toWrite(change: ContentChange, target: string): FileWrite {
  const previous = change.before === null ? null : encodeTextFile(change.before);
  if (change.after === null) return { kind: 'delete', path: target, previous: previous ?? new Uint8Array() };
  // Encoded while written, a piece at a time: all of a commit's files are written before any is renamed.
  return { kind: 'write', path: target, content: textFileContent(change.after), previous };
}

/** Each change under its written name and, when a symlink leads elsewhere, under its target's name too. */
function protectedCandidates(
  changes: readonly ContentChange[],
  targets: ReadonlyMap<string, string>,
  root: string,
): ProtectedCandidate[] {
  return changes.flatMap((change) => {
    const candidate = {
      before: () => Promise.resolve(change.before === null ? null : encodeTextFile(change.before)),
      after: () => Promise.resolve(change.after === null ? null : encodeTextFile(change.after)),
    };
    const target = targets.get(change.path);
    const real = target === undefined ? change.path : relative(root, target).split(sep).join('/');
    return real === change.path
      ? [{ path: change.path, ...candidate }]
      : [
          { path: change.path, ...candidate },
          { path: real, ...candidate },
        ];
  });
}

/** A response's edits parsed, their paths resolved and planned against the files: data, nothing written. */
async function planResponse(request: ApplyRequest, fs: FileSystem) {
  const parsed = parseResponse(request.response);
  const resolved = await resolvePaths(parsed.blocks, request.root, fs);
  const plan = planEdits(resolved.blocks, resolved.inputs);
  const outcomes = [...plan.outcomes, ...resolved.rejected].sort((a, b) => a.index - b.index);
  const ok = parsed.blocks.length > 0 && parsed.problems.length === 0 && outcomes.every((o) => o.ok);
  const files = ok ? plan.changes.map(summarize) : [];
  return { parsed, resolved, plan, outcomes, ok, files };
}

/**
 * A response's edits applied to files no one else reads (aide act's scratch copy): all or
 * nothing, with no checkpoint, no protected-paths guard (the step's review checks what the
 * scratch changed) and no events (the step's own events say what matters). The report is the data.
 */
export async function applyToScratch(request: Omit<ApplyRequest, 'dryRun'>, fs: FileSystem) {
  const { parsed, resolved, plan, outcomes, ok, files } = await planResponse(
    { ...request, dryRun: false },
    fs,
  );
  const written = ok && plan.changes.length > 0;
  if (written) await fs.commit(plan.changes.map((c) => toWrite(c, resolved.targets.get(c.path) ?? c.path)));
  return {
    ok,
    written,
    blockCount: parsed.blocks.length,
    problems: parsed.problems,
    blocks: outcomes,
    files,
    forModel: feedbackForModel(outcomes, parsed.problems, parsed.blocks.length),
  } satisfies Partial<ApplyReport>;
}

export async function* applyFlow(
  request: ApplyRequest,
  deps: ApplyDeps,
): AsyncGenerator<AideEvent, ApplyReport> {
  const { parsed, resolved, plan, outcomes, ok, files } = await planResponse(request, deps.fs);
  yield {
    type: 'edits_parsed',
    blocks: parsed.blocks.length,
    files: [...new Set(parsed.blocks.map((b) => b.path))],
    problems: parsed.problems,
  };
  for (const outcome of outcomes) yield { type: 'block_planned', outcome };
  let written = false;
  let checkpoint: CheckpointResult | null = null;
  // Before the checkpoint and any write: a protected file takes an explicit yes, or nothing is written.
  const guarded =
    ok && deps.protect !== undefined
      ? await checkProtectedWrite(
          {
            command: 'aide apply',
            candidates: protectedCandidates(plan.changes, resolved.targets, request.root),
            files,
            dryRun: request.dryRun,
          },
          deps.protect,
        )
      : { protectedFiles: [], decision: null };
  if (ok && !request.dryRun && plan.changes.length > 0 && mayWrite(guarded)) {
    // Before any write, so the apply can be undone; if it cannot be taken, nothing is written.
    if (deps.checkpoints !== undefined) {
      // Every path about to change, by its name and (through a symlink) the file behind it:
      // the checkpoint holds them even when git ignores them, so the apply can be undone.
      const paths = plan.changes.flatMap((c) => [
        c.path,
        relative(request.root, resolved.targets.get(c.path) ?? c.path)
          .split(sep)
          .join('/'),
      ]);
      checkpoint = await deps.checkpoints.checkpoint({
        reason: 'apply',
        message: `before aide apply to ${pathList(files.map((f) => f.path))}`,
        paths,
      });
      yield { type: 'checkpoint_created', result: checkpoint };
    }
    await deps.fs.commit(plan.changes.map((c) => toWrite(c, resolved.targets.get(c.path) ?? c.path)));
    written = true;
  }
  if (ok) yield { type: 'patch_applied', files, written };
  return {
    ok,
    dryRun: request.dryRun,
    written,
    blockCount: parsed.blocks.length,
    problems: parsed.problems,
    blocks: outcomes,
    files,
    checkpoint,
    protectedFiles: guarded.protectedFiles,
    protectedDecision: guarded.decision,
    forModel: feedbackForModel(outcomes, parsed.problems, parsed.blocks.length),
  };
}

/**
 * A step's edits in the scratch: applied all or nothing, and checked against what the capture
 * kept (git leaves ignored files out, so an edit to one would never reach the workspace).
 */
import { describeFailures } from '../edit/report-text.js';
import type { ScratchCapture } from '../ports/scratch.js';
import { plural } from '../../shared/text.js';
import type { Outcome, StepContext } from './act-types.js';
import { applyToScratch } from './apply.js';

/**
 * An author's edits applied in the scratch (all or nothing). The value says whether every
 * block was already in the files (a step re-run after an earlier session wrote it).
 */
export async function applyEdits(
  edits: string,
  ctx: StepContext,
): Promise<Outcome<{ alreadyApplied: boolean; written: string[] }>> {
  if (edits.trim() === '') return { ok: true, value: { alreadyApplied: false, written: [] } };
  const applied = await applyToScratch({ response: edits, root: ctx.deps.scratch.path }, ctx.deps.fs);
  if (!applied.ok) {
    // For the person reading the step (forModel is what a model would be told).
    if (applied.blockCount === 0 && applied.problems.length === 0)
      return {
        ok: false,
        reason: 'the edits did not apply: the Edits section holds no SEARCH/REPLACE block or diff',
      };
    const failed = applied.blocks.filter((b) => !b.ok).length + applied.problems.length;
    const head = `the edits did not apply (${failed} of ${plural(applied.blockCount + applied.problems.length, 'edit')} failed; none is written):`;
    return {
      ok: false,
      reason: [head, ...describeFailures(applied.blocks, applied.problems, "the step's edits")].join('\n'),
    };
  }
  return {
    ok: true,
    value: {
      alreadyApplied: applied.blocks.every((b) => b.ok && b.action === 'already-applied'),
      written: applied.files.map((f) => f.path),
    },
  };
}

/**
 * Why the capture lost files the step's edits wrote, or null when it lost none: git ignores them
 * (a new `.env`, or `src/.gitignore` saying `*` beside a new file), so they would never reach
 * the workspace. A failure, not a skip: the plan asked for those files, and a step reported as
 * done (or as "changes no file") would drop a written edit without a word; a failure says so
 * and stops the session before later steps build on files that are not there.
 */
export async function droppedEdits(
  written: readonly string[],
  capture: ScratchCapture,
  ctx: StepContext,
): Promise<string | null> {
  const captured = new Set(capture.changes.map((c) => c.path));
  const ignored = await ctx.deps.scratch.ignoredPaths(written.filter((path) => !captured.has(path)));
  if (ignored.length === 0) return null;
  const lines = ignored.map((i) => `  ${i.path} (ignored by ${i.rule})`);
  return [
    `the step wrote ${plural(ignored.length, 'file')} that git ignores, so ${ignored.length === 1 ? 'it' : 'they'} would never reach the workspace:`,
    ...lines,
    'Write them yourself, or change the ignore rules in an earlier step (the capture leaves ignored files out).',
  ].join('\n');
}

/**
 * An approval in words: the question and the lines shown above it. Core says what is asked
 * (ApprovalSubject); the approvers (approver.ts) and --json (act.ts) word it here.
 */
import type { ApprovalSubject } from '../../core/ports/approval.js';
import type { RestorePlan } from '../../core/ports/checkpoints.js';
import { plural } from '../../shared/text.js';
import { planQuestion } from './plan-changes.js';
import { fileLine, reviewQuestion } from './review.js';
import { makeStyle } from './style.js';

/** "Restore checkpoint 3f9c2a: write 2 files and remove 1 file?" */
function restoreText(plan: RestorePlan): { question: string; details: string[] } {
  const removed = plan.changes.filter((c) => c.action === 'deleted').length;
  const written = plan.changes.length - removed;
  return {
    question: `Restore checkpoint ${plan.target.short}: write ${plural(written, 'file')} and remove ${plural(removed, 'file')}?`,
    details: ['A checkpoint of the current state is taken first, so this restore can be undone.'],
  };
}

/** The question, and the lines above it: for a step its verdict, files and protected files, uncolored. */
export function approvalText(subject: ApprovalSubject): { question: string; details: string[] } {
  switch (subject.kind) {
    case 'step': {
      const plain = makeStyle(false);
      return {
        question: reviewQuestion(subject),
        details: [
          subject.verdict,
          ...subject.files.map((f) => fileLine(f, plain)),
          ...subject.protectedFiles.map((p) => `protected: ${p.path} (${p.rule})`),
        ],
      };
    }
    case 'restore':
      return restoreText(subject.plan);
    case 'plan_changed':
      return { question: planQuestion(subject.changes), details: [] };
    case 'question':
      return { question: subject.question, details: subject.details };
  }
}

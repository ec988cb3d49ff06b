/**
 * The Approver port's implementations: `auto` for --yes (which never approves a protected
 * file unless --allow-protected), `interactive` (enquirer) when a person is at a terminal. Without a terminal there is no approver at all: enquirer
 * without a TTY hangs on an open stdin or exits 0 silently at EOF (LESSONS.md), so the
 * command refuses before doing any work (exit 4) unless --yes or --dry-run decides.
 */
import type { Approval, Approver, StepDecision, StepReview } from '../core/ports.js';
import { AideError } from '../shared/errors.js';
import { isInteractive, type CliIo } from './io.js';
import { protectedList } from './render/act.js';

/**
 * --yes: every question is answered yes, except a step that changes a protected file: that one
 * is refused unless --allow-protected says the user expects it.
 */
export function autoApprover(allowProtected: boolean): Approver {
  return {
    confirm: () => Promise.resolve('yes'),
    reviewStep(review: StepReview): Promise<StepDecision> {
      if (review.protectedFiles.length === 0 || allowProtected) return Promise.resolve({ kind: 'approve' });
      return Promise.resolve({
        kind: 'refuse',
        reason:
          `it changes protected files: ${protectedList(review.protectedFiles)}. --yes does not approve those; ` +
          'pass --allow-protected as well if you expect it, or run aide act at a terminal to confirm them one by one',
      });
    },
  };
}

/** --dry-run: nothing is ever approved (the flows do not ask in a dry run anyway). */
export const neverApprover: Approver = {
  confirm: () => Promise.resolve('no'),
  reviewStep: () => Promise.resolve({ kind: 'skip' }),
};

export interface PromptStreams {
  stdin: NodeJS.ReadStream;
  /** Where the prompt is drawn (stderr under --json, so stdout stays one JSON document). */
  stdout: NodeJS.WriteStream;
}

/** Asks at the terminal; Ctrl-C or Escape counts as no. */
export function interactiveApprover(streams: PromptStreams): Approver {
  async function confirm(question: string, details: readonly string[]): Promise<Approval> {
    for (const line of details) streams.stdout.write(`${line}\n`);
    const { default: Enquirer } = await import('enquirer');
    try {
      const answer = await Enquirer.prompt<{ ok: boolean }>({ type: 'confirm', name: 'ok', message: question, initial: false, ...streams });
      return answer.ok ? 'yes' : 'no';
    } catch {
      // enquirer rejects when the prompt is cancelled.
      return 'no';
    } finally {
      // enquirer leaves the cursor on the answered question's line.
      streams.stdout.write('\n');
    }
  }
  return {
    confirm,
    async reviewStep(review: StepReview): Promise<StepDecision> {
      const files = review.files.map((f) => `${f.action === 'created' ? 'A' : f.action === 'deleted' ? 'D' : 'M'} ${f.path} +${f.added} -${f.removed}`);
      if ((await confirm(`Write step ${review.step} (${review.title}) into your files?`, [review.verdict, ...files])) === 'no') return { kind: 'skip' };
      if (review.protectedFiles.length === 0) return { kind: 'approve' };
      const warning = [`Warning: this step changes protected files: ${protectedList(review.protectedFiles)}`];
      return (await confirm('Write the protected files too?', warning)) === 'yes' ? { kind: 'approve' } : { kind: 'skip' };
    },
  };
}

export interface ApprovalChoice {
  /** --yes */
  yes: boolean;
  /** --allow-protected: --yes approves steps that change protected files too. */
  allowProtected?: boolean;
  /** --dry-run */
  dryRun: boolean;
  /** The command name, for the message. */
  command: string;
}

/**
 * The approver for a run, or the `approval_needed` error (exit 4) when no
 * one can be asked. Call it before any work, so that a refused run changes nothing.
 */
export function chooseApprover(choice: ApprovalChoice, io: CliIo, streams: () => PromptStreams): Approver {
  if (choice.dryRun) return neverApprover;
  if (choice.yes) return autoApprover(choice.allowProtected ?? false);
  if (isInteractive(io)) return interactiveApprover(streams());
  throw new AideError('approval_needed', `${choice.command} needs your approval, but there is no terminal to ask on (stdin and stdout must both be one)`, {
    hint: `Pass --yes to go ahead without asking, or --dry-run to only see what would change.`,
  });
}

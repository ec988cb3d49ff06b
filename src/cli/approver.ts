/**
 * The Approver port's implementations: `auto` for --yes (which never approves a protected
 * file unless --allow-protected), `interactive` (enquirer) when a person is at a terminal (aide
 * act's task tree is an approver of its own: render/act-tasks.ts). Without a terminal there is no approver at all: enquirer
 * without a TTY hangs on an open stdin or exits 0 silently at EOF (LESSONS.md), so the
 * command refuses before doing any work (exit 4) unless --yes or --dry-run decides.
 */
import type {
  Approval,
  Approver,
  ProtectedApprover,
  ProtectedWriteRequest,
  StepDecision,
  StepReview,
} from '../core/ports/approval.js';
import type { YesNoSubject } from '../core/ports/approval.js';
import { AideError } from '../shared/errors.js';
import { isInteractive, useColor, type CliIo } from './io.js';
import { protectedList } from './render/act.js';
import { approvalText } from './render/approval.js';
import { showText } from './render/pager.js';
import {
  protectedQuestion,
  REVIEW_CHOICES,
  reviewHeader,
  reviewQuestion,
  stepDiff,
  yesNo,
  type ReviewChoice,
} from './render/review.js';
import { makeStyle, type Style } from './render/style.js';
import { askStep, type StepPrompts } from './step-approver.js';
import { discardTypeahead } from './prompt-guard.js';

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
          // The same command with --allow-protected would start a new session; the resume carries this one on.
          'if you expect it, carry on with `aide act --resume --yes --allow-protected`, or run `aide act --resume` at a terminal to confirm them one by one',
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

/** What a step review needs besides the streams: PAGER and LESS for a long diff, and colors. */
export interface ReviewScreen {
  env: Readonly<Record<string, string | undefined>>;
  style: Style;
}

/**
 * Asks at the terminal with plain enquirer prompts (aide restore; aide act when there is no task
 * tree: --json, or a dumb terminal). A yes/no question's Ctrl-C or Escape counts as no; a step
 * review is the same menu as in the task tree, and cancelling it aborts (step-approver.ts).
 */
export function interactiveApprover(
  streams: PromptStreams,
  screen: ReviewScreen = { env: {}, style: makeStyle(false) },
): Approver {
  async function ask<T>(question: Record<string, unknown>): Promise<T | null> {
    const { default: Enquirer } = await import('enquirer');
    try {
      const answer = await Enquirer.prompt<{ value: T }>({
        name: 'value',
        type: 'input',
        message: '',
        ...question,
        ...streams,
      });
      return answer.value;
    } catch {
      // enquirer rejects when the prompt is cancelled.
      return null;
    } finally {
      // enquirer leaves the cursor on the answered question's line.
      streams.stdout.write('\n');
    }
  }
  async function confirm(subject: YesNoSubject): Promise<Approval> {
    const { question, details } = approvalText(subject);
    for (const line of details) streams.stdout.write(`${line}\n`);
    return (await ask<boolean>({ type: 'confirm', message: question, initial: false, format: yesNo })) ===
      true
      ? 'yes'
      : 'no';
  }
  const { style, env } = screen;
  const prompts: StepPrompts = {
    choose: async (review) => {
      streams.stdout.write(`${reviewHeader(review, style)}\n`);
      await discardTypeahead(streams.stdin);
      return ask<ReviewChoice>({
        type: 'select',
        message: reviewQuestion(review),
        choices: REVIEW_CHOICES.map((c) => ({ name: c.name, message: c.message })),
      });
    },
    confirmProtected: (review) =>
      ask<boolean>({ type: 'confirm', message: protectedQuestion(review), initial: false, format: yesNo }),
    showDiff: async (review) => {
      const out = streams.stdout;
      // The pager writes to the same terminal: stdout, or stderr under --json.
      const fd = (out as { fd?: unknown }).fd === 2 ? 2 : 1;
      await showText(stepDiff(review.files, style), {
        out,
        fd,
        size: { rows: out.rows, columns: out.columns },
        env,
      });
    },
  };
  return { confirm, reviewStep: (review) => askStep(review, prompts) };
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
  if (isInteractive(io))
    return interactiveApprover(streams(), { env: io.env, style: makeStyle(useColor(io)) });
  throw new AideError(
    'approval_needed',
    `${choice.command} needs your approval, but there is no terminal to ask on (stdin and stdout must both be one)`,
    {
      hint: `Pass --yes to go ahead without asking, or --dry-run to only see what would change.`,
    },
  );
}

export interface ProtectedChoice {
  /** --allow-protected */
  allowProtected: boolean;
  /** The exact command line that would allow it, for the hint: `aide apply --allow-protected reply.md`. */
  retry: string;
}

/** The files and the protected ones, shown above the question. */
function protectedDetails(request: ProtectedWriteRequest): string[] {
  return [
    ...request.files.map(
      (f) =>
        `${f.action === 'created' ? 'A' : f.action === 'deleted' ? 'D' : 'M'} ${f.path} +${f.added} -${f.removed}`,
    ),
    ...request.protectedFiles.map(
      (p) => `! protected: ${p.path} (rule ${p.rule}): writing it takes a second, explicit yes`,
    ),
  ];
}

/**
 * The second yes for protected files outside an act step (aide apply): --allow-protected gives
 * it; at a terminal it is asked (default no; Ctrl-C is no), the same yes/no prompt as every
 * other; without one it is refused, with the command that would allow it.
 */
export function protectedApprover(
  choice: ProtectedChoice,
  io: CliIo,
  streams: () => PromptStreams,
): ProtectedApprover {
  return {
    async approveProtected(request) {
      if (choice.allowProtected) return { kind: 'approve' };
      const files = protectedList(request.protectedFiles);
      if (!isInteractive(io)) {
        return {
          kind: 'refuse',
          reason: `${request.command} changes protected files: ${files}; writing them takes your explicit yes, and there is no terminal to ask on`,
          hint: `If you expect it, run: ${choice.retry}`,
        };
      }
      const count = request.protectedFiles.length;
      const question = `Write the protected ${count === 1 ? 'file' : 'files'} ${request.protectedFiles.map((p) => p.path).join(', ')}?`;
      const answer = await interactiveApprover(streams(), {
        env: io.env,
        style: makeStyle(useColor(io)),
      }).confirm({ kind: 'question', question, details: protectedDetails(request) });
      return answer === 'yes' ? { kind: 'approve' } : { kind: 'decline' };
    },
  };
}

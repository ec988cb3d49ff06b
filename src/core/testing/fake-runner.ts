/** A command runner and an approver that answer from a script, for unit tests of the flows. */
import type { Approval, Approver, StepDecision, StepReview, YesNoSubject } from '../ports/approval.js';
import type { CommandResult, CommandRun, CommandRunner, IsolationReport } from '../ports/commands.js';

const ISOLATED: IsolationReport = {
  mechanism: 'unshare',
  network: 'off',
  workspaceReadOnly: true,
  writable: 'scratch',
  sockets: 'hidden',
  processTree: 'namespace',
  detail: null,
};

/** What a scripted command does: its result fields, and files it writes into its cwd. */
export type CommandScript = (run: CommandRun) => Partial<CommandResult> | undefined;

/** A command runner that runs nothing: each command's result comes from the script (default: exit 0). */
export class FakeRunner implements CommandRunner {
  readonly isolation = ISOLATED;
  readonly calls: CommandRun[] = [];
  constructor(private readonly script: CommandScript = () => undefined) {}

  run(command: CommandRun): Promise<CommandResult> {
    this.calls.push(command);
    return Promise.resolve({
      exitCode: 0,
      signal: null,
      timedOut: false,
      cancelled: false,
      truncated: false,
      durationMs: 1,
      outputBytes: 0,
      tail: '',
      startError: null,
      ...this.script(command),
    });
  }
}

/** Answers from a script: the step decisions in order (then approve), and one answer to confirm. */
export class FakeApprover implements Approver {
  readonly reviews: StepReview[] = [];
  readonly questions: string[] = [];
  constructor(
    private readonly decisions: StepDecision[] = [],
    private readonly answer: Approval = 'yes',
  ) {}

  /** Records a question's words, or a short stand-in for a subject the CLI words (a restore, a changed plan). */
  confirm(subject: YesNoSubject): Promise<Approval> {
    this.questions.push(words(subject));
    return Promise.resolve(this.answer);
  }

  reviewStep(review: StepReview): Promise<StepDecision> {
    this.reviews.push(review);
    return Promise.resolve(this.decisions.shift() ?? { kind: 'approve' });
  }
}

function words(subject: YesNoSubject): string {
  switch (subject.kind) {
    case 'question':
      return subject.question;
    case 'plan_changed':
      return `plan changed: ${subject.changes.map((c) => `step ${c.step} ${c.kind}`).join(', ')}`;
    case 'restore':
      return `restore ${subject.plan.target.short}`;
  }
}

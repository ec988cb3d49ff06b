/**
 * How a resumed session's plan differs from the plan it recorded, step by step: shown when the
 * session resumes and asked about before it carries on. A leaf: the event stream, the approval
 * port and the reports import it.
 */
/** One way a step differs between the plan the session recorded and the plan now. */
export interface PlanChange {
  step: number;
  kind: 'changed' | 'added' | 'removed';
  /** The step had finished (applied, verified or skipped): it is not redone, and what it wrote stays. */
  done: boolean;
}

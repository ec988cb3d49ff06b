/**
 * A resumed session's plan changes in words: one line per change (shown when it resumes) and the
 * question asked before carrying on.
 */
import type { PlanChange } from '../../core/plan-change.js';

/** One line per change, for people. */
export function describePlanChanges(changes: readonly PlanChange[]): string[] {
  return changes.map(({ step, kind, done }) => {
    switch (kind) {
      case 'added':
        return `step ${step} is new`;
      case 'changed':
        return done
          ? `step ${step} changed, but it was done before the interruption: not redone`
          : `step ${step} changed: it runs as the plan has it now`;
      case 'removed':
        return done
          ? `step ${step} was removed from the plan; it was done before the interruption, so its changes stay`
          : `step ${step} was removed from the plan: it will not run`;
    }
  });
}

function listed(steps: readonly number[]): string {
  return `${steps.length === 1 ? 'step' : 'steps'} ${steps.join(', ')}`;
}

/** The question when the plan changed: what will run differently, in a few words. */
export function planQuestion(changes: readonly PlanChange[]): string {
  const of = (kind: PlanChange['kind']) =>
    changes.filter((c) => c.kind === kind && !c.done).map((c) => c.step);
  const parts = [
    ...(of('changed').length > 0 ? [`${listed(of('changed'))} changed`] : []),
    ...(of('added').length > 0 ? [`${listed(of('added'))} new`] : []),
    ...(of('removed').length > 0 ? [`${listed(of('removed'))} removed`] : []),
  ];
  return `The plan changed since the session stopped${parts.length === 0 ? '' : ` (${parts.join('; ')})`}. Carry on with the plan as it is now?`;
}

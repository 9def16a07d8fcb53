import { rewritesPinnedList } from './action-traits.js';
import type { Change, Plan } from './types.js';

/**
 * pinRewrites are the indexes in `plan.changes` of the pinned lists the plan's steps
 * rewrite, in the order apply sends them: what `--max-pin-changes` counts (a list
 * self-heal leaves for later, without a step, is not rewritten).
 */
export function pinRewrites(plan: Pick<Plan, 'changes' | 'steps'>): number[] {
  const sent = [...new Set(plan.steps.map((step) => step.change))];
  return sent.filter((index) => {
    const change: Change | undefined = plan.changes[index];
    return change !== undefined && rewritesPinnedList(change);
  });
}

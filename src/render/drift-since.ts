import type { Plan } from '../plan/types.js';

/**
 * The dates drift is told by (README, "Drift: who, what, when"), apart from its words so
 * the origin headings (`format.ts`) can say since when without importing the rest.
 */

/** when is an ISO time to the minute, in UTC: `2026-11-20 02:00 UTC`; a text that is not one, as it is. */
export function when(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return match === null ? iso : `${match[1]} ${match[2]} UTC`;
}

/** sinceLastApply names what a plan without --base judged origins against, for its headings. */
export function sinceLastApply(plan: Plan): string | undefined {
  if (plan.drifted === undefined || plan.scope?.base !== undefined) return undefined;
  const applied = plan.drifted.lastApplied;
  return applied === undefined ? 'since the last apply (no memory of it)' : `since the last apply (${applied.commit.slice(0, 7)}, ${when(applied.at)})`;
}

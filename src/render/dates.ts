import type { Plan } from '../plan/types.js';
import { safeText } from '../text/safe-text.js';

/**
 * The dates the plans are told by (README, "Drift: who, what, when"): a day, a time to
 * the minute, the last apply; apart from the words of drift so the origin headings
 * (`originHeading`) can say since when without importing the rest.
 */

/** when is an ISO time to the minute, in UTC: `2026-11-20 02:00 UTC`; a text that is not one, as it is. */
export function when(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return match === null ? iso : `${match[1]} ${match[2]} UTC`;
}

/** dayOf is the UTC day of an ISO 8601 time, `2026-11-20`; other text is shown as it is, made safe. */
export function dayOf(iso: string): string {
  return /^\d{4}-\d{2}-\d{2}T/.test(iso) ? iso.slice(0, 10) : safeText(iso);
}

/** appliedText names the last apply by its commit and time: `(1a2b3c4, 2026-11-20 02:00 UTC)`. */
export function appliedText(applied: { commit: string; at: string }): string {
  return `(${applied.commit.slice(0, 7)}, ${when(applied.at)})`;
}

/** sinceLastApply names what a plan without --base judged origins against, for its headings. */
export function sinceLastApply(plan: Plan): string | undefined {
  if (plan.drifted === undefined || plan.scope?.base !== undefined) return undefined;
  const applied = plan.drifted.lastApplied;
  return applied === undefined
    ? 'since the last apply (no memory of it)'
    : `since the last apply ${appliedText(applied)}`;
}

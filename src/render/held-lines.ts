import { formatPosition } from '../domain/source-position.js';
import { plural } from '../text/plural.js';
import type { HeldTarget, Plan } from '../plan/types.js';

/**
 * What the text and markdown plans say first about held targets (README, "Fail-safe
 * rules"): each target left out because of the live workspace, where, why and the way
 * out. Unescaped: the renderer escapes and marks the lines.
 */

/** heldHeading is the line above the held targets, or undefined when nothing is held. */
export function heldHeading(plan: Pick<Plan, 'held'>): string | undefined {
  const count = plan.held?.length ?? 0;
  if (count === 0) return undefined;
  return `Held: ${plural(count, 'target')} left out of this plan because of the live workspace (the rest is planned and can be applied):`;
}

/** heldEntry is one held target as two lines: what and why (with where), then the way out. */
export function heldEntry(held: HeldTarget): [string, string] {
  const where = held.source === undefined ? '' : `${formatPosition(held.source)}: `;
  return [`${where}[${held.code}] ${held.reason}`, `way out: ${held.wayOut}`];
}

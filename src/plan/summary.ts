import { actionNames } from '../kinds/kinds.js';
import type { Action, Change } from './types.js';

/**
 * summarize counts a plan's changes per action: every registered action (`actionNames`),
 * in the order plans list them, with 0 for those it has none of.
 */
export function summarize(changes: readonly Pick<Change, 'action'>[]): Record<Action, number> {
  const summary = Object.fromEntries(actionNames().map((action) => [action, 0])) as Record<Action, number>;
  for (const change of changes) summary[change.action] += 1;
  return summary;
}

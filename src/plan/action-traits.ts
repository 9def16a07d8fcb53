import { domainOfKind } from '../domain/domains.js';
import type { ActionCount, KindAction } from '../kinds/kind.js';

export type { ActionCount };
import { actionOf, kindActions } from '../kinds/kinds.js';
import type { Change } from './types.js';

/**
 * What an action is, asked of the action rather than of its name (its kind's
 * `KindAction`): whether it destroys, what the counts add it to, how a plan names it.
 * Gates, reports and renderers ask here, so a kind's new action is counted, refused and
 * shown as its kind says, with no list of action names to extend.
 */

/** ActionTraits are what a plan's readers ask of an action (`KindAction` without its schema). */
export type ActionTraits = Omit<KindAction, 'schema'>;

/** actionTraits are the traits of a change's action, as its kind gives them. */
export function actionTraits(change: Pick<Change, 'action'>): ActionTraits {
  return actionOf(change);
}

/** isDestructive tells whether a change destroys what apply cannot bring back (`KindAction.destructive`). */
export function isDestructive(change: Pick<Change, 'action'>): boolean {
  return actionOf(change).destructive === true;
}

/** rewritesPinnedList tells whether a change rewrites a member's pinned list (`countedAs: 'pinned'`): what `--max-pin-changes` counts. */
export function rewritesPinnedList(change: Pick<Change, 'action'>): boolean {
  return actionOf(change).countedAs === 'pinned';
}

/**
 * countedTotals adds a plan's per-action `summary` up by what each action is counted as
 * (`KindAction.countedAs`): the plan's totals line. Actions counted as nothing (drift)
 * and actions of no registered kind add nothing.
 */
export function countedTotals(summary: Readonly<Record<string, number>>): Record<ActionCount, number> {
  const totals: Record<ActionCount, number> = { created: 0, updated: 0, deleted: 0, pinned: 0 };
  for (const action of kindActions())
    if (action.countedAs !== undefined) totals[action.countedAs] += summary[action.action] ?? 0;
  return totals;
}

/**
 * destroyedWhat is what a list of destructive changes destroys, as the refusals of
 * `--max-deletes` count it: `views` when all are views (the built-in kinds' deletions),
 * else `targets`.
 */
export function destroyedWhat(changes: readonly Pick<Change, 'kind'>[]): 'views' | 'targets' {
  return changes.every((change) => domainOfKind(change.kind) !== undefined) ? 'views' : 'targets';
}

/** destructiveTotal is how many of a plan's changes destroy (`KindAction.destructive`), from its `summary`. */
export function destructiveTotal(summary: Readonly<Record<string, number>>): number {
  return kindActions()
    .filter((action) => action.destructive === true)
    .reduce((sum, action) => sum + (summary[action.action] ?? 0), 0);
}

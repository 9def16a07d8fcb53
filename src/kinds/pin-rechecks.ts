import { isPublicSaved } from '../domain/views.js';
import { pinsKey, type Live } from '../state/types.js';
import { jsonEqual } from './canonical.js';
import type { Change, PinChange } from './changes.js';
import type { RecheckProblem, SavedPlan } from './kind.js';
import { viewsAfterPlan, type ViewsAfterPlan } from './views-after-plan.js';

/**
 * recheckPins re-checks a saved plan's pinned lists against the lists and listings apply
 * re-read, as `plan` checks them: each list's `before` is the live list, it drops no
 * private tab without `unpinPrivate`, and every tab is a view the member pins today or
 * a public or default view, not one the plan deletes, shown with the name it will have.
 */
export function recheckPins(
  plan: SavedPlan,
  live: Live,
  isPinChange: (change: Change) => change is PinChange,
): RecheckProblem[] {
  const after = viewsAfterPlan(plan.changes);
  return plan.changes.flatMap((change, index) =>
    (isPinChange(change) ? pinProblems(change, live, after) : []).map((problem) => ({ index, problem })),
  );
}

function pinProblems(change: PinChange, live: Live, { deleted, renamedTo }: ViewsAfterPlan): string[] {
  const problems: string[] = [];
  const listing = live.views[change.domain] ?? [];
  const current = live.pins[pinsKey(change.domain, change.userEmail)];
  if (current === undefined) return [`the pinned list of ${change.userEmail} was not read`];
  if (
    !jsonEqual(
      change.before.map((tab) => tab.viewId),
      current.map((view) => view.viewId),
    )
  )
    problems.push('its before is not the live pinned list');
  const afterIds = new Set(change.after.map((tab) => tab.viewId));
  for (const view of current) {
    if (view.visibility === 'Private' && !afterIds.has(view.viewId) && change.unpinPrivate !== true) {
      problems.push(
        `drops the private view ${view.viewId} the member pins today, which only \`unpinPrivate: true\` allows`,
      );
    }
  }
  for (const tab of change.after) {
    if (tab.viewId === null) continue;
    const view =
      current.find((candidate) => candidate.viewId === tab.viewId) ??
      listing.find((candidate) => candidate.viewId === tab.viewId && (isPublicSaved(candidate) || candidate.isDefault));
    if (view === undefined) {
      problems.push(
        `pins ${tab.viewId}, which is neither pinned by ${change.userEmail} today nor a public or default view`,
      );
      continue;
    }
    if (deleted.has(`${change.domain}:${tab.viewId}`)) problems.push(`pins ${tab.viewId}, which the plan deletes`);
    const name = renamedTo.get(`${change.domain}:${tab.viewId}`) ?? view.name;
    if (tab.name !== name || tab.visibility !== view.visibility || tab.isDefault !== view.isDefault) {
      problems.push(`shows the tab ${tab.viewId} as "${tab.name}", which is not that view`);
    }
  }
  return problems;
}

import { isPublicSaved } from '../domain/views.js';
import type { Live } from '../state/types.js';
import { jsonEqual } from './canonical.js';
import type { Change, CreateChange, DeleteChange, UpdateChange } from './changes.js';
import type { RecheckProblem, SavedPlan } from './kind.js';
import { normalizeView, withoutAppOwned } from './normalize.js';
import { viewsAfterPlan, type ViewsAfterPlan } from './views-after-plan.js';
import { renameReasons } from './view-renames.js';

type ViewChange = CreateChange | UpdateChange | DeleteChange;

/**
 * recheckViews re-checks a saved plan's view changes against the listings apply re-read,
 * as `plan` checks them: a create's name is free after apply (and the id of a view
 * deleted in the app that it creates again is still gone), an update or delete acts
 * on a public saved view whose live state is its `before` (and a delete on its owner),
 * the renames break no name rule, and `creatorEmail` is an active member when the plan
 * creates views.
 */
export function recheckViews(
  plan: SavedPlan,
  live: Live,
  isViewChange: (change: Change) => change is ViewChange,
): RecheckProblem[] {
  const after = viewsAfterPlan(plan.changes);
  const problems: RecheckProblem[] = plan.changes.flatMap((change, index) =>
    (isViewChange(change) ? ruleProblems(change, live, after) : []).map((problem) => ({ index, problem })),
  );
  for (const reason of renameReasons(live, plan.changes))
    problems.push({ problem: `[${reason.code}] ${reason.message}` });
  const email = plan.creatorEmail?.toLowerCase();
  if (email !== undefined && live.users !== undefined && plan.changes.some((change) => change.action === 'create')) {
    const creator = live.users.find((user) => user.email.toLowerCase() === email);
    if (creator?.state !== 'Active')
      problems.push({
        problem: `creatorEmail ${plan.creatorEmail ?? ''} is not an active member; the service would refuse every create`,
      });
  }
  return problems;
}

function ruleProblems(change: ViewChange, live: Live, { deleted, renamedTo }: ViewsAfterPlan): string[] {
  const listing = live.views[change.domain] ?? [];
  if (change.action === 'create') {
    // The names views will have after apply: renames count with their new name, deletions not at all.
    const name = change.after.name;
    const taken = listing.filter(
      (view) =>
        (view.isDefault && view.name === name) ||
        (isPublicSaved(view) &&
          !deleted.has(`${change.domain}:${view.viewId}`) &&
          (renamedTo.get(`${change.domain}:${view.viewId}`) ?? view.name) === name),
    );
    if (taken.length > 0)
      return [
        `the name is taken by ${taken.map((view) => view.viewId).join(', ')} after apply; plan would bind or refuse, never create`,
      ];
    // Memory said the bound id was deleted in the app; it is listed again (made public again): plan would bind it, never create a copy.
    const back =
      change.deletedOutside === undefined
        ? undefined
        : listing.find((view) => view.viewId === change.deletedOutside?.id);
    return back === undefined
      ? []
      : [
          `${back.viewId}, which the plan took for deleted in the app, is listed again; plan would bind it, never create a copy`,
        ];
  }
  const view = listing.find((candidate) => candidate.viewId === change.id);
  if (view === undefined || view.visibility !== 'Public') {
    return [
      `${change.id} is not a public view the key can see (private, deleted or unknown); only public saved views are ${change.action}d`,
    ];
  }
  if (view.isDefault) return [`${change.id} is a built-in default view, which is never ${change.action}d`];
  const appOwns = change.action === 'update' ? change.appOwns : undefined;
  if (!jsonEqual(withoutAppOwned(change.before, appOwns), withoutAppOwned(normalizeView(change.domain, view), appOwns)))
    return [`its before is not the live state of ${change.id}`];
  if (change.action === 'delete' && change.ownerId !== view.ownerId)
    return [`names owner ${change.ownerId}, but ${change.id} belongs to ${view.ownerId}`];
  return [];
}

import type { PinChange, PinnedTab } from './changes.js';
import type { DriftCause, DriftPlan } from './drift-cause.js';
import { createdKey } from './kind.js';

/**
 * tabsCause compares the tabs a list holds live with those the manifests ask, private
 * tabs aside (they are the member's, kept): extra ones were added in the app, missing
 * ones removed, the same ones in another order re-ordered. Tabs missing only because
 * their view was deleted in the app (`plan.recreated`: the plan creates it again) went
 * with the view: the service unpins a deleted view from everyone, so the member removed
 * nothing (`lost-with-view`).
 */
export function tabsCause(change: PinChange, plan?: DriftPlan): DriftCause {
  const live = new Set(change.before.filter(listed).map(tabKey));
  const asked = new Set(change.after.filter(listed).map(tabKey));
  const added = [...live].some((key) => !asked.has(key));
  const missing = change.after.filter((tab) => listed(tab) && !live.has(tabKey(tab)));
  const removed = missing.length > 0;
  if (added && removed) return 'added-and-removed';
  if (added) return 'added';
  if (removed) return missing.every((tab) => lostWithView(change, tab, plan)) ? 'lost-with-view' : 'removed';
  // The shared tabs agree as sets: when they agree in order too, what differs is a private
  // tab the manifests take off (`unpinPrivate`) or pin by id, not a re-ordering.
  const shared = (tabs: readonly PinnedTab[]): string => tabs.filter(listed).map(tabKey).join('\u0000');
  if (shared(change.before) === shared(change.after)) {
    const all = (tabs: readonly PinnedTab[]): Set<string> => new Set(tabs.map(tabKey));
    const [liveAll, askedAll] = [all(change.before), all(change.after)];
    if ([...liveAll].some((key) => !askedAll.has(key))) return 'added';
    if ([...askedAll].some((key) => !liveAll.has(key))) return 'removed';
  }
  return 'reordered';
}

function listed(tab: PinnedTab): boolean {
  return tab.visibility !== 'Private';
}

function tabKey(tab: PinnedTab): string {
  return tab.viewId === null ? `new:${tab.name}` : `id:${tab.viewId}`;
}

/** lostWithView tells whether a missing tab names a view deleted in the app that the plan creates again. */
function lostWithView(change: PinChange, tab: PinnedTab, plan: DriftPlan | undefined): boolean {
  return tab.viewId === null && plan?.recreated.has(createdKey(change.domain, tab.name)) === true;
}

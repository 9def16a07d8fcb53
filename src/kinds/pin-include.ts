import type { ApiView } from '../domain/api-types.js';
import type { DesiredPins } from '../domain/desired.js';
import { didYouMean } from '../text/suggest.js';
import type { PinnedTab, PlanWarning } from './changes.js';
import type { DeclaredViewRef } from './declared-view-ref.js';

/** IncludeContext is what of the pin context an include list needs: the domain, its declared views and its listing. */
interface IncludeContext {
  domain: string;
  declared: readonly DeclaredViewRef[];
  listing: readonly ApiView[];
}

/**
 * The pinned list of a `mode: include` document (README, Manifests), as Google IAM's
 * additive member resources ensure one entry and leave the rest: the listed tabs must
 * be pinned, and everything else is the member's, their other tabs (public, default or
 * private) and the order of all tabs. A write adds the missing tabs in front, in the
 * listed order, and keeps every other tab where it is; `unpin` removes the tabs it
 * names where they are pinned. The service's PUT replaces the whole list, so the list
 * written is the live one with those edits.
 */

/** IncludedTabs is the list an include document leaves, and what it says of its `unpin` names. */
interface IncludedTabs {
  after: PinnedTab[];
  warnings: PlanWarning[];
}

/**
 * includedTabs is `current` (the live list, as tabs in `before`) with the `unpin` tabs
 * removed and the `listed` tabs it lacks put in front, in the listed order. An `unpin`
 * name that names no view at all (no manifest, no view of the domain's listing, no tab
 * of the member) is a warning with the closest names: a typo would otherwise remove
 * nothing, silently.
 */
export function includedTabs(
  pins: DesiredPins,
  current: readonly ApiView[],
  before: readonly PinnedTab[],
  listed: readonly PinnedTab[],
  context: IncludeContext,
): IncludedTabs {
  const warnings: PlanWarning[] = [];
  const unpinned = new Set<string>();
  for (const { name, source } of pins.unpin ?? []) {
    // A declared view is named as its manifest names it, even when the app calls it otherwise today.
    const ids = [
      ...context.declared.flatMap((view) => (view.name === name && view.viewId !== null ? [view.viewId] : [])),
      ...context.listing.filter((view) => view.name === name).map((view) => view.viewId),
      ...current.filter((view) => view.name === name).map((view) => view.viewId),
    ];
    for (const id of ids) unpinned.add(id);
    if (ids.length > 0 || context.declared.some((view) => view.name === name)) continue;
    const names = [...context.declared, ...context.listing, ...current].map((view) => view.name);
    const hint = didYouMean(name, names);
    warnings.push({
      code: 'pins.unpin-unknown',
      message: `"${name}" in \`unpin\` names no ${context.domain} view, so no tab of ${pins.userEmail} is removed${hint === undefined ? '' : `; ${hint}`}`,
      source,
    });
  }
  const kept = before.filter((tab) => tab.viewId === null || !unpinned.has(tab.viewId));
  const keys = new Set(kept.map(tabKey));
  const missing = listed.filter((tab) => !keys.has(tabKey(tab)));
  return { after: [...missing, ...kept], warnings };
}

/** tabKey compares tabs: by id, or by name for a view the plan creates. */
export function tabKey(tab: PinnedTab): string {
  return tab.viewId === null ? `new:${tab.name}` : `id:${tab.viewId}`;
}

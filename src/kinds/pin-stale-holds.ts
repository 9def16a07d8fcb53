import { pinsKey, type Live } from '../state/types.js';
import { quoted } from '../text/safe-text.js';
import type { HeldDependency } from './capabilities.js';
import type { Change, PinChange } from './changes.js';

/**
 * What `apply --plan` says of a pinned list whose target changed in the app since the
 * plan was reviewed, and which held view change a list depends on (README, "Fail-safe
 * rules": stale targets are held, not the plan).
 */

/**
 * pinStaleWhy says how the member's pinned list differs now from the plan's `before`:
 * its tabs (re-ordered, pinned or unpinned in the app), or, when they are as expected,
 * the domain's listing its names were resolved against.
 */
export function pinStaleWhy(change: PinChange, live: Live): string {
  const current = live.pins[pinsKey(change.domain, change.userEmail)];
  if (current === undefined) return 'its list was not read';
  const expected = change.before.map((tab) => tab.viewId);
  if (expected.join('\u0000') === current.map((view) => view.viewId).join('\u0000'))
    return `its tabs are as the plan expected, but not the ${change.domain} views their names were resolved against (one renamed, deleted, or made with a name the plan uses)`;
  const now = current.map((view) => quoted(view.name)).join(', ');
  const before = change.before.map((tab) => quoted(tab.name)).join(', ');
  return `the tabs are now ${now || '(none)'}; the plan expected ${before || '(none)'}`;
}

/**
 * pinDependsOn is the held view change a pinned list depends on: a tab naming a view a
 * held create makes (its write names it by that create's answer), or showing a view by
 * the name a held rename gives it. Written alone, the list would not be the one its
 * reviewer approved.
 */
export function pinDependsOn(change: PinChange, held: readonly Change[]): HeldDependency | undefined {
  for (const tab of change.after) {
    for (const other of held) {
      if (!('domain' in other) || other.domain !== change.domain) continue;
      if (tab.viewId === null && other.action === 'create' && other.after.name === tab.name)
        return { change: other, why: `it names ${quoted(tab.name)}, which the held create makes` };
      if (tab.viewId === null || !('id' in other) || other.id !== tab.viewId) continue;
      if (other.action === 'update' && other.before.name !== other.after.name)
        return {
          change: other,
          why: `it shows ${tab.viewId} as ${quoted(tab.name)}, the name the held rename gives it`,
        };
    }
  }
  return undefined;
}

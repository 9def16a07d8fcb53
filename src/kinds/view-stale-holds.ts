import type { ApiView } from '../domain/api-types.js';
import { isPublicSaved } from '../domain/views.js';
import type { Live } from '../state/types.js';
import { quoted } from '../text/safe-text.js';
import { jsonEqual } from './canonical.js';
import type { HeldDependency } from './capabilities.js';
import type { Change, CreateChange, DeleteChange, UpdateChange } from './changes.js';
import { normalizeView, withoutAppOwned } from './normalize.js';

/**
 * What `apply --plan` says of a saved view change whose target changed in the app since
 * the plan was reviewed, and which held change a view change depends on (README,
 * "Fail-safe rules": stale targets are held, not the plan).
 */

type ViewChange = CreateChange | UpdateChange | DeleteChange;

/**
 * viewStaleWhy says how the view `change` acts on differs now from the plan's `before`:
 * deleted (or made private) in the app, its name or other attributes changed, or, for a
 * create, a public view of its name made since.
 */
export function viewStaleWhy(change: ViewChange, live: Live): string {
  const listing = live.views[change.domain] ?? [];
  if (change.action === 'create') {
    const namesakes = listing.filter((view) => isPublicSaved(view) && view.name === change.after.name);
    if (namesakes.length === 0) return 'its domain is not as the plan expected';
    const ids = namesakes.map((view) => view.viewId).join(', ');
    return `a public view named ${quoted(change.after.name)} exists now (${ids}); the plan expected none, and creates one`;
  }
  const view = listing.find((candidate) => isPublicSaved(candidate) && candidate.viewId === change.id);
  if (view === undefined)
    return `the view is gone (deleted, or made private); the plan expected it public, as ${quoted(change.before.name)}`;
  return changedAttributes(change, view);
}

function changedAttributes(change: UpdateChange | DeleteChange, view: ApiView): string {
  const appOwns = change.action === 'update' ? change.appOwns : undefined;
  const now = withoutAppOwned(normalizeView(change.domain, view), appOwns);
  const expected = withoutAppOwned(change.before, appOwns);
  const changed = [...new Set([...Object.keys(now), ...Object.keys(expected)])]
    .filter((attribute) => !jsonEqual(now[attribute], expected[attribute]))
    .sort();
  const renamed = now.name !== expected.name;
  const others = changed.filter((attribute) => attribute !== 'name');
  const parts = [
    ...(renamed ? [`it is named ${quoted(view.name)} now; the plan expected ${quoted(change.before.name)}`] : []),
    ...(others.length === 0 ? [] : [`its ${others.join(', ')} changed from what the plan expected`]),
  ];
  return parts.length === 0 ? 'it is not as the plan expected' : parts.join('; ');
}

/**
 * viewDependsOn is the held change a view change depends on: a create, or a rename,
 * taking a name that a held deletion or rename was to free in the same domain (made
 * alone, two public views would share the name).
 */
export function viewDependsOn(change: ViewChange, held: readonly Change[]): HeldDependency | undefined {
  if (change.action === 'delete') return undefined;
  if (change.action === 'update' && change.before.name === change.after.name) return undefined;
  const name = change.after.name;
  for (const other of held) {
    if (other.action !== 'delete' && other.action !== 'update') continue;
    if (other.domain !== change.domain || other.before.name !== name) continue;
    if (other.action === 'update' && other.after.name === name) continue;
    const freeing = other.action === 'delete' ? 'deletion' : `rename to ${quoted(other.after.name)}`;
    return { change: other, why: `it takes the name ${quoted(name)}, which the held ${freeing} was to free` };
  }
  return undefined;
}

import type { Change } from './changes.js';

/**
 * What a plan's view changes do to the views others name: pinned lists resolve names
 * and ids against them, so saved-plan re-checks and scoped plans ask here.
 */

/**
 * ViewsAfterPlan is what a plan does to the names of existing views: which it deletes
 * and which it renames, each keyed `domain:id`. A saved plan's pinned lists are
 * re-checked against the names their tabs will have after apply.
 */
export interface ViewsAfterPlan {
  deleted: ReadonlySet<string>;
  renamedTo: ReadonlyMap<string, string>;
}

/** viewsAfterPlan collects the views `changes` delete and the new names of those they update. */
export function viewsAfterPlan(changes: readonly Change[]): ViewsAfterPlan {
  const deleted = new Set<string>();
  const renamedTo = new Map<string, string>();
  for (const change of changes) {
    if (change.action === 'delete') deleted.add(`${change.domain}:${change.id}`);
    if (change.action === 'update') renamedTo.set(`${change.domain}:${change.id}`, change.after.name);
  }
  return { deleted, renamedTo };
}

/** TouchedViews are the names and ids, as `domain:name` and `domain:id`, of the views a plan creates, renames or deletes. */
export interface TouchedViews {
  names: Set<string>;
  ids: Set<string>;
}

/**
 * touchedViews collects the views a plan's changes create (by name), rename (old and
 * new name, and id) or delete (name and id): a pinned list naming one of them
 * resolves differently after apply, or is refused, so it must be read.
 */
export function touchedViews(changes: readonly Change[]): TouchedViews {
  const touched: TouchedViews = { names: new Set(), ids: new Set() };
  for (const change of changes) {
    if (change.action === 'create') touched.names.add(`${change.domain}:${change.after.name}`);
    // A view created again after its deletion in the app: a `{viewId}` tab naming its old id now resolves to it.
    if (change.action === 'create' && change.deletedOutside !== undefined)
      touched.ids.add(`${change.domain}:${change.deletedOutside.id}`);
    if (change.action === 'update' && change.before.name !== change.after.name) {
      touched.names.add(`${change.domain}:${change.before.name}`);
      touched.names.add(`${change.domain}:${change.after.name}`);
      touched.ids.add(`${change.domain}:${change.id}`);
    }
    if (change.action === 'delete') {
      touched.names.add(`${change.domain}:${change.before.name}`);
      touched.ids.add(`${change.domain}:${change.id}`);
    }
  }
  return touched;
}

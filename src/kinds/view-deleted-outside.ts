import type { ApiView } from '../domain/api-types.js';
import type { Domain, ViewKind } from '../domain/domains.js';
import { viewTarget } from '../domain/targets.js';
import type { DesiredView } from '../state/types.js';
import type { SweepMemory, ViewMemory } from '../state/sweep-memory.js';
import type { Change, PlanWarning } from './changes.js';

/**
 * A declared view deleted in the app (README, "A declared view deleted in the app"): a
 * manifest binds a view by `viewId`, the service no longer lists that id, and the sweep
 * memory saw it live and public. Without that memory a typo, a private view and a
 * deleted view all look the same and the target is held; with it, the view was deleted
 * in the app, so the manifest is resolved as if it bound by name: the one live public
 * view of its name is the one that replaced it (the create of an earlier plan, or one
 * made by hand), and none means it is created again.
 */

/**
 * deletedInApp is what the memory remembers of `id` in `domain` when it saw it live
 * and public, which the caller knows the service no longer lists; undefined without a
 * memory, or when the memory never saw that id (a typo or a private view: held).
 */
export function deletedInApp(memory: SweepMemory | undefined, domain: Domain, id: string): ViewMemory | undefined {
  const seen = memory?.views[viewTarget(domain, id)];
  return seen !== undefined && seen.domain === domain && seen.id === id ? seen : undefined;
}

/**
 * replacedWarning says that `view`, bound by an id deleted in the app, resolved by name
 * to `replacement`, and how to make the manifest say so: the plan is in sync, but the
 * manifest still names an id that is gone, and a memory without it would hold the view.
 */
export function replacedWarning(
  kind: ViewKind,
  view: DesiredView & { viewId: string },
  replacement: ApiView,
): PlanWarning {
  const source = view.viewIdSource ?? view.source;
  return {
    code: 'view.id-replaced',
    message:
      `${kind} "${view.name}" binds to ${view.viewId}, which was deleted in the app; ` +
      `it resolves by name to ${replacement.viewId}, the view that replaced it: set \`viewId: ${replacement.viewId}\` in ${source.file}, ` +
      `or \`viewctl pull --target ${kind}/${view.name}\` rewrites it`,
    source,
  };
}

/**
 * DeletedInApp is what the sweep memory and a run's listings tell of the views deleted
 * in the app: the names (`domain:name`) of the views the memory saw live and public
 * that the listings read now no longer list.
 */
export interface DeletedInApp {
  names: ReadonlySet<string>;
}

/**
 * deletedInAppNow is what `memory` and the listings read now (`listings`, by domain;
 * a domain not read tells nothing) know of the views deleted in the app: each view the
 * memory remembers live and public whose domain was listed without it.
 */
export function deletedInAppNow(
  memory: SweepMemory | undefined,
  listings: Partial<Record<Domain, readonly Pick<ApiView, 'viewId'>[]>>,
): DeletedInApp {
  const names = new Set<string>();
  for (const seen of Object.values(memory?.views ?? {})) {
    const listing = listings[seen.domain];
    if (listing === undefined || listing.some((view) => view.viewId === seen.id)) continue;
    names.add(`${seen.domain}:${seen.name}`);
  }
  return { names };
}

/**
 * namesViewDeletedInApp tells whether `change` concerns, in its domain, a view of the
 * name of one deleted in the app (`deleted`): a pinned list whose tabs name one, or the
 * create or update of a declared view of that name (its create again, or the view
 * someone made by hand to replace it). A target held with such a view (its bound id not
 * found, a list naming it, a view of its name kept from prune) had the view's hold as
 * its cause, which ends once the view is known deleted.
 */
export function namesViewDeletedInApp(change: Change, deleted: DeletedInApp): boolean {
  if (change.action === 'pin') return change.after.some((tab) => deleted.names.has(`${change.domain}:${tab.name}`));
  if (change.action === 'create' || change.action === 'update')
    return deleted.names.has(`${change.domain}:${change.name}`);
  return false;
}

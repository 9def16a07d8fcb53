import { DOMAINS, VIEW_KINDS, type Domain } from '../domain/domains.js';
import type { Desired, Live } from '../state/types.js';
import { normalizeView } from '../kinds/normalize.js';
import type { NameMatcher } from '../text/glob.js';
import { isPublicSaved } from '../domain/views.js';
import { liveListing } from './views.js';
import { viewTarget } from '../domain/targets.js';
import type { DeleteChange } from './types.js';

/** PrunePlan is the deletions prune asks for and the views `ignore` kept from it. */
export interface PrunePlan {
  changes: DeleteChange[];
  warnings: string[];
}

/**
 * planPrune deletes, when the Workspace document sets `prune: true`, the public saved
 * views of each declared domain (one with at least one declared view) that no
 * manifest binds and no `ignore` glob matches. Defaults are never deleted; private
 * views are never listed, so never candidates.
 */
export function planPrune(desired: Desired, live: Live, claimed: ReadonlyMap<Domain, ReadonlySet<string>>, ignored: NameMatcher): PrunePlan {
  const result: PrunePlan = { changes: [], warnings: [] };
  if (!desired.workspace.prune) return result;
  const pinnedBy = pinnersById(live);
  const emailById = new Map((live.users ?? []).map((user) => [user.id, user.email]));
  for (const domain of DOMAINS) {
    const bound = claimed.get(domain);
    if (bound === undefined) continue;
    const keptByGlob = new Map<string, string[]>();
    for (const view of liveListing(live, domain)) {
      if (!isPublicSaved(view) || bound.has(view.viewId)) continue;
      const glob = ignored(view.name);
      if (glob !== undefined) {
        keptByGlob.set(glob, [...(keptByGlob.get(glob) ?? []), `"${view.name}" (${view.viewId})`]);
        continue;
      }
      const change: DeleteChange = {
        action: 'delete', target: viewTarget(domain, view.viewId), kind: VIEW_KINDS[domain], name: view.name,
        domain, id: view.viewId, before: normalizeView(domain, view), after: null, reason: 'prune',
        ownerId: view.ownerId, pinnedBy: [...(pinnedBy.get(`${domain}:${view.viewId}`) ?? [])].sort(),
      };
      const ownerEmail = emailById.get(view.ownerId);
      if (ownerEmail !== undefined) change.ownerEmail = ownerEmail;
      result.changes.push(change);
    }
    for (const [glob, names] of keptByGlob) {
      const shown = names.length > 5 ? [...names.slice(0, 5), `and ${names.length - 5} more`] : names;
      result.warnings.push(`ignore "${glob}" keeps ${names.length} undeclared ${VIEW_KINDS[domain]}${names.length === 1 ? '' : 's'} from prune: ${shown.join(', ')}`);
    }
  }
  return result;
}

/** pinnersById maps `domain:viewId` to the emails of the users read whose tabs pin it. */
function pinnersById(live: Live): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [key, views] of Object.entries(live.pins)) {
    const separator = key.indexOf(':');
    const domain = key.slice(0, separator);
    const email = key.slice(separator + 1);
    for (const view of views) {
      const id = `${domain}:${view.viewId}`;
      const set = out.get(id) ?? new Set<string>();
      set.add(email);
      out.set(id, set);
    }
  }
  return out;
}

import { DOMAINS, VIEW_KINDS, type Domain } from '../domain/domains.js';
import type { Desired, Live } from '../state/types.js';
import { normalizeView } from './normalize.js';
import { isPublicSaved } from '../domain/views.js';
import { liveListing, matchViews } from './view-identity.js';
import { InternalError } from '../errors.js';
import { compileGlobs, type NameMatcher } from '../text/glob.js';
import { viewTarget } from '../domain/targets.js';
import type { DeleteChange, HeldTarget, PlanWarning } from './changes.js';
import type { HeldViewRef } from './declared-view-ref.js';

/** PrunePlan is the deletions prune asks for, the views `ignore` kept from it, and those held because a held manifest has their name. */
interface PrunePlan {
  changes: DeleteChange[];
  warnings: PlanWarning[];
  held: HeldTarget[];
}

/**
 * planPrune deletes, when the Workspace document sets `prune: true`, the public saved
 * views of each declared domain (one with at least one declared view) that no
 * manifest binds and no `ignore` glob matches; with `prune: owned`, only those owned
 * by `creatorEmail`, so views people create in the app are never deleted. Defaults
 * are never deleted; private views are never listed, so never candidates. Users must
 * have been read whenever `prunesViews` says so: deletes name their owner's email.
 * A candidate with the name of a held manifest (`heldViews`: its bound id is gone) is
 * held, not deleted: it may be the view that replaced one deleted in the app, which a
 * plan without the sweep memory cannot tell.
 */
export function planPrune(
  desired: Desired,
  live: Live,
  claimed: ReadonlyMap<Domain, ReadonlySet<string>>,
  ignored: NameMatcher,
  heldViews: ReadonlyMap<Domain, readonly HeldViewRef[]> = new Map(),
): PrunePlan {
  const result: PrunePlan = { changes: [], warnings: [], held: [] };
  if (desired.workspace.prune === false) return result;
  const pinnedBy = pinnersById(live);
  const emailById = new Map((live.users ?? []).map((user) => [user.id, user.email]));
  let owner: ((ownerId: string) => boolean) | undefined;
  for (const domain of DOMAINS) {
    const bound = claimed.get(domain);
    if (bound === undefined) continue;
    const keptByGlob = new Map<string, string[]>();
    for (const view of liveListing(live, domain)) {
      if (!isPublicSaved(view) || bound.has(view.viewId)) continue;
      // Decided at the first candidate: `prunesViews` has the users read only when there is one.
      owner ??= ownerFilter(desired, live, result.warnings);
      if (!owner(view.ownerId)) continue;
      const glob = ignored(view.name);
      if (glob !== undefined) {
        keptByGlob.set(glob, [...(keptByGlob.get(glob) ?? []), `"${view.name}" (${view.viewId})`]);
        continue;
      }
      const held = heldViews
        .get(domain)
        ?.find((candidate) => candidate.viewId !== null && candidate.name === view.name);
      if (held !== undefined) {
        result.held.push({
          target: viewTarget(domain, view.viewId),
          code: 'prune.names-held-view',
          reason: `${VIEW_KINDS[domain]} "${view.name}" (${view.viewId}) is not pruned: it has the name of the held manifest that binds ${held.viewId ?? ''}, and may be the view that replaced it`,
          wayOut: `if it replaced it, set \`viewId: ${view.viewId}\` in that manifest; otherwise fix the manifest's id, or rename one of them`,
        });
        continue;
      }
      const ownerEmail = emailById.get(view.ownerId);
      result.changes.push({
        action: 'delete',
        target: viewTarget(domain, view.viewId),
        kind: VIEW_KINDS[domain],
        name: view.name,
        domain,
        id: view.viewId,
        before: normalizeView(domain, view),
        after: null,
        reason: 'prune',
        ownerId: view.ownerId,
        pinnedBy: [...(pinnedBy.get(`${domain}:${view.viewId}`) ?? [])].sort(),
        ...(ownerEmail === undefined ? {} : { ownerEmail }),
      });
    }
    for (const [glob, names] of keptByGlob) {
      const shown = names.length > 5 ? [...names.slice(0, 5), `and ${names.length - 5} more`] : names;
      result.warnings.push({
        code: 'prune.kept-by-ignore',
        message: `ignore "${glob}" keeps ${names.length} undeclared ${VIEW_KINDS[domain]}${names.length === 1 ? '' : 's'} from prune: ${shown.join(', ')}`,
      });
    }
  }
  return result;
}

/**
 * prunesViews tells, from the listings alone, whether prune may delete a view, so the
 * reader spends the users read (1 request per 100 members) only then: a delete shows
 * its owner's email, and `prune: owned` needs the creator's id.
 */
export function prunesViews(desired: Desired, views: Live['views']): boolean {
  if (desired.workspace.prune === false) return false;
  // Under `owned`, owners are checked before `ignore`, so even an ignored candidate needs them.
  const ignored = desired.workspace.prune === 'owned' ? () => undefined : compileGlobs(desired.workspace.ignore);
  for (const [domain, bound] of matchViews(desired, { views }).claimed) {
    if (
      liveListing({ views }, domain).some(
        (view) => isPublicSaved(view) && !bound.has(view.viewId) && ignored(view.name) === undefined,
      )
    )
      return true;
  }
  return false;
}

/**
 * ownerFilter is which owners prune may delete from: anyone under `prune: true`; under
 * `prune: owned` only the account `creatorEmail` names (none, with a warning, when it
 * is not a member: then no view is viewctl's).
 */
function ownerFilter(desired: Desired, live: Live, warnings: PlanWarning[]): (ownerId: string) => boolean {
  if (desired.workspace.prune !== 'owned') return () => true;
  const email = desired.workspace.creatorEmail;
  if (live.users === undefined)
    throw new InternalError('live state lacks the users that `prune: owned` needs to find the views creatorEmail owns');
  const creator =
    email === undefined ? undefined : live.users.find((user) => user.email.toLowerCase() === email.toLowerCase());
  if (creator === undefined) {
    warnings.push({
      code: 'prune.creator-owns-nothing',
      message: `prune: owned deletes nothing: creatorEmail ${email ?? '(not set)'} is not a member of the workspace, so it owns no view`,
    });
    return () => false;
  }
  return (ownerId) => ownerId === creator.id;
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
      out.set(id, (out.get(id) ?? new Set<string>()).add(email));
    }
  }
  return out;
}

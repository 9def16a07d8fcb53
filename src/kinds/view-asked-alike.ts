import type { Domain } from '../domain/domains.js';
import type { Desired, Live } from '../state/types.js';
import { compileGlobs } from '../text/glob.js';
import { jsonEqual } from './canonical.js';
import type { CreateChange, DeleteChange, UpdateChange } from './changes.js';
import type { ChangeTest } from './kind.js';
import { matchViews } from './view-identity.js';
import { planPrune } from './view-prune.js';

/**
 * Whether the manifests at `--base REF` ask of a change's target what the current
 * manifests ask (README, "Changes made outside viewctl, labelled"). REF's manifests go
 * through the kinds' own functions against the same live state as the plan, so every
 * route that decides a target decides it here too: the view's document and which live
 * view it binds (by id or by name), which view each pinned name resolves to (a name the
 * pull request gives to a new view no longer means the old one), the group a member's
 * list comes from, `prune`, `ignore`, the domains that have declared views, `creatorEmail`
 * under `prune: owned`, and the AdminAutomations document. Comparing what is asked, not
 * the lines that ask it, is what makes two states of the manifests alike. Each kind
 * compares its own changes (`DriftLabels.askedAlike`): the saved views here, the pinned lists
 * (through REF's views, `baseViewsOf`) in pinned-views.ts, drift in admin-automations.ts.
 */

/** BaseViews is what REF's manifests decide about one domain's views against today's listing. */
export interface BaseViews {
  /** The creates and updates REF's documents ask for. */
  changes: readonly (CreateChange | UpdateChange)[];
  /** Views as REF's pinned names resolve to them. */
  declared: ReturnType<typeof matchViews>['declared'];
  /** Ids REF's prune deletes, with their names; undefined when it cannot be told (see `basePrune`). */
  pruned: ReadonlyMap<string, string> | undefined;
}

/**
 * baseViewsOf answers, per domain and computed once each, what REF's view documents
 * decide against today's listing (`BaseViews`), or undefined where the plan did not
 * read the listing: the saved views and the pinned lists are both compared through it.
 */
export function baseViewsOf(base: Desired, live: Live): (domain: Domain) => BaseViews | undefined {
  const views = new Map<Domain, BaseViews | undefined>();
  return (domain) => {
    if (!views.has(domain)) views.set(domain, baseViews(base, live, domain));
    return views.get(domain);
  };
}

/**
 * viewsAskedAlike tells, for each view change of a plan of the current manifests
 * against `live`, whether `base` (the manifests at REF) yields the same change against
 * the same `live`: the same view created or updated to the same attributes, the same
 * view pruned. REF is compared only where the plan read (the domain of a change).
 */
export function viewsAskedAlike(base: Desired, live: Live): ChangeTest<CreateChange | UpdateChange | DeleteChange> {
  const viewsOf = baseViewsOf(base, live);
  return {
    test(change) {
      const domainViews = viewsOf(change.domain);
      if (domainViews === undefined) return false;
      return change.action === 'delete'
        ? pruneAskedAlike(change, domainViews)
        : viewChangeAskedAlike(change, domainViews);
    },
  };
}

/**
 * baseViews matches REF's view documents of `domain` to today's listing, as the plan
 * matches the current ones; undefined when the plan did not read that listing.
 */
function baseViews(base: Desired, live: Live, domain: Domain): BaseViews | undefined {
  if (live.views[domain] === undefined) return undefined;
  const matched = matchViews({ ...base, views: base.views.filter((view) => view.domain === domain) }, live);
  return { changes: matched.changes, declared: matched.declared, pruned: basePrune(base, live, domain, matched) };
}

/**
 * basePrune is what REF's prune deletes in `domain` today: nothing when REF declares no
 * view there or does not prune, and undefined (cannot tell) when REF's documents of
 * the domain are refused (which views they bind is unsettled) or `prune: owned` needs
 * users the plan did not read.
 */
function basePrune(
  base: Desired,
  live: Live,
  domain: Domain,
  matched: ReturnType<typeof matchViews>,
): ReadonlyMap<string, string> | undefined {
  if (matched.reasons.length > 0) return undefined;
  if (base.workspace.prune === 'owned' && live.users === undefined) return undefined;
  const pruned = planPrune(base, live, matched.claimed, compileGlobs(base.workspace.ignore));
  return new Map(pruned.changes.filter((change) => change.domain === domain).map((change) => [change.id, change.name]));
}

/**
 * viewChangeAskedAlike: REF's documents create the same view (no live view bound, the
 * same attributes) or update the same live view to the same attributes. REF asking
 * nothing of the view, or asking what it is live, is not alike.
 */
export function viewChangeAskedAlike(change: CreateChange | UpdateChange, views: Pick<BaseViews, 'changes'>): boolean {
  const atBase = views.changes.find((candidate) => candidate.target === change.target);
  return atBase !== undefined && jsonEqual(atBase.after, change.after);
}

/**
 * pruneAskedAlike: REF's prune deletes the same live view today, so REF did not declare
 * it, pruned its domain, left it to `ignore` no more than now and, under `prune: owned`,
 * named its owner as `creatorEmail`. When that cannot be told, not alike.
 */
export function pruneAskedAlike(change: DeleteChange, views: Pick<BaseViews, 'pruned'>): boolean {
  return views.pruned?.has(change.id) === true;
}

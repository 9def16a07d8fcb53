import type { Domain } from '../domain/domains.js';
import { parseTarget } from '../domain/targets.js';
import { automationDrift } from '../kinds/admin-automations.js';
import { jsonEqual } from '../kinds/canonical.js';
import type { CreateChange, DeleteChange, DriftChange, PinChange, PinnedTab, UpdateChange } from '../kinds/changes.js';
import { memberPinLists } from '../kinds/pin-members.js';
import { planPins } from '../kinds/pinned-views.js';
import { matchViews } from '../kinds/view-identity.js';
import { planPrune } from '../kinds/view-prune.js';
import type { Desired, DesiredPins, Live } from '../state/types.js';
import { compileGlobs } from '../text/glob.js';
import type { Change } from './types.js';

/**
 * Whether the manifests at `--base REF` ask of a change's target what the current
 * manifests ask (README, "Changes made outside viewctl, labelled"). REF's manifests go
 * through the kinds' own functions against the same live state as the plan, so every
 * route that decides a target decides it here too: the view's document and which live
 * view it binds (by id or by name), which view each pinned name resolves to (a name the
 * pull request gives to a new view no longer means the old one), the group a member's
 * list comes from, `prune`, `ignore`, the domains that have declared views, `creatorEmail`
 * under `prune: owned`, and the AdminAutomations document. Comparing what is asked, not
 * the lines that ask it, is what makes two states of the manifests alike.
 */

/** BaseViews is what REF's manifests decide about one domain's views against today's listing. */
interface BaseViews {
  /** The creates and updates REF's documents ask for. */
  changes: readonly (CreateChange | UpdateChange)[];
  /** Views as REF's pinned names resolve to them. */
  declared: ReturnType<typeof matchViews>['declared'];
  /** Ids REF's prune deletes, with their names; undefined when it cannot be told (see `basePrune`). */
  pruned: ReadonlyMap<string, string> | undefined;
}

/**
 * askedAlike tells, for each change of a plan of the current manifests against `live`,
 * whether `base` (the manifests at REF) yields the same change against the same `live`:
 * the same view created or updated to the same attributes, the same view pruned, the
 * same tabs pinned, the same drift. `live` holds what the plan read; REF is compared
 * only where the plan read (the domain of a change, the pinned list it changes).
 */
export function askedAlike(base: Desired, live: Live): (change: Change) => boolean {
  const views = new Map<Domain, BaseViews | undefined>();
  const viewsOf = (domain: Domain): BaseViews | undefined => {
    if (!views.has(domain)) views.set(domain, baseViews(base, live, domain));
    return views.get(domain);
  };
  let lists: Map<string, DesiredPins> | undefined;
  let drift: DriftChange[] | undefined;
  return (change) => {
    const domainViews = 'domain' in change ? viewsOf(change.domain) : undefined;
    switch (change.action) {
      case 'create':
      case 'update':
        return domainViews !== undefined && viewChangeAskedAlike(change, domainViews);
      case 'delete':
        return domainViews !== undefined && pruneAskedAlike(change, domainViews);
      case 'pin':
        lists ??= new Map(memberPinLists(base, live.users).lists.map(({ key, ...pins }) => [key, pins]));
        return domainViews !== undefined && pinsAskedAlike(change, lists, live, domainViews);
      case 'drift':
        drift ??= baseDrift(base, live);
        return driftAskedAlike(change, drift);
    }
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
function basePrune(base: Desired, live: Live, domain: Domain, matched: ReturnType<typeof matchViews>): ReadonlyMap<string, string> | undefined {
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

/**
 * pinsAskedAlike: REF gives the member a list (by a `userEmail` document or a group)
 * that resolves, against today's listing and REF's view documents, to the same tabs in
 * the same order. A name resolves through the documents that declare it: a name that
 * meant a live view at REF and means a view the pull request creates is not alike.
 */
export function pinsAskedAlike(change: PinChange, lists: ReadonlyMap<string, DesiredPins>, live: Live, views: BaseViews): boolean {
  const parsed = parseTarget(change.target);
  if (parsed?.type !== 'pins') return false;
  const key = change.target.slice('pins:'.length);
  const list = lists.get(key);
  const current = live.pins[key];
  const listing = live.views[parsed.domain];
  if (list === undefined || current === undefined || listing === undefined) return false;
  const outcome = planPins(list, current, {
    domain: parsed.domain,
    declared: views.declared.get(parsed.domain) ?? [],
    listing,
    deleted: views.pruned ?? new Map(),
  });
  // A list REF's manifests refuse, or leave as it is live, asks something else.
  if (outcome.reasons.length > 0 || outcome.change === undefined) return false;
  return jsonEqual(tabKeys(outcome.change.after), tabKeys(change.after));
}

/** tabKeys is what a pinned list writes: each tab's view id, or the name of a view the plan creates. */
function tabKeys(tabs: readonly PinnedTab[]): string[] {
  return tabs.map((tab) => (tab.viewId === null ? `new:${tab.name}` : `id:${tab.viewId}`));
}

/** baseDrift is the drift REF's AdminAutomations document finds in today's automations. */
function baseDrift(base: Desired, live: Live): DriftChange[] {
  if (base.automations === undefined || live.automations === undefined) return [];
  return automationDrift(base.automations, live.automations, compileGlobs(base.workspace.ignore));
}

/**
 * driftAskedAlike: REF's expectations find the same difference in the same automation
 * (the same expected attributes and priority, or the same missing or unexpected one).
 */
export function driftAskedAlike(change: DriftChange, atBase: readonly DriftChange[]): boolean {
  return atBase.some((candidate) => candidate.name === change.name && candidate.id === change.id
    && jsonEqual(candidate.after, change.after) && jsonEqual(candidate.differences, change.differences));
}

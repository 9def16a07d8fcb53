import type { ApiView } from '../domain/api-types.js';
import { isPublicSaved } from '../domain/views.js';
import { jsonEqual } from '../kinds/canonical.js';
import { kindOf } from '../kinds/kinds.js';
import { normalizeView } from '../kinds/normalize.js';
import { pinsKey, type Live } from '../state/types.js';
import { renameReasons } from './renames.js';
import type { Change, PinChange, Plan } from './types.js';

/**
 * A saved plan is only as trustworthy as its content: its digest is an unkeyed SHA-256
 * whose recipe the README gives, so anyone who can edit the file can recompute it.
 * `apply --plan` therefore never trusts a change's fields to agree with each other or
 * with the workspace. These checks make sure a plan file can do nothing `plan` would
 * have refused: each change acts on exactly its stale-checked target, its `before` is
 * the live state, its patch is what `before` and `after` imply, and the fail-safe
 * rules hold against the live state apply re-read. Each problem is one line naming
 * the change (`changes[3] update RecordingView "X"`).
 */

/**
 * identityProblems lists changes whose fields disagree with each other; no live state
 * needed. The kind that owns a change names its target and checks its fields
 * (`Kind.target`, `Kind.identityProblems`); two changes of one target is plan-wide.
 */
export function identityProblems(plan: Plan): string[] {
  const seen = new Map<string, number>();
  return perChange(plan, (change, index) => {
    const kind = kindOf(change);
    const expected = kind.target(change);
    const problems = change.target === expected ? [] : [`its target is ${change.target}, but what it changes is ${expected}`];
    if (change.action !== 'drift') {
      const earlier = seen.get(change.target);
      if (earlier !== undefined) problems.push(`changes the same target as changes[${earlier}]`);
      seen.set(change.target, index);
    }
    return [...problems, ...kind.identityProblems(change, plan.creatorEmail)];
  });
}

/**
 * liveRuleProblems re-checks the fail-safe rules for every change against the live
 * state apply re-read (the listings of the domains it touches and the pinned lists it
 * replaces), as `plan` checks them against the live state it reads.
 */
export function liveRuleProblems(plan: Plan, live: Live): string[] {
  const deleted = new Set(plan.changes.flatMap((change) => (change.action === 'delete' ? [`${change.domain}:${change.id}`] : [])));
  const renamedTo = new Map(plan.changes.flatMap((change) => (change.action === 'update' ? [[`${change.domain}:${change.id}`, change.after.name] as const] : [])));
  const problems = perChange(plan, (change) => ruleProblems(change, live, deleted, renamedTo));
  for (const reason of renameReasons(live, plan.changes)) problems.push(`[${reason.code}] ${reason.message}`);
  const email = plan.creatorEmail?.toLowerCase();
  if (email !== undefined && live.users !== undefined && plan.changes.some((change) => change.action === 'create')) {
    const creator = live.users.find((user) => user.email.toLowerCase() === email);
    if (creator?.state !== 'Active') problems.push(`creatorEmail ${plan.creatorEmail ?? ''} is not an active member; the service would refuse every create`);
  }
  return problems;
}

function ruleProblems(change: Change, live: Live, deleted: ReadonlySet<string>, renamedTo: ReadonlyMap<string, string>): string[] {
  if (change.action === 'drift') return [];
  const listing = live.views[change.domain] ?? [];
  switch (change.action) {
    case 'create': {
      // The names views will have after apply: renames count with their new name, deletions not at all.
      const name = change.after.name;
      const taken = listing.filter((view) => (view.isDefault && view.name === name)
        || (isPublicSaved(view) && !deleted.has(`${change.domain}:${view.viewId}`) && (renamedTo.get(`${change.domain}:${view.viewId}`) ?? view.name) === name));
      return taken.length === 0 ? [] : [`the name is taken by ${taken.map((view) => view.viewId).join(', ')} after apply; plan would bind or refuse, never create`];
    }
    case 'update':
    case 'delete': {
      const view = listing.find((candidate) => candidate.viewId === change.id);
      if (view === undefined || view.visibility !== 'Public') {
        return [`${change.id} is not a public view the key can see (private, deleted or unknown); only public saved views are ${change.action}d`];
      }
      if (view.isDefault) return [`${change.id} is a built-in default view, which is never ${change.action}d`];
      if (!jsonEqual(change.before, normalizeView(change.domain, view))) return [`its before is not the live state of ${change.id}`];
      if (change.action === 'delete' && change.ownerId !== view.ownerId) return [`names owner ${change.ownerId}, but ${change.id} belongs to ${view.ownerId}`];
      return [];
    }
    case 'pin':
      return pinProblems(change, live, listing, deleted, renamedTo);
  }
}

function pinProblems(
  change: PinChange,
  live: Live,
  listing: readonly ApiView[],
  deleted: ReadonlySet<string>,
  renamedTo: ReadonlyMap<string, string>,
): string[] {
  const problems: string[] = [];
  const current = live.pins[pinsKey(change.domain, change.userEmail)];
  if (current === undefined) return [`the pinned list of ${change.userEmail} was not read`];
  if (!jsonEqual(change.before.map((tab) => tab.viewId), current.map((view) => view.viewId))) problems.push('its before is not the live pinned list');
  const afterIds = new Set(change.after.map((tab) => tab.viewId));
  for (const view of current) {
    if (view.visibility === 'Private' && !afterIds.has(view.viewId) && change.unpinPrivate !== true) {
      problems.push(`drops the private view ${view.viewId} the member pins today, which only \`unpinPrivate: true\` allows`);
    }
  }
  for (const tab of change.after) {
    if (tab.viewId === null) continue;
    const view = current.find((candidate) => candidate.viewId === tab.viewId)
      ?? listing.find((candidate) => candidate.viewId === tab.viewId && (isPublicSaved(candidate) || candidate.isDefault));
    if (view === undefined) {
      problems.push(`pins ${tab.viewId}, which is neither pinned by ${change.userEmail} today nor a public or default view`);
      continue;
    }
    if (deleted.has(`${change.domain}:${tab.viewId}`)) problems.push(`pins ${tab.viewId}, which the plan deletes`);
    const name = renamedTo.get(`${change.domain}:${tab.viewId}`) ?? view.name;
    if (tab.name !== name || tab.visibility !== view.visibility || tab.isDefault !== view.isDefault) {
      problems.push(`shows the tab ${tab.viewId} as "${tab.name}", which is not that view`);
    }
  }
  return problems;
}

/** perChange is what `check` finds wrong with each change, each problem naming its change. */
function perChange(plan: Plan, check: (change: Change, index: number) => string[]): string[] {
  return plan.changes.flatMap((change, index) => {
    const label = `changes[${index}] ${change.action} ${change.kind} "${change.name}"`;
    return check(change, index).map((problem) => `${label}: ${problem}`);
  });
}

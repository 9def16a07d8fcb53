import { kindOf } from '../kinds/kinds.js';
import type { Change, ChangeOrigin, PinChange, PinnedTab } from './types.js';

/**
 * The causes drift is grouped by (README, "Drift: who, what, when"): what happened to a
 * target in the app, told from the change alone (before is live, after is what the
 * manifests ask). The text and markdown plans show one line per cause and domain or
 * kind, with the members or views it covers listed once; the JSON plan keeps every
 * change. New causes (a kind's own) are added here, each with its key and its words.
 */

/**
 * DriftCause is why a target with an origin differs: a member's tabs `reordered` (the
 * same tabs), `added` (tabs the manifests do not list), `removed` (listed tabs gone),
 * `added-and-removed`; a view's attributes `edited` or only its name (`renamed`); a
 * declared view `deleted` in the app (planned as a create); an undeclared view
 * `created` in the app (pruned); an admin automation changed in the settings
 * (`automation`); a member newly reached by a group (`membership`: joined, or a role
 * changed).
 */
export type DriftCause = 'reordered' | 'added' | 'removed' | 'added-and-removed' | 'edited' | 'renamed' | 'deleted' | 'created' | 'automation' | 'membership';

/** DRIFT_CAUSES lists the causes in the order plans show them: the members' tabs first, then views, then membership. */
export const DRIFT_CAUSES: readonly DriftCause[] = ['reordered', 'added', 'removed', 'added-and-removed', 'edited', 'renamed', 'deleted', 'created', 'automation', 'membership'];

/** driftCause classifies one change with an origin; undefined for a change without one (the pull request's own). */
export function driftCause(change: Change): DriftCause | undefined {
  if (change.origin === undefined) return undefined;
  if (change.origin === 'membership') return 'membership';
  switch (change.action) {
    case 'pin':
      return tabsCause(change);
    case 'update':
      return change.patch.every((operation) => operation.path === '/name') ? 'renamed' : 'edited';
    case 'create':
      return 'deleted';
    case 'delete':
      return 'created';
    case 'drift':
      return 'automation';
  }
}

/**
 * tabsCause compares the tabs a list holds live with those the manifests ask, private
 * tabs aside (they are the member's, kept): extra ones were added in the app, missing
 * ones removed, the same ones in another order re-ordered.
 */
function tabsCause(change: PinChange): DriftCause {
  const live = new Set(change.before.filter(listed).map(tabKey));
  const asked = new Set(change.after.filter(listed).map(tabKey));
  const added = [...live].some((key) => !asked.has(key));
  const removed = [...asked].some((key) => !live.has(key));
  if (added && removed) return 'added-and-removed';
  if (added) return 'added';
  if (removed) return 'removed';
  // The shared tabs agree as sets: when they agree in order too, what differs is a private
  // tab the manifests take off (`unpinPrivate`) or pin by id, not a re-ordering.
  const shared = (tabs: readonly PinnedTab[]): string => tabs.filter(listed).map(tabKey).join('\u0000');
  if (shared(change.before) === shared(change.after)) {
    const all = (tabs: readonly PinnedTab[]): Set<string> => new Set(tabs.map(tabKey));
    const [liveAll, askedAll] = [all(change.before), all(change.after)];
    if ([...liveAll].some((key) => !askedAll.has(key))) return 'added';
    if ([...askedAll].some((key) => !liveAll.has(key))) return 'removed';
  }
  return 'reordered';
}

function listed(tab: PinnedTab): boolean {
  return tab.visibility !== 'Private';
}

function tabKey(tab: PinnedTab): string {
  return tab.viewId === null ? `new:${tab.name}` : `id:${tab.viewId}`;
}

/** DriftGroup is the changes of one cause and one origin, with what they share: a domain (tabs) or a kind (views), and for membership the group. */
export interface DriftGroup {
  cause: DriftCause;
  origin: ChangeOrigin;
  /** The domain of the tabs, or the kind of the views. */
  scope: string;
  /** The group document a `membership` group's members are newly reached by. */
  group?: string;
  changes: Change[];
}

/**
 * driftGroups groups the changes with an origin by cause, origin and what their kind
 * groups them by (`Kind.driftScope`: a member's tabs by domain, a view by kind), and for
 * membership by the group document that reaches the member (`Kind.memberList`), in
 * `DRIFT_CAUSES` order, each keeping the plan's order; a change belongs to exactly one
 * group; changes without an origin are left out.
 */
export function driftGroups(changes: readonly Change[]): DriftGroup[] {
  const groups = new Map<string, DriftGroup>();
  for (const change of changes) {
    const cause = driftCause(change);
    if (cause === undefined || change.origin === undefined) continue;
    const kind = kindOf(change);
    const scope = kind.driftScope?.(change) ?? change.kind;
    const group = cause === 'membership' ? kind.memberList?.(change)?.group : undefined;
    const key = [cause, change.origin, scope, group ?? ''].join('\u0000');
    const entry = groups.get(key);
    if (entry !== undefined) entry.changes.push(change);
    else groups.set(key, { cause, origin: change.origin, scope, ...(group === undefined ? {} : { group }), changes: [change] });
  }
  return [...groups.values()].sort((a, b) => DRIFT_CAUSES.indexOf(a.cause) - DRIFT_CAUSES.indexOf(b.cause));
}

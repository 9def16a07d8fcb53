import type { ApiUser } from '../domain/api-types.js';
import { parseTarget } from '../domain/targets.js';
import { canonicalJson } from '../kinds/canonical.js';
import { memberPinLists } from '../kinds/pin-members.js';
import type { Desired, DesiredPins } from '../state/types.js';
import { pinsValue } from './desired-values.js';

/**
 * MembersSeen is the workspace's users at two times: `today`, as the plan read them
 * (undefined when it read none, which it does only when no group document needs them),
 * and `lastSeen`, as the sweep memory last saw them (undefined while there is no such
 * memory).
 */
export interface MembersSeen {
  today: readonly ApiUser[] | undefined;
  lastSeen: readonly ApiUser[] | undefined;
}

/**
 * membershipChanged tells, for a change's target, whether the workspace's membership
 * (a member joined, left, or changed role) rather than the manifests decides what REF's
 * documents ask of it: REF's groups, expanded with the members last seen, give the
 * member another list than with today's members (or none). False when no group decides
 * the target (not a pinned list, or one a `userEmail` document gives); undefined (cannot
 * tell) when a group gives it today and the members last seen are not known: a member
 * who joined looks the same as one whose tabs were changed in the app.
 */
export function membershipChanged(base: Desired, members: MembersSeen): (target: string) => boolean | undefined {
  if ((base.pinGroups ?? []).length === 0) return () => false;
  let today: Map<string, string> | undefined;
  let lastSeen: Map<string, string> | undefined;
  return (target) => {
    if (parseTarget(target)?.type !== 'pins') return false;
    const key = target.slice('pins:'.length);
    today ??= groupLists(base, members.today);
    const reached = today.get(key);
    if (reached === undefined) return false;
    if (members.lastSeen === undefined) return undefined;
    lastSeen ??= groupLists(base, members.lastSeen);
    return lastSeen.get(key) !== reached;
  };
}

/**
 * groupLists maps each member's list key to what a group document asks of it (the
 * group and the list), for the lists groups give when expanded with `users`.
 */
function groupLists(desired: Desired, users: readonly ApiUser[] | undefined): Map<string, string> {
  const lists = memberPinLists(desired, users).lists.filter((list) => list.group !== undefined);
  return new Map(lists.map((list) => [list.key, groupListValue(list)]));
}

/** groupListValue is what a group asks of one member: which group (named and placed: two may share a name), and the list. */
function groupListValue(list: DesiredPins): string {
  return canonicalJson({
    group: list.group === undefined ? null : [list.group.name, list.group.source.file, list.group.source.line],
    list: pinsValue(list),
  });
}

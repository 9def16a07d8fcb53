import { parseTarget } from '../domain/targets.js';
import type { AppliedFacts } from '../state/ledger-applied.js';
import type { SweepMemory } from '../state/sweep-memory.js';
import { pinsKey, type Live } from '../state/types.js';
import type { PinChange } from './changes.js';
import { createdKey, type DriftDetails, type MemberList } from './kind.js';

/**
 * What the sweep memory and the pinned lists tell each other: when a list's drift came
 * about (the memory keeps when it last read each list, and the ids it held), which
 * member's list a change writes, and what a landed list teaches the memory.
 */

/**
 * pinDriftWhen is `Kind.driftWhen` for the pinned lists: `since` is when the memory last
 * read the list, `already` when it held the same tabs in the same order then. A list
 * names no owner: its member is on the change already.
 */
export function pinDriftWhen(change: PinChange, live: Live, memory: SweepMemory | undefined): DriftDetails {
  if (memory === undefined || parseTarget(change.target)?.type !== 'pins') return {};
  const key = listKey(change);
  const since = memory.lists[key]?.lastRead;
  if (since === undefined) return {};
  const held = memory.lists[key]?.viewIds;
  const now = live.pins[key]?.map((view) => view.viewId);
  const already = held !== undefined && now !== undefined && held.join('\u0000') === now.join('\u0000');
  return { since, ...(already ? { already: true as const } : {}) };
}

/** pinMemberList is `Kind.memberList` for the pinned lists: every pin change writes one member's list. */
export function pinMemberList(change: PinChange): MemberList {
  return {
    key: listKey(change),
    member: change.userEmail.toLowerCase(),
    ...(change.group === undefined ? {} : { group: change.group }),
    liveIds: change.before.map((tab) => tab.viewId),
  };
}

/**
 * rememberPins is `Kind.remember` for the pinned lists: the list written holds the ids
 * its change's `after` lists, a tab naming a view the run created taking that view's
 * id. A list with a tab whose id is unknown (its create did not land) is left out.
 */
export function rememberPins(change: PinChange, createdIds: ReadonlyMap<string, string>): Partial<AppliedFacts> {
  const ids = change.after.map((tab) => tab.viewId ?? createdIds.get(createdKey(change.domain, tab.name)));
  if (!ids.every((id): id is string => id !== undefined)) return {};
  return { lists: { [pinsKey(change.domain, change.userEmail)]: ids } };
}

/** listKey is the key of the list a change's target names, as the memory's lists and `Live.pins` key it. */
function listKey(change: PinChange): string {
  return change.target.slice('pins:'.length);
}

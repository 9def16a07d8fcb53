import type { AppliedFacts } from '../state/memory-applied.js';
import { sameTabs, type SweepMemory } from '../state/sweep-memory.js';
import { pinsKey, type Live } from '../state/types.js';
import type { PinChange } from './changes.js';
import { createdKey, type DriftDetails, type MemberList } from './kind.js';

/**
 * What the sweep memory and the pinned lists tell each other: when a list's drift came
 * about (the memory keeps when it last read each list, and the ids it held), which
 * member's list a change writes, and what a landed list teaches the memory.
 */

/**
 * pinDriftWhen is `SweepMemoryAnswers.driftWhen` for the pinned lists: `since` is when the memory last
 * read the list, `already` when it held the same tabs in the same order then. A list
 * names no owner: its member is on the change already.
 */
export function pinDriftWhen(change: PinChange, live: Live, memory: SweepMemory | undefined): DriftDetails {
  const key = pinsKey(change.domain, change.userEmail);
  const read = memory?.lists[key];
  if (read === undefined) return {};
  const now = live.pins[key]?.map((view) => view.viewId);
  return { since: read.lastRead, ...(now !== undefined && sameTabs(read, now) ? { already: true as const } : {}) };
}

/** pinMemberList is `SweepMemoryAnswers.memberList` for the pinned lists: every pin change writes one member's list. */
export function pinMemberList(change: PinChange): MemberList {
  return {
    key: pinsKey(change.domain, change.userEmail),
    member: change.userEmail.toLowerCase(),
    ...(change.group === undefined ? {} : { group: change.group }),
    liveIds: change.before.map((tab) => tab.viewId),
    ...(change.before.every((tab) => tab.isDefault) ? { defaultsOnly: true as const } : {}),
  };
}

/**
 * rememberPins is `SweepMemoryAnswers.remember` for the pinned lists: the list written holds the ids
 * its change's `after` lists, a tab naming a view the run created taking that view's
 * id. A list with a tab whose id is unknown (its create did not land) is left out.
 */
export function rememberPins(change: PinChange, createdIds: ReadonlyMap<string, string>): Partial<AppliedFacts> {
  const ids = change.after.map((tab) => tab.viewId ?? createdIds.get(createdKey(change.domain, tab.name)));
  if (!ids.every((id): id is string => id !== undefined)) return {};
  return { lists: { [pinsKey(change.domain, change.userEmail)]: ids } };
}

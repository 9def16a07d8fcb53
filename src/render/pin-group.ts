import type { PinChange, PinnedTab } from '../plan/types.js';
import { plural } from '../text/plural.js';
import { firstNames, type Escape } from './name-list.js';

/**
 * What one group document's pin changes in one domain have in common, so a reviewer
 * reads "before -> after" once for the group instead of once per member: the lists
 * without the members' private tabs (each member's own, kept or dropped, is listed
 * apart), most common first. The members whose lists differ from the common ones are
 * the exceptions.
 */

/** TabListVariant is one distinct list (private tabs left out) and the members who have it. */
export interface TabListVariant {
  tabs: PinnedTab[];
  members: string[];
}

/** MemberTabs is one member's private tabs that a group keeps or drops. */
export interface MemberTabs {
  member: string;
  tabs: PinnedTab[];
}

/** PinGroupSummary is a group document's change in one domain, told once. */
export interface PinGroupSummary {
  group: string;
  /** Every member whose list changes, in plan order. */
  members: string[];
  /** The lists today, private tabs left out: most members first. */
  now: TabListVariant[];
  /** The lists after apply, private tabs left out: most members first. */
  after: TabListVariant[];
  /** Members whose private tabs stay ahead of the listed ones. */
  keptFirst: MemberTabs[];
  /** Members whose private tabs stay where the document places them by `{viewId}`. */
  keptInPlace: MemberTabs[];
  /** Members whose private tabs the document drops (`unpinPrivate: true`). */
  unpinned: MemberTabs[];
}

/** summarisePinGroup tells the pin changes of one group document in one domain once. */
export function summarisePinGroup(changes: readonly PinChange[]): PinGroupSummary {
  const summary: PinGroupSummary = {
    group: changes[0]?.group ?? '',
    members: changes.map((change) => change.userEmail),
    now: variants(changes, (change) => change.before),
    after: variants(changes, (change) => change.after),
    keptFirst: [],
    keptInPlace: [],
    unpinned: [],
  };
  for (const change of changes) {
    const after = new Set(change.after.map(tabKey));
    const privateTabs = change.before.filter((tab) => tab.visibility === 'Private');
    const kept = privateTabs.filter((tab) => after.has(tabKey(tab)));
    const dropped = privateTabs.filter((tab) => !after.has(tabKey(tab)));
    if (dropped.length > 0) summary.unpinned.push({ member: change.userEmail, tabs: dropped });
    if (kept.length === 0) continue;
    const first = change.after.slice(0, kept.length).every((tab) => tab.visibility === 'Private');
    (first ? summary.keptFirst : summary.keptInPlace).push({ member: change.userEmail, tabs: kept });
  }
  return summary;
}

/** droppedPrivateCount is how many private tabs the group drops, over all its members. */
export function droppedPrivateCount(summary: PinGroupSummary): number {
  return summary.unpinned.reduce((sum, entry) => sum + entry.tabs.length, 0);
}

function variants(changes: readonly PinChange[], list: (change: PinChange) => readonly PinnedTab[]): TabListVariant[] {
  const byKey = new Map<string, TabListVariant>();
  for (const change of changes) {
    const tabs = list(change).filter((tab) => tab.visibility !== 'Private');
    const key = tabs.map(tabKey).join('\u0000');
    const variant = byKey.get(key);
    if (variant === undefined) byKey.set(key, { tabs, members: [change.userEmail] });
    else variant.members.push(change.userEmail);
  }
  // Stable: equal counts keep the order of their first member.
  return [...byKey.values()].sort((a, b) => b.members.length - a.members.length);
}

function tabKey(tab: PinnedTab): string {
  return tab.viewId === null ? `new:${tab.name}` : `id:${tab.viewId}`;
}

/** NAMES_SHOWN is how many members a group's lines name before counting the rest. */
const NAMES_SHOWN = 3;

/** someMembers counts members and names the first few: `2 members: a@x, b@x`, `40 members` (most of the group). */
export function someMembers(members: readonly string[], total: number, escapeName: Escape): string {
  if (members.length * 2 > total) return plural(members.length, 'member');
  return `${plural(members.length, 'member')}: ${firstNames(members, NAMES_SHOWN, escapeName).join(', ')}`;
}

/** memberTabs is one member and their tabs: `a@x: A, B`. */
export function memberTabs(entry: MemberTabs, escapeName: Escape): string {
  return `${escapeName(entry.member)}: ${entry.tabs.map((tab) => escapeName(tab.name)).join(', ')}`;
}

/** exceptionText is one kind of exception of a group: `kept first for 3 members: their private tabs (a@x: A; …)`. */
export function exceptionText(label: string, entries: readonly MemberTabs[], what: string, escapeName: Escape): string {
  const shown = firstNames(entries, NAMES_SHOWN, (entry) => memberTabs(entry, escapeName)).join('; ');
  return `${label} ${plural(entries.length, 'member')}: ${what} (${shown})`;
}

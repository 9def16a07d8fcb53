import type { ApiUser, ApiView } from '../domain/api-types.js';
import { DOMAINS, type Domain } from '../domain/domains.js';
import { compareCodePoints } from '../kinds/canonical.js';
import { type GroupReach, pinReach } from './pin-reach.js';

/**
 * The PinnedViews documents a person would write for the lists an export read (README,
 * "export"): members whose list of a domain is the same share one group document; a
 * member whose list nobody else has gets a `userEmail` document; a member on the
 * built-in default tabs gets none (the service gives those to whoever never changed
 * their tabs, so leaving the list unmanaged is the same list).
 *
 * "The same" leaves out a member's private tabs when they all lead the list: a group
 * document keeps each member's private tabs ahead of the listed ones (README,
 * "Private tabs are the member's"), so such a member's list is the group's. A member
 * whose private tab sits between listed ones needs a document of their own, which
 * places it by `{viewId}`.
 *
 * A list a few members share by chance is written in their own documents when all of
 * them but one at most have one anyway (a list of theirs nobody shares): a group
 * document would spare no file to review.
 *
 * A group reaches its members by a role when they are exactly the active members of
 * some roles, else by a glob that reaches exactly them among the active members, else
 * by their addresses; so no two group documents reach one member in one domain, and
 * the plan of what export wrote is a no-op. Pure: the caller passes what it read.
 */

/** PinGroupInput is what grouping needs: whose lists were read, every member, and the lists. */
export interface PinGroupInput {
  /** Members whose lists were read (their lists are given by `listOf`). */
  members: readonly ApiUser[];
  /** Every workspace user: a glob or a role must reach no active member outside its group. */
  everyone: readonly ApiUser[];
  /** The domains each member's lists are written for (default: all four). */
  domainsOf?: (user: ApiUser) => readonly Domain[];
  /** A member's live tabs in a domain, in tab order (undefined: not read). */
  listOf: (domain: Domain, user: ApiUser) => readonly ApiView[] | undefined;
  /** The domains' listings (public saved views, then the built-in defaults). */
  listings: Partial<Record<Domain, readonly ApiView[]>>;
}

/** PinDocumentPlan is one document to write: whom it reaches and the tabs of each domain it manages. */
export type PinDocumentPlan =
  | { kind: 'member'; user: ApiUser; tabs: Partial<Record<Domain, readonly ApiView[]>> }
  | {
      kind: 'group';
      name: string;
      reach: GroupReach;
      members: readonly ApiUser[];
      /** Members the role or glob reaches whose own document wins over the group in its domains. */
      exceptions: number;
      tabs: Partial<Record<Domain, readonly ApiView[]>>;
    };

/** PinGrouping is every document to write, and the lists left unmanaged, for the closing notes. */
export interface PinGrouping {
  documents: PinDocumentPlan[];
  /** Lists (member × domain) on the built-in default tabs: no document manages them. */
  onDefaults: number;
  /** Lists with no tab at all (a pinned list needs one): no document manages them. */
  empty: number;
}

/** groupPinLists proposes the documents that write each member's lists as they are live. */
export function groupPinLists(input: PinGroupInput): PinGrouping {
  const classes = new Map<string, { domain: Domain; tabs: readonly ApiView[]; members: ApiUser[] }>();
  const own = new Map<string, { user: ApiUser; tabs: Partial<Record<Domain, readonly ApiView[]>> }>();
  const ownOf = (user: ApiUser) => {
    const entry = own.get(user.id) ?? { user, tabs: {} };
    own.set(user.id, entry);
    return entry;
  };
  let onDefaults = 0;
  let empty = 0;
  for (const user of input.members) {
    for (const domain of input.domainsOf?.(user) ?? DOMAINS) {
      const list = input.listOf(domain, user);
      if (list === undefined) continue;
      if (list.length === 0) {
        empty += 1;
        continue;
      }
      if (isDefaultList(list, input.listings[domain] ?? [])) {
        onDefaults += 1;
        continue;
      }
      const shared = sharedPart(list);
      if (shared === undefined) {
        ownOf(user).tabs[domain] = list;
        continue;
      }
      const key = `${domain}\u0000${shared.map((view) => view.viewId).join('\u0000')}`;
      const found = classes.get(key) ?? { domain, tabs: shared, members: [] };
      found.members.push(user);
      classes.set(key, found);
    }
  }
  // A class whose members, all but one at most, have a document of their own anyway is
  // written in their documents: its group would spare no file. Smallest first, until
  // none folds (each fold can give one more member a document of their own).
  const shared = [...classes.values()].sort((a, b) => a.members.length - b.members.length);
  const kept = new Set(shared);
  for (let folded = true; folded; ) {
    folded = false;
    for (const found of kept) {
      if (found.members.filter((user) => !own.has(user.id)).length > 1) continue;
      for (const user of found.members) ownOf(user).tabs[found.domain] = input.listOf(found.domain, user) ?? found.tabs;
      kept.delete(found);
      folded = true;
    }
  }
  // Classes with the same members become one document over their domains.
  const groups = new Map<string, { members: ApiUser[]; tabs: Partial<Record<Domain, readonly ApiView[]>> }>();
  for (const { domain, tabs, members } of kept) {
    const sorted = sortByEmail(members);
    const key = sorted.map((user) => user.id).join('\u0000');
    const group = groups.get(key) ?? { members: sorted, tabs: {} };
    group.tabs[domain] = tabs;
    groups.set(key, group);
  }
  const active = input.everyone.filter((user) => user.state === 'Active');
  // A member whose own document manages every domain of a group may be reached by it: theirs wins.
  const exempt = (domains: readonly string[]) => (user: ApiUser) => {
    const tabs = own.get(user.id)?.tabs;
    return tabs !== undefined && domains.every((domain) => tabs[domain as Domain] !== undefined);
  };
  const documents: PinDocumentPlan[] = [...groups.values()].map(({ members, tabs }) => ({
    kind: 'group',
    ...pinReach(members, active, exempt(Object.keys(tabs))),
    members,
    tabs,
  }));
  uniqueNames(documents);
  for (const { user, tabs } of own.values()) documents.push({ kind: 'member', user, tabs });
  return { documents, onDefaults, empty };
}

/**
 * sharedPart is the part of a list a group document can write: the tabs after its
 * leading private ones, when no private tab follows a listed one (undefined otherwise,
 * or when only private tabs are pinned).
 */
function sharedPart(list: readonly ApiView[]): readonly ApiView[] | undefined {
  const lead = list.findIndex((view) => !isPrivate(view));
  if (lead === -1) return undefined;
  const rest = list.slice(lead);
  return rest.some(isPrivate) ? undefined : rest;
}

function isPrivate(view: ApiView): boolean {
  return view.visibility === 'Private' && !view.isDefault;
}

/** isDefaultList tells a list that is exactly the domain's built-in defaults, in their order. */
function isDefaultList(list: readonly ApiView[], listing: readonly ApiView[]): boolean {
  const defaults = listing.filter((view) => view.isDefault);
  return defaults.length === list.length && defaults.every((view, index) => list[index]?.viewId === view.viewId);
}

/**
 * uniqueNames keeps group names unique (README: a group's name is unique among group
 * documents): a name two documents share gets the domains each manages, then a counter.
 */
function uniqueNames(documents: PinDocumentPlan[]): void {
  const groups = documents.flatMap((document) => (document.kind === 'group' ? [document] : []));
  const repeated = (name: string) => groups.filter((group) => group.name === name).length > 1;
  for (const group of groups.filter((candidate) => repeated(candidate.name))) {
    group.name = `${group.name} (${Object.keys(group.tabs).join(', ')})`;
  }
  const taken = new Set<string>();
  for (const group of groups) {
    let name = group.name;
    for (let counter = 2; taken.has(name); counter += 1) name = `${group.name} (${counter})`;
    group.name = name;
    taken.add(name);
  }
}

/** sortByEmail orders members by lower-cased email, as an export writes them. */
export function sortByEmail(users: readonly ApiUser[]): ApiUser[] {
  return [...users].sort((a, b) => compareCodePoints(a.email.toLowerCase(), b.email.toLowerCase()));
}

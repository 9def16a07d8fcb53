import { Document, isSeq, YAMLMap } from 'yaml';
import type { ApiUser, ApiView, JsonObject, JsonValue } from '../domain/api-types.js';
import { DOMAINS, type Domain } from '../domain/domains.js';
import { quoted, renderFile } from './yaml-text.js';

/**
 * PinnedViews documents: one per exported user, every domain in tab order. A tab is
 * written by name when the name resolves to exactly that view (README:
 * names resolve against the manifests, the live public views, then the built-in
 * defaults, and an ambiguous name is an error); otherwise by `{viewId}`, with a
 * comment naming the view, since an id alone tells a reviewer nothing. Private
 * views have no resolvable name at all: always `{viewId}`, commented `private`.
 */

/** PinsFile is the rendered document of one user, and what could not be written. */
interface PinsFile {
  text: string;
  /** Domains left out because the user has no tab there today (a list needs one). */
  emptyDomains: Domain[];
}

/** PinEntry is one tab as written: a name, or an id with the comment that explains it. */
type PinEntry = { name: string } | { viewId: string; comment: string };

/**
 * pinEntry decides how a pinned view is written. `listing` is the domain's listing
 * (public saved views, then defaults): the only names a pinned list can resolve.
 */
export function pinEntry(view: ApiView, listing: readonly ApiView[]): PinEntry {
  if (view.visibility === 'Private' && !view.isDefault) {
    return { viewId: view.viewId, comment: `private: ${quoted(view.name)}` };
  }
  const sameName = listing.filter((candidate) => candidate.name === view.name);
  const listed = sameName.some((candidate) => candidate.viewId === view.viewId);
  if (listed && sameName.length === 1) return { name: view.name };
  if (!listed) return { viewId: view.viewId, comment: `${quoted(view.name)}: not in the public listing` };
  return { viewId: view.viewId, comment: `${quoted(view.name)}: ${sameName.length} views share this name` };
}

/**
 * PinsFileOptions narrow a pins file for `export --merge`: only the domains no other
 * document manages, and tabs whose name the folder's manifests would resolve to
 * another view (or rename) written by `{viewId}` with the reason as comment.
 */
interface PinsFileOptions {
  /** Domains to write (default: all four). */
  domains?: readonly Domain[];
  /** Why a public or default tab must not be written by name, if it must not. */
  nameClash?: (domain: Domain, view: ApiView) => string | undefined;
  /** Lines added to the header comment (e.g. which documents manage the other domains). */
  header?: readonly string[];
  /**
   * `include` (`export --pins include`): write `mode: include` and only the public and
   * default tabs, which the list then requires; the member's private tabs and the
   * order stay theirs. Default `exact`: every tab, in order.
   */
  mode?: PinsMode;
}

/** PinsMode is how `export --pins` writes pinned lists: `exact` (every tab, in order) or `include`. */
export type PinsMode = 'exact' | 'include';

/**
 * renderPinsFile prints the PinnedViews document of `user`. `pins` holds the user's
 * tabs per domain; a domain with no tab is left out (unmanaged) and reported.
 */
export function renderPinsFile(
  user: ApiUser,
  pins: Partial<Record<Domain, readonly ApiView[]>>,
  listings: Partial<Record<Domain, readonly ApiView[]>>,
  modeline: string,
  options: PinsFileOptions = {},
): PinsFile {
  const include = options.mode === 'include';
  const written = pinListsDocument(
    { kind: 'PinnedViews', userEmail: user.email, ...(include ? { mode: 'include' } : {}) },
    pins,
    listings,
    options,
  );
  const who = user.name === '' ? user.email : `${quoted(user.name)} (${user.email})`;
  const header = include
    ? [
        `Pinned view tabs ${who} must keep (mode: include): their other tabs and the order stay theirs.`,
        'A tab missing is put back in front; remove a line here to stop requiring it.',
      ]
    : [`Pinned view tabs of ${who}, in tab order.`];
  for (const domain of written.emptyDomains) {
    header.push(
      `${domain}: no ${include ? 'public or default ' : ''}tab pinned today, and a pinned list needs one: left unmanaged.`,
    );
  }
  header.push(...(options.header ?? []));
  return { text: renderFile(written.document, modeline, header), emptyDomains: written.emptyDomains };
}
/** PinGroupFile is what a group document says: its name, how it reaches its members, and who they are. */
interface PinGroupFile {
  name: string;
  reach: { roles: string[] } | { users: string[] };
  members: readonly ApiUser[];
  exceptions: number;
}

/**
 * renderPinGroupFile prints a group PinnedViews document: the tabs its members share,
 * by domain. Each member's private tabs are not listed: a group keeps them ahead of the
 * listed ones (README, "Private tabs stay the member's").
 */
export function renderPinGroupFile(
  group: PinGroupFile,
  pins: Partial<Record<Domain, readonly ApiView[]>>,
  listings: Partial<Record<Domain, readonly ApiView[]>>,
  modeline: string,
  mode: PinsMode = 'exact',
): string {
  const include = mode === 'include';
  const written = pinListsDocument(
    { kind: 'PinnedViews', name: group.name, ...(include ? { mode: 'include' } : {}), ...group.reach },
    pins,
    listings,
    { domains: DOMAINS.filter((domain) => pins[domain] !== undefined), mode },
  );
  const count = group.members.length;
  const header = include
    ? [
        `Pinned view tabs ${count} members share today and must keep (mode: include): their other tabs and the order stay theirs.`,
      ]
    : [`Pinned view tabs ${count} members share today, in tab order; each keeps their private tabs ahead of these.`];
  if (group.exceptions > 0) {
    const others =
      group.exceptions === 1
        ? '1 other member, whose own document wins'
        : `${group.exceptions} other members, whose own documents win`;
    header.push(`The ${'roles' in group.reach ? 'role' : 'glob'} also reaches ${others} (pins/ has them).`);
  }
  return renderFile(written.document, modeline, header);
}

/** pinListsDocument adds each domain's tabs to `head` (names, or commented `{viewId}`s) as a YAML document. */
function pinListsDocument(
  head: JsonObject,
  pins: Partial<Record<Domain, readonly ApiView[]>>,
  listings: Partial<Record<Domain, readonly ApiView[]>>,
  options: PinsFileOptions,
): { document: Document; emptyDomains: Domain[] } {
  const include = options.mode === 'include';
  const value: JsonObject = { ...head };
  const entries = new Map<Domain, PinEntry[]>();
  const emptyDomains: Domain[] = [];
  for (const domain of options.domains ?? DOMAINS) {
    // Under include a private tab is the member's already: requiring it would say nothing more.
    const tabs = (pins[domain] ?? []).filter((view) => !include || view.visibility !== 'Private' || view.isDefault);
    if (tabs.length === 0) {
      emptyDomains.push(domain);
      continue;
    }
    const listing = listings[domain] ?? [];
    const domainEntries = tabs.map((view): PinEntry => {
      const entry = pinEntry(view, listing);
      const clash = 'name' in entry ? options.nameClash?.(domain, view) : undefined;
      return clash === undefined ? entry : { viewId: view.viewId, comment: `${quoted(view.name)}: ${clash}` };
    });
    entries.set(domain, domainEntries);
    value[domain] = domainEntries.map((entry): JsonValue => ('name' in entry ? entry.name : { viewId: entry.viewId }));
  }
  const document = new Document(value);
  for (const key of ['users', 'roles']) {
    const list = document.get(key, true);
    if (isSeq(list) && list.items.length <= 1) list.flow = true;
  }
  for (const [domain, domainEntries] of entries) {
    const list = document.get(domain, true);
    if (!isSeq(list)) continue;
    domainEntries.forEach((entry, index) => {
      const node = list.items[index];
      if ('name' in entry || !(node instanceof YAMLMap)) return;
      node.flow = true;
      node.comment = ` ${entry.comment}`;
    });
  }
  return { document, emptyDomains };
}

import { isPublicSaved } from '../domain/views.js';
import { viewTarget } from '../domain/targets.js';
import type { Domain } from '../domain/domains.js';
import type { Live } from './types.js';
import { seenView, type SweepMemory, type ViewDigester } from './sweep-memory.js';

/**
 * What a run adds to the sweep memory: the pinned lists it read, the public saved views
 * its domain listings showed, the members when it read the users. What it did not read
 * keeps its entry: a view deleted in the app stays remembered as live and public (that
 * is how the next plan tells a deletion from a typo), until it has gone unseen for
 * `FORGET_AFTER_DAYS`.
 */

/** FORGET_AFTER_DAYS is how long a view, a member or a list stays remembered without being seen or read again. */
export const FORGET_AFTER_DAYS = 90;

const DAY_MS = 24 * 60 * 60 * 1000;

/** LiveSeen is the part of a run's `Live` the memory records: what it read. */
export type LiveSeen = Pick<Live, 'workspace' | 'views' | 'pins' | 'users'>;

/**
 * observeRun is `memory` after a run that read `live` at `now` (milliseconds, the
 * run's injected clock): each list read holds its ids as read, each public saved view
 * listed is seen (built-in defaults and private views never are: they are no one's to
 * re-create or prune), with its attributes' digests when given `digest`, each member
 * read is seen with role and state. Entries not seen again are kept, and dropped once
 * unseen for `FORGET_AFTER_DAYS`.
 */
export function observeRun(
  memory: SweepMemory,
  live: LiveSeen,
  now: number,
  pending: ReadonlySet<string> = new Set(),
  digest?: ViewDigester,
): SweepMemory {
  const at = new Date(now).toISOString();
  const lists = { ...memory.lists };
  for (const [key, views] of Object.entries(live.pins)) {
    lists[key] = {
      lastRead: at,
      viewIds: views.map((view) => view.viewId),
      ...(pending.has(key) ? { pending: 'membership' as const } : {}),
    };
  }
  const views = { ...memory.views };
  for (const [domain, listing] of Object.entries(live.views) as [Domain, Live['views'][Domain]][]) {
    for (const view of listing ?? []) {
      if (!isPublicSaved(view)) continue;
      const key = viewTarget(domain, view.viewId);
      const digests = digest?.(domain, view);
      views[key] = seenView(
        views[key],
        { domain, id: view.viewId, name: view.name, ...(digests === undefined ? {} : { digests }) },
        at,
      );
    }
  }
  const members = { ...memory.members };
  // A member is keyed by an address: anything else the service listed could not be read back (the schema's keys).
  for (const user of live.users ?? []) {
    if (!user.email.includes('@')) continue;
    const email = user.email.toLowerCase();
    const before = members[email];
    // The same role and state keep the time they were first seen with (unknown in older
    // memories); anything else starts now, except on the memory's first users read, which
    // tells nobody's joining from having always been there.
    const same = before !== undefined && before.role === user.role && before.state === user.state;
    const since = same
      ? before.since
      : before === undefined && Object.keys(memory.members).length === 0
        ? undefined
        : at;
    members[email] = { role: user.role, state: user.state, lastSeen: at, ...(since === undefined ? {} : { since }) };
  }
  return forgetUnseen({ ...memory, workspaceId: live.workspace.id, lists, views, members }, now);
}

/** forgetUnseen drops the entries of `memory` unseen (views, members) or unread (lists) for more than `FORGET_AFTER_DAYS` before `now`. */
export function forgetUnseen(memory: SweepMemory, now: number): SweepMemory {
  const cutoff = now - FORGET_AFTER_DAYS * DAY_MS;
  const recent = <T>(record: Record<string, T>, time: (entry: T) => string): Record<string, T> =>
    Object.fromEntries(Object.entries(record).filter(([, entry]) => !(Date.parse(time(entry)) < cutoff)));
  return {
    ...memory,
    lists: recent(memory.lists, (entry) => entry.lastRead),
    views: recent(memory.views, (entry) => entry.lastSeen),
    members: recent(memory.members, (entry) => entry.lastSeen),
  };
}

import type { ApiUser, ApiView } from '../domain/api-types.js';
import type { AppOwnable } from '../domain/app-owns.js';
import type { Domain } from '../domain/domains.js';

/**
 * The sweep memory (`--ledger FILE`, README "Living with an organisation") is what
 * earlier runs saw of the workspace: when each pinned list was last read and which
 * views it held, which views were seen live and public, the members last seen, and the
 * manifests' commit last applied. It is advice, never authority: it orders reads,
 * tells a view deleted in the app from a typo, dates drift and labels origins, but
 * every write is still checked against a fresh read, and without it everything works
 * with less knowledge. Plain data: the file holds exactly this, as JSON
 * (`schemas/ledger/ledger.schema.json`).
 */
export interface SweepMemory {
  formatVersion: 1;
  /** The workspace the memory is of: a memory of another workspace is never used. */
  workspaceId?: string;
  /** Per pinned list read (`pinsKey`): when it was last read and the view ids it held then, in tab order. */
  lists: Record<string, ListMemory>;
  /** Per view seen live and public (`viewTarget(domain, id)`): its domain, id, name, when last seen, and its attributes' digests then. */
  views: Record<string, ViewMemory>;
  /** Per member (lower-cased email): role and state when last seen, and when. */
  members: Record<string, MemberMemory>;
  /** The manifests' git commit last applied by an apply that exited 0, and when. */
  lastApplied?: LastApplied;
}

/** LastApplied is the manifests' commit an apply that exited 0 carried out, when, and what of it that apply held. */
export interface LastApplied {
  commit: string;
  /**
   * The SHA-256 hex of the desired state that apply loaded and carried out
   * (`desiredDigest`): self-heal repairs only when it loads this one again. Absent in
   * memories written before it was recorded: self-heal then refuses until a full
   * reviewed apply records it.
   */
  digest?: string;
  /** The manifest paths that apply read, as paths in the repository (`.` for its top), sorted: self-heal must read the same. */
  paths?: string[];
  /** ISO 8601 UTC time of that apply. */
  at: string;
  /**
   * The targets (as changes name theirs) held then and not carried out by any apply
   * since (README, "Fail-safe rules"): a reviewer saw only why each was held, never its
   * changes, so self-heal leaves them for a reviewed apply. Absent when none.
   */
  held?: string[];
  /**
   * Why each held target was held, by target: the code its plan held it with
   * (`view.id-not-found`, `pins.names-held-view`, `apply.stale-target`, ...). A hold ends
   * only as its cause does (README, "What stays held"); a target without a code here (a
   * memory written before codes were kept) has an unknown cause, and ends only once found
   * as desired. Absent when none is known.
   */
  heldCodes?: Record<string, string>;
}

/** ListMemory is one pinned list as last read. */
export interface ListMemory {
  /** ISO 8601 UTC time of the read. */
  lastRead: string;
  /** The ids of the views it held, in tab order (private ones included). */
  viewIds: string[];
  /**
   * `membership` when, at that read, it differed only because a group reaches its member
   * anew (joined, or a role changed) and the run did not write it: still so at the next
   * read, the difference is still the membership's, not an edit in the app.
   */
  pending?: 'membership';
}

/** sameTabs tells whether a list as last read (`read`) held exactly `ids` (private tabs included), in that order. */
export function sameTabs(read: ListMemory, ids: readonly (string | null)[]): boolean {
  return read.viewIds.join('\u0000') === ids.join('\u0000');
}

/** ViewMemory is one public saved view as last seen live. */
export interface ViewMemory {
  domain: Domain;
  id: string;
  name: string;
  /** ISO 8601 UTC time it was last seen in its domain's listing. */
  lastSeen: string;
  /**
   * Names it was seen under before `name`, the latest last (at most `FORMER_NAMES`):
   * once a rename is applied, a pinned name still naming the old one resolves to the
   * view with a warning, instead of failing the plan. Absent when none.
   */
  formerNames?: string[];
  /**
   * Its other attributes as last read or written (`ViewDigests`): a drift whose
   * attributes digest as they did then is older than `lastSeen`, reported before (the
   * plan's `already`). Absent in memories written before it was recorded, and after a
   * run that saw the view without digesting it: the drift is then dated from `lastSeen`.
   */
  digests?: ViewDigests;
}

/**
 * ViewDigests are, per attribute besides the name (those a manifest may leave to the
 * app), the first 16 hex digits of the SHA-256 of its normalised value, as the plan
 * compares it (the saved views kind makes them: `viewDigests`). They only date drift: a
 * forged or stale digest can make a plan say a change was reported before, never make
 * an apply write more or less, since every write is decided by a fresh read.
 */
export type ViewDigests = Record<AppOwnable, string>;

/**
 * ViewDigester digests a view as its domain's listing returned it (`ViewDigests`); the
 * saved views kind gives it, as the memory knows nothing of how a view normalises.
 */
export type ViewDigester = (domain: Domain, view: ApiView) => ViewDigests;

/** FORMER_NAMES is how many earlier names the memory keeps per view. */
const FORMER_NAMES = 5;

/**
 * seenView is the memory of a view seen at `at` under `name`, after `before` (its entry,
 * if any): a new name pushes the one it had into `formerNames`. Its digests are those
 * it was seen with; none when not digested then (an earlier digest may be of another
 * state, so it is not kept past a newer `lastSeen`).
 */
export function seenView(
  before: ViewMemory | undefined,
  seen: { domain: Domain; id: string; name: string; digests?: ViewDigests },
  at: string,
): ViewMemory {
  const earlier = [...(before?.formerNames ?? []), ...(before === undefined ? [] : [before.name])];
  const formerNames = earlier.filter((name, index) => name !== seen.name && earlier.lastIndexOf(name) === index);
  const kept = formerNames.slice(-FORMER_NAMES);
  return {
    domain: seen.domain,
    id: seen.id,
    name: seen.name,
    lastSeen: at,
    ...(kept.length === 0 ? {} : { formerNames: kept }),
    ...(seen.digests === undefined ? {} : { digests: { ...seen.digests } }),
  };
}

/** MemberMemory is one member as last seen in the users list. */
export interface MemberMemory {
  role: ApiUser['role'];
  state: ApiUser['state'];
  /** ISO 8601 UTC time of the users read that saw them. */
  lastSeen: string;
  /**
   * ISO 8601 UTC time they were first seen with this role and state (joined, or changed
   * role or state then); absent in memories written before it was recorded. A list of
   * theirs not read since is new to a group that reaches them: its difference is
   * membership, not an edit in the app.
   */
  since?: string;
}

/** emptyMemory is the memory of a first run, or of a run without `--ledger`. */
export function emptyMemory(): SweepMemory {
  return { formatVersion: 1, lists: {}, views: {}, members: {} };
}

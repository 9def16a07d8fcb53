import type { ApiUser } from '../domain/api-types.js';
import type { Desired, DesiredPinGroup, DesiredPins } from '../domain/desired.js';
import type { RefusalReason } from '../domain/refusal-reason.js';
import { formatPosition, type SourcePosition } from '../domain/source-position.js';
import { pinsKey } from '../domain/targets.js';
import { InternalError } from '../errors.js';
import { compileNameGlob, type NameGlob } from '../text/glob.js';
import type { PlanWarning } from './changes.js';
import { closestNames } from '../text/suggest.js';

/**
 * Which pinned lists the plan manages, and with what desired value (README,
 * Manifests): a `userEmail` document names one member; a group document (`users`
 * and/or `roles`) every active member it reaches. Per member and domain a `userEmail`
 * document wins over groups; two groups reaching one member in one domain are an
 * error. Pure: the caller passes the users it read.
 */

/** MemberPinList is one member's desired pinned list in one domain, with its stable key. */
interface MemberPinList extends DesiredPins {
  /** `pinsKey(domain, userEmail)`: the domain and the lower-cased email. */
  key: string;
}

/** MemberPinExpansion is every managed pinned list, and what expanding the groups found. */
interface MemberPinExpansion {
  /** One per (member, domain), `userEmail` documents first, then each group's members in the users' order. */
  lists: MemberPinList[];
  /** Members a glob or a role reached who are not active (deactivated or invited), each counted once. */
  skipped: number;
  /** Errors: an explicit email that was never a member, a member two groups reach in one domain. */
  reasons: RefusalReason[];
  /** A glob that reaches no active member, and a member a document names who is not active (skipped), each with its position. */
  warnings: PlanWarning[];
}

/**
 * hasPinGroups tells whether the manifests hold a group `PinnedViews` document, whose
 * members only the users list can tell.
 */
export function hasPinGroups(desired: Pick<Desired, 'pins' | 'pinGroups'>): boolean {
  return (desired.pinGroups ?? []).length > 0;
}

/**
 * memberPinLists expands the `PinnedViews` documents to one desired list per member
 * and domain. `users` is the workspace's users list; it may be undefined only when no
 * group document exists (then `userEmail` documents are taken as written, and the
 * service checks their members when their lists are read).
 */
export function memberPinLists(
  desired: Pick<Desired, 'pins' | 'pinGroups'>,
  users: readonly ApiUser[] | undefined,
): MemberPinExpansion {
  const own = new Map<string, MemberPinList>();
  for (const pins of desired.pins) {
    const key = pinsKey(pins.domain, pins.userEmail);
    if (!own.has(key)) own.set(key, { ...pins, key });
  }
  const groups = desired.pinGroups ?? [];
  if (users === undefined) {
    const result: MemberPinExpansion = { lists: [...own.values()], skipped: 0, reasons: [], warnings: [] };
    if (groups.length > 0) throw new InternalError('group PinnedViews documents are expanded without the users list');
    return result;
  }
  const byEmail = new Map(users.map((user) => [user.email.toLowerCase(), user]));
  // A member who left is skipped, never an error: people leave every week.
  const active = [...own.values()].filter((list) => byEmail.get(list.userEmail.toLowerCase())?.state === 'Active');
  const result: MemberPinExpansion = { lists: active, skipped: 0, reasons: [], warnings: [] };
  const reported = new Set<string>();
  const once = (where: SourcePosition, what: string): boolean => {
    const key = `${formatPosition(where)} ${what}`;
    if (reported.has(key)) return false;
    reported.add(key);
    return true;
  };
  // The users are read anyway: a `userEmail` that is not an active member is named here, once, before any pinned read.
  const inactiveOwn = new Set<string>();
  for (const pins of desired.pins) {
    const email = pins.userEmail.toLowerCase();
    if (byEmail.get(email)?.state === 'Active' || inactiveOwn.has(email)) continue;
    inactiveOwn.add(email);
    notActive(result, pins.userEmail, users, pins.source, {
      never: 'fix `userEmail`, or remove the PinnedViews document',
      left: `delete ${pins.source.file}, the PinnedViews document of a member who left or has not accepted the invitation yet`,
    });
  }

  const skipped = new Set<string>();
  const claimedBy = new Map<string, DesiredPinGroup>();
  const overlaps = new Map<string, { first: DesiredPinGroup; second: DesiredPinGroup; members: string[] }>();
  for (const group of groups) {
    // Emails compare without case, as the service treats them: globs and emails are both lower-cased.
    const globs = group.users
      .filter((entry) => entry.isGlob)
      .map((entry) => ({ entry, test: compileNameGlob(entry.pattern.toLowerCase()) }));
    const explicit = new Set(group.users.filter((entry) => !entry.isGlob).map((entry) => entry.pattern.toLowerCase()));
    for (const entry of group.users) {
      if (entry.isGlob) continue;
      const user = byEmail.get(entry.pattern.toLowerCase());
      if (user?.state === 'Active' || !once(entry.source, 'member')) continue;
      notActive(result, entry.pattern, users, entry.source, {
        never: `fix ${entry.pattern} in \`users\` of "${group.group.name}", or remove it`,
        left: `remove ${entry.pattern} from \`users\` of "${group.group.name}" in ${entry.source.file}; members a glob or a role reaches who are not active are skipped silently`,
      });
    }
    const reachedGlobs = new Set<NameGlob>();
    for (const user of users) {
      const email = user.email.toLowerCase();
      const byGlob = globs.filter((glob) => glob.test(email));
      const reached = explicit.has(email) || byGlob.length > 0 || group.roles.includes(user.role);
      if (!reached) continue;
      if (user.state !== 'Active') {
        if (!explicit.has(email)) skipped.add(email);
        continue;
      }
      for (const glob of byGlob) reachedGlobs.add(glob.test);
      const key = pinsKey(group.domain, user.email);
      if (own.has(key)) continue;
      const first = claimedBy.get(key);
      if (first !== undefined) {
        const pair = `${formatPosition(first.source)} ${formatPosition(group.source)}`;
        const overlap = overlaps.get(pair) ?? { first, second: group, members: [] };
        overlap.members.push(user.email);
        overlaps.set(pair, overlap);
        continue;
      }
      claimedBy.set(key, group);
      result.lists.push(groupList(group, user.email, key));
    }
    for (const { entry, test } of globs) {
      if (reachedGlobs.has(test) || !once(entry.source, 'glob')) continue;
      result.warnings.push({
        code: 'pins.glob-reaches-none',
        message: `users glob "${entry.pattern}" of the group "${group.group.name}" reaches no active member`,
        source: entry.source,
      });
    }
  }
  for (const { first, second, members } of overlaps.values())
    result.reasons.push(overlapReason(first, second, members));
  result.skipped = skipped.size;
  return result;
}

function groupList(group: DesiredPinGroup, userEmail: string, key: string): MemberPinList {
  const { domain, refs, unpinPrivate, mode, unpin, source, refSources } = group;
  return {
    userEmail,
    domain,
    refs,
    unpinPrivate,
    ...(mode === undefined ? {} : { mode }),
    ...(unpin === undefined ? {} : { unpin }),
    source,
    refSources,
    group: group.group,
    key,
  };
}

/**
 * notActive reports a document naming `email`, who is no active member. A member who
 * left (or has not accepted the invitation) is a warning naming the file to edit, and
 * is skipped: an ordinary event of an organisation never breaks a plan. An address no
 * member ever had is the manifests' mistake, most likely misspelt: a refusal whose way
 * out names the active members it is closest to.
 */
function notActive(
  result: MemberPinExpansion,
  email: string,
  users: readonly ApiUser[],
  source: SourcePosition,
  wayOut: { never: string; left: string },
): void {
  const user = users.find((candidate) => candidate.email.toLowerCase() === email.toLowerCase());
  if (user !== undefined) {
    result.warnings.push({
      code: 'pins.user-not-active',
      message: `${email} is ${user.state.toLowerCase()}, not an active member: their tabs are skipped; ${wayOut.left}`,
      source,
    });
    return;
  }
  const close = closestNames(
    email,
    users.filter((candidate) => candidate.state === 'Active').map((candidate) => candidate.email),
  );
  result.reasons.push({
    code: 'pins.user-not-active',
    message: `${email} is not a member of the workspace, so the service refuses to read or set their tabs`,
    wayOut: close.length === 0 ? wayOut.never : `did you mean ${close.join(' or ')}? ${wayOut.never}`,
    source,
    ids: [],
  });
}

function overlapReason(first: DesiredPinGroup, second: DesiredPinGroup, members: readonly string[]): RefusalReason {
  const [member = ''] = members;
  const more =
    members.length > 1 ? ` (and ${members.length - 1} more ${members.length === 2 ? 'member' : 'members'})` : '';
  return {
    code: 'pins.group-overlap',
    message: `the ${first.domain} tabs of ${member}${more} are managed by two groups: "${first.group.name}" (${formatPosition(first.source)}) and "${second.group.name}" (${formatPosition(second.source)})`,
    wayOut: `narrow \`users\` or \`roles\` of one group so they do not both reach ${member}, or give ${member} a PinnedViews document with \`userEmail\`, which wins over groups`,
    source: second.source,
    ids: [],
  };
}

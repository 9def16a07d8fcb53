import type { Desired } from '../domain/desired.js';
import { ViewctlError } from '../errors.js';
import { pinnedRead } from '../state/reads.js';
import type { SecondReads } from './capabilities.js';
import { hasPinGroups, memberPinLists } from './pin-members.js';

/**
 * The pinned lists' second read phase (`SecondReads`): a `PinnedViews` document is one
 * list per member and domain, which a group document reaches only through the users,
 * and which lists a plan reads depends on the views its first diff creates, renames
 * or deletes and on its scope. The kind expands and reads; the plan chooses.
 */
export const PIN_SECOND_READS: SecondReads = {
  declaresSecondReads: (desired) => desired.pins.length + (desired.pinGroups ?? []).length > 0,

  // Group documents name their members only through the users list, at REF too.
  secondReadsNeedUsers: (desired) => hasPinGroups(desired),

  secondReads(desired, users) {
    // One list per member and domain; members a document cannot have stop the plan before any pinned read.
    const expansion = memberPinLists(desired, users);
    const entries =
      expansion.reasons.length > 0
        ? []
        : selectMemberLists(desired, expansion.lists).map(({ key, ...pins }) => ({ key, pins }));
    return {
      entries,
      reasons: expansion.reasons,
      warnings: expansion.warnings,
      ...(hasPinGroups(desired) ? { skipped: expansion.skipped } : {}),
    };
  },

  secondRead: ({ pins }) => pinnedRead(pins.domain, pins.userEmail, pins.source),

  // Without the users read, a member's own document naming someone the service refuses
  // is only found here: the users tell a member who left (a warning, their list
  // skipped) from an address that never was one (an error, which stops the other reads).
  async refusedRead(error, { pins }, users) {
    if (!(error instanceof ViewctlError) || error.code !== 'pins.user-not-active') return undefined;
    const member = memberPinLists({ pins: [pins], pinGroups: [] }, await users());
    return { reasons: member.reasons, warnings: member.warnings };
  },

  // The diff gets the lists read, already expanded: the groups' skipped members and warnings travel beside them.
  narrowed: (desired, read) => ({ ...desired, pins: read.map((entry) => entry.pins), pinGroups: [] }),
};

/**
 * selectMemberLists keeps, of the expanded per-member lists, those of the members
 * `--target pins/EMAIL` names (all of them when no such selector was given), and
 * refuses a named member no document reaches (`target.unknown`), before any pinned read.
 */
export function selectMemberLists<T extends { userEmail: string }>(
  desired: Pick<Desired, 'pinMembers'>,
  lists: readonly T[],
): T[] {
  if (desired.pinMembers === undefined) return [...lists];
  const wanted = new Set(desired.pinMembers);
  const kept = lists.filter((list) => wanted.has(list.userEmail.toLowerCase()));
  const found = new Set(kept.map((list) => list.userEmail.toLowerCase()));
  const missing = desired.pinMembers.filter((email) => !found.has(email));
  if (missing.length > 0) {
    throw new ViewctlError(
      'target.unknown',
      `no manifest declares ${missing.length === 1 ? 'this target' : 'these targets'}: ${missing.map((email) => `pins/${email}`).join(', ')}; no pinned list was read`,
      {
        hint: 'pins/EMAIL names a member of a PinnedViews document: its userEmail, or an active member a group document reaches by users or roles',
      },
    );
  }
  return kept;
}

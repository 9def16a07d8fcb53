import { driftLabels } from '../kinds/capabilities.js';
import type { ApiUser } from '../domain/api-types.js';
import type { Desired, Live } from '../state/types.js';
import type { ChangeTest, Kind } from '../kinds/kind.js';
import { kindOf } from '../kinds/kinds.js';
import { membershipChanged } from './membership.js';
import type { Change, ChangeOrigin } from './types.js';

/**
 * The origin of each change of a `--base REF` plan (README, "Changes made outside
 * viewctl, labelled"). A change is the pull request's own unless the manifests ask the
 * same of its target at REF and now; then it is there because the live value moved away
 * from what REF asked (someone changed it in the app), because REF's change was never
 * applied, or because the workspace's members changed. Which one only a memory of past
 * applies can tell: until it says REF is the last applied state, the label is hedged.
 */

/**
 * BaseMemory is what the sweep memory says of the applies before this plan
 * (`planOrigins`): whether the base is the last applied state, and the members last seen.
 */
export interface BaseMemory {
  /** REF is the commit last applied (a memory of applies says so). */
  baseIsLastApplied: boolean;
  /** The workspace's users when last seen, to tell a member a group reaches only because membership changed. */
  usersLastSeen?: readonly ApiUser[];
}

/** OriginFacts are what decides one change's origin. */
export interface OriginFacts {
  /** The manifests ask the same of the target at REF and now, against today's live state (`askedAlike`). */
  askedAlike: boolean;
  /** The members a group reaches changed what REF asks of the target: true, false, or undefined when it cannot be told (`membershipChanged`). */
  membershipChanged: boolean | undefined;
}

/**
 * originOf decides a change's origin: none (the pull request's own) when the manifests
 * ask something else of the target at REF; `membership` when only the workspace's
 * members make the difference; `outside` only when REF is known to be the last applied
 * state and membership is known not to matter; otherwise `unapplied-or-outside`, never
 * asserting an edit in the app the tool cannot tell from an apply that did not happen.
 */
export function originOf(facts: OriginFacts, memory: BaseMemory): ChangeOrigin | undefined {
  if (!facts.askedAlike) return undefined;
  if (facts.membershipChanged === true) return 'membership';
  if (facts.membershipChanged === undefined || !memory.baseIsLastApplied) return 'unapplied-or-outside';
  return 'outside';
}

/**
 * changeOrigins builds, from the manifests at REF (`base`) and the live state the plan
 * read, the origin of each change of that plan, or undefined for the pull request's own.
 */
export function changeOrigins(
  base: Desired,
  live: Live,
  memory: BaseMemory,
): (change: Change) => ChangeOrigin | undefined {
  const alike = askedAlike(base, live);
  const membership = membershipChanged(base, { today: live.users, lastSeen: memory.usersLastSeen });
  return (change) => {
    if (!alike(change)) return undefined;
    return originOf({ askedAlike: true, membershipChanged: membership(change.target) }, memory);
  };
}

/**
 * currentOrigins labels the changes of a plan whose base is the manifests planned
 * (`desired`): a plan without `--base` whose last applied commit is the manifests' own,
 * or unknown. The manifests ask the same of every target then, so each change is drift:
 * `membership` when only the members make the difference, otherwise `outside` when the
 * manifests are known to be the last applied ones, and hedged when not.
 */
export function currentOrigins(
  desired: Desired,
  live: Live,
  memory: BaseMemory,
): (change: Change) => ChangeOrigin | undefined {
  const membership = membershipChanged(desired, { today: live.users, lastSeen: memory.usersLastSeen });
  return (change) => originOf({ askedAlike: true, membershipChanged: membership(change.target) }, memory);
}

/**
 * askedAlike tells, for each change of a plan of the current manifests against `live`,
 * whether `base` (the manifests at REF) asks the same of its target, as the change's
 * kind compares them (`DriftLabels.askedAlike`, built once per kind and only when a change of
 * it is asked about).
 */
function askedAlike(base: Desired, live: Live): (change: Change) => boolean {
  const tests = new Map<Kind, ChangeTest>();
  return (change) => {
    const kind = kindOf(change);
    let alike = tests.get(kind);
    if (alike === undefined) {
      alike = driftLabels(kind).askedAlike(base, live);
      tests.set(kind, alike);
    }
    return alike.test(change);
  };
}

import type { Desired, DesiredPins } from '../domain/desired.js';
import type { ApiUser } from '../domain/api-types.js';
import { memberPinLists } from '../kinds/pin-members.js';
import { canonicalJson } from '../kinds/canonical.js';

/**
 * What a pinned list asks for, without where it is written: two states of the manifests
 * (at a git REF and now) ask for the same list exactly when these values are equal,
 * whatever lines moved around them. Scoped plans pick the lists to read by them;
 * whether a change is the pull request's own is decided against the live state, where
 * names resolve to views (each kind's `askedAlike`: src/kinds/view-asked-alike.ts).
 */

/** KeyedPins is one member's desired pinned list in one domain, with its stable key (`pinsKey`). */
export interface KeyedPins {
  key: string;
  pins: DesiredPins;
}

/**
 * keyedPins lists the per-member desired pinned lists of the manifests, one per
 * (member, domain), keyed by `pinsKey`: `userEmail` documents as written, group
 * documents expanded to the active members they reach (`memberPinLists`, which needs
 * `users` whenever a group document exists). Refusals of the expansion are the diff's
 * to report; here a list is only compared.
 */
export function keyedPins(desired: Pick<Desired, 'pins' | 'pinGroups'>, users?: readonly ApiUser[]): KeyedPins[] {
  return memberPinLists(desired, users).lists.map(({ key, ...pins }) => ({ key, pins }));
}

/** pinsValue is what a desired pinned list asks for: its entries in order and whether it drops private tabs. */
export function pinsValue(pins: DesiredPins): string {
  return canonicalJson({ refs: pins.refs, unpinPrivate: pins.unpinPrivate });
}

import { DOMAINS } from '../domain/domains.js';
import type { DesiredPins } from '../domain/desired.js';
import { compareCodePoints } from '../kinds/canonical.js';
import { pinsValue, type KeyedPins } from './desired-values.js';
import type { TouchedViews } from '../kinds/views-after-plan.js';

/**
 * Which pinned lists a scoped plan reads (README, "Scoped and budgeted plans"). Reading
 * a member's list costs one request per domain, so a workspace of 1,000 members needs
 * more than the service's daily quota to read them all. These functions are pure: the
 * plan reads the views first, then asks them which lists to read.
 */

/** namesTouchedView tells whether a desired list names a view the plan creates, renames or deletes. */
export function namesTouchedView(pins: DesiredPins, touched: TouchedViews): boolean {
  return pins.refs.some((ref) => ('name' in ref ? touched.names.has(`${pins.domain}:${ref.name}`) : touched.ids.has(`${pins.domain}:${ref.viewId}`)));
}

/**
 * selectByBase keeps the lists a `--base REF` plan reads: those whose desired value
 * differs between REF and now (new lists included), and those naming a view the plan
 * creates, renames or deletes. Every other list asks for what it asked at REF.
 */
export function selectByBase(now: readonly KeyedPins[], base: readonly KeyedPins[], touched: TouchedViews): KeyedPins[] {
  const before = new Map(base.map((entry) => [entry.key, pinsValue(entry.pins)]));
  return now.filter((entry) => before.get(entry.key) !== pinsValue(entry.pins) || namesTouchedView(entry.pins, touched));
}

/** BudgetSlice is the lists a budgeted plan reads today and, when not all, which slice they are. */
interface BudgetSlice {
  read: KeyedPins[];
  /** 1-based `index` of `count` slices; absent when every list fits. */
  slice?: { index: number; count: number };
}

/**
 * budgetSlice fits the lists into `room` requests (one each). When they do not all
 * fit, the lists, ordered by member and domain, are cut into slices of `room` and the UTC day number
 * picks one: consecutive days read consecutive slices, so `count` daily runs cover
 * every list. `room` must be at least 1.
 */
export function budgetSlice(lists: readonly KeyedPins[], room: number, day: number): BudgetSlice {
  if (lists.length <= room) return { read: [...lists] };
  // By member, then domain: a slice holds whole members, so its reads spread over the
  // four domains' endpoints (each has its own rate limit) instead of queueing on one.
  const ordered = [...lists].sort((a, b) => compareCodePoints(a.pins.userEmail.toLowerCase(), b.pins.userEmail.toLowerCase())
    || DOMAINS.indexOf(a.pins.domain) - DOMAINS.indexOf(b.pins.domain) || compareCodePoints(a.key, b.key));
  const count = Math.ceil(ordered.length / room);
  const index = ((day % count) + count) % count;
  return { read: ordered.slice(index * room, (index + 1) * room), slice: { index: index + 1, count } };
}

/** utcDay is the number of whole UTC days since the epoch at `epochMs`. */
export function utcDay(epochMs: number): number {
  return Math.floor(epochMs / 86_400_000);
}

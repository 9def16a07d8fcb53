import type { DesiredPins } from '../domain/desired.js';
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
  return pins.refs.some((ref) =>
    'name' in ref ? touched.names.has(`${pins.domain}:${ref.name}`) : touched.ids.has(`${pins.domain}:${ref.viewId}`),
  );
}

/**
 * selectByBase keeps the lists a `--base REF` plan reads: those whose desired value
 * differs between REF and now (new lists included), and those naming a view the plan
 * creates, renames or deletes. Every other list asks for what it asked at REF.
 */
export function selectByBase(
  now: readonly KeyedPins[],
  base: readonly KeyedPins[],
  touched: TouchedViews,
): KeyedPins[] {
  const before = new Map(base.map((entry) => [entry.key, pinsValue(entry.pins)]));
  return now.filter(
    (entry) => before.get(entry.key) !== pinsValue(entry.pins) || namesTouchedView(entry.pins, touched),
  );
}

/** utcDay is the number of whole UTC days since the epoch at `epochMs`: a budgeted sweep's night. */
export function utcDay(epochMs: number): number {
  return Math.floor(epochMs / 86_400_000);
}

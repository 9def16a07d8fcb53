import type { DesiredPins } from '../domain/desired.js';
import { pinsValue, type KeyedPins } from './desired-values.js';
import type { TouchedViews } from '../kinds/views-after-plan.js';
import type { SweepMemory } from '../state/sweep-memory.js';
import { parseTarget } from '../domain/targets.js';

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
 * differs between REF and now (new lists included), those naming a view the plan
 * creates, renames or deletes, and those the sweep memory marks `pending` (a group's new
 * member, found by a report-only night and written by no one since) or records as held
 * at the last apply (`heldListKeys`), both in `due`: the next reviewed plan carries
 * them, so the next merge writes them. Every other list asks for what it asked at REF.
 */
export function selectByBase(
  now: readonly KeyedPins[],
  base: readonly KeyedPins[],
  touched: TouchedViews,
  due: ReadonlySet<string> = new Set(),
): KeyedPins[] {
  const before = new Map(base.map((entry) => [entry.key, pinsValue(entry.pins)]));
  return now.filter(
    (entry) =>
      before.get(entry.key) !== pinsValue(entry.pins) || namesTouchedView(entry.pins, touched) || due.has(entry.key),
  );
}

/**
 * heldListKeys are the keys of the pinned lists the sweep memory records as held when
 * the manifests were last applied (`lastApplied.held`: a list naming a held view, a
 * saved plan's stale list): any plan given the memory reads and plans them, so the hold
 * ends once one finds them as desired or an apply writes them.
 */
export function heldListKeys(memory: SweepMemory | undefined): Set<string> {
  return new Set(
    (memory?.lastApplied?.held ?? []).flatMap((target) => {
      const parsed = parseTarget(target);
      return parsed?.type === 'pins' ? [`${parsed.domain}:${parsed.userEmail}`] : [];
    }),
  );
}

/** pendingKeys are the keys of the lists the sweep memory marks pending: a group's new member's, not written yet. */
export function pendingKeys(memory: SweepMemory | undefined): Set<string> {
  return new Set(
    Object.entries(memory?.lists ?? {}).flatMap(([key, list]) => (list.pending === 'membership' ? [key] : [])),
  );
}

/** utcDay is the number of whole UTC days since the epoch at `epochMs`: a budgeted sweep's night. */
export function utcDay(epochMs: number): number {
  return Math.floor(epochMs / 86_400_000);
}

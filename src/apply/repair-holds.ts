import { parseTarget } from '../domain/targets.js';
import { repairs } from '../kinds/capabilities.js';
import { kindOf } from '../kinds/kinds.js';
import { deletedInAppNow, namesViewDeletedInApp } from '../kinds/view-deleted-outside.js';
import type { Plan } from '../plan/types.js';
import type { SweepMemory } from '../state/sweep-memory.js';
import type { Live } from '../state/types.js';

/**
 * When a hold ends (README, "What stays held"). The sweep memory records the targets an
 * apply held (`lastApplied.held`: a view whose bound id was not found, the lists naming
 * it, a create whose creator left, a saved plan's stale targets); self-heal leaves their
 * changes for a reviewed apply, since no reviewer saw them carried out. A hold ends when
 * its cause does, seen by a run that read the target with the memory: the target is as
 * the manifests ask (created again by hand, found as desired), or the view is known
 * deleted in the app (the memory saw it live and public, the listing read now lacks it),
 * so its create again is what the last full apply would have carried out, and a list
 * held with it is held no more. Pure: the memory, the plan and what was read are passed in.
 */

/**
 * VIEW_DELETION_CODES are the causes of a hold that a view's deletion in the app can be:
 * its bound id not found, its create again without a creator, a list or a prune naming
 * it. Only these end once the view is known deleted; a saved plan's stale target
 * (`apply.stale-target`) and what depends on it (`apply.held-dependent`) end found as
 * desired, or written by a later apply.
 */
const VIEW_DELETION_CODES: ReadonlySet<string> = new Set([
  'view.id-not-found',
  'view.create-needs-creator',
  'pins.names-held-view',
  'prune.names-held-view',
]);

/** HoldsNow are the memory's held targets as one run found them: those whose cause ended, and those still held. */
export interface HoldsNow {
  ended: string[];
  held: string[];
}

/**
 * holdsNow sorts the memory's held targets by what a plan made with that memory (`plan`)
 * and the reads it was made from (`live`) show. A target stays held when the run did not
 * read it, when the plan holds it again, or when the plan changes it (as its kind names
 * the targets a change may have been held under, `Repairs.repair(...).heldAs`) for
 * another reason than a view deleted in the app. It ends when the plan has no change of
 * it (as desired), or, held for a view's deletion (`lastApplied.heldCodes`, one of
 * `VIEW_DELETION_CODES`), when each of its changes concerns a view known deleted in the
 * app (`namesViewDeletedInApp`: its create again, the view made by hand in its place, a
 * list naming it). A hold of unknown cause (a memory without codes) ends only found as
 * desired: a memory can make viewctl do less, never more.
 */
export function holdsNow(
  memory: SweepMemory | undefined,
  plan: Pick<Plan, 'changes' | 'held'>,
  live: Pick<Live, 'views' | 'pins' | 'automations'>,
): HoldsNow {
  const before = memory?.lastApplied?.held ?? [];
  if (before.length === 0) return { ended: [], held: [] };
  const heldNow = new Set((plan.held ?? []).map((entry) => entry.target));
  const deleted = deletedInAppNow(memory, live.views);
  const changesOf = new Map<string, Plan['changes']>();
  for (const change of plan.changes) {
    for (const key of new Set(repairs(kindOf(change)).repair(change).heldAs ?? [change.target]))
      changesOf.set(key, [...(changesOf.get(key) ?? []), change]);
  }
  const codes = memory?.lastApplied?.heldCodes ?? {};
  const result: HoldsNow = { ended: [], held: [] };
  for (const target of before) {
    const changes = changesOf.get(target) ?? [];
    // Only a view's deletion ends with the view known deleted; any other cause, or one not recorded, ends found as desired.
    const viewCause = VIEW_DELETION_CODES.has(codes[target] ?? '');
    const ends =
      readNow(target, live) &&
      !heldNow.has(target) &&
      (changes.length === 0 || (viewCause && changes.every((change) => namesViewDeletedInApp(change, deleted))));
    (ends ? result.ended : result.held).push(target);
  }
  return result;
}

/** readNow tells whether the run read `target`: its domain's listing, its pinned list, the automations; never a target this build does not write. */
function readNow(target: string, live: Pick<Live, 'views' | 'pins' | 'automations'>): boolean {
  const parsed = parseTarget(target);
  if (parsed === undefined) return false;
  if (parsed.type === 'automations') return live.automations !== undefined;
  if (parsed.type === 'pins') return live.pins[`${parsed.domain}:${parsed.userEmail}`] !== undefined;
  return live.views[parsed.domain] !== undefined;
}

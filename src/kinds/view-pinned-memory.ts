import type { Domain } from '../domain/domains.js';
import type { SweepMemory } from '../state/sweep-memory.js';
import type { Live } from '../state/types.js';
import type { DeleteChange } from './changes.js';

/** RememberedPinning is what the sweep memory knows of the lists a plan did not read about one view (`DeleteChange.pinLists.remembered`). */
export type RememberedPinning = NonNullable<NonNullable<DeleteChange['pinLists']>['remembered']>;

/**
 * rememberedPinning is the last known count of the pinned lists of `domain` that this
 * plan did not read (not in `live.pins`) and that held view `id` when the sweep memory
 * last read them (README, "Scoped and budgeted plans"): how many lists the memory
 * knows of those, how many of them held it, and the date the figure is at least as
 * recent as (the oldest last read among those that held it, or among all it knows when
 * none did). Undefined when the memory read none of them. Advice: a deletion is never
 * allowed or refused on it, only described.
 */
export function rememberedPinning(
  memory: SweepMemory,
  live: Pick<Live, 'pins'>,
  domain: Domain,
  id: string,
): RememberedPinning | undefined {
  let lists = 0;
  let pinning = 0;
  let oldestPinning: string | undefined;
  let oldest: string | undefined;
  for (const [key, list] of Object.entries(memory.lists)) {
    if (!key.startsWith(`${domain}:`) || live.pins[key] !== undefined) continue;
    lists += 1;
    if (oldest === undefined || list.lastRead < oldest) oldest = list.lastRead;
    if (!list.viewIds.includes(id)) continue;
    pinning += 1;
    if (oldestPinning === undefined || list.lastRead < oldestPinning) oldestPinning = list.lastRead;
  }
  const asOf = oldestPinning ?? oldest;
  return asOf === undefined ? undefined : { lists, pinning, asOf };
}

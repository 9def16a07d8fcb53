import { viewTarget } from '../domain/targets.js';
import type { Domain } from '../domain/domains.js';
import type { SweepMemory } from './sweep-memory.js';

/**
 * What an apply adds to the sweep memory: what it wrote and saw land. A write is as
 * good as a read of what it wrote: the service answered it.
 */

/** AppliedFacts are the writes an apply saw land (or found already landed), in the memory's terms. */
export interface AppliedFacts {
  /** Each pinned list written (`pinsKey`): the ids it holds now, in tab order. */
  lists: Record<string, string[]>;
  /** Views created or updated: live and public now, under this name. */
  seen: { domain: Domain; id: string; name: string }[];
  /** Views deleted: gone. */
  deleted: { domain: Domain; id: string }[];
}

/**
 * rememberApplied is `memory` after an apply at `now` (milliseconds) that landed
 * `facts`: the lists it wrote hold their new ids, the views it created or renamed are
 * seen under their names, the views it deleted are forgotten (the memory recalls views
 * deleted in the app, not by viewctl).
 */
export function rememberApplied(memory: SweepMemory, facts: AppliedFacts, now: number): SweepMemory {
  const at = new Date(now).toISOString();
  const lists = { ...memory.lists };
  for (const [key, viewIds] of Object.entries(facts.lists)) lists[key] = { lastRead: at, viewIds: [...viewIds] };
  const views = { ...memory.views };
  for (const view of facts.seen) views[viewTarget(view.domain, view.id)] = { domain: view.domain, id: view.id, name: view.name, lastSeen: at };
  for (const view of facts.deleted) delete views[viewTarget(view.domain, view.id)];
  return { ...memory, lists, views };
}

/** advanceLastApplied is `memory` with `commit` as the manifests' commit last applied, at `now` (milliseconds). */
export function advanceLastApplied(memory: SweepMemory, commit: string, now: number): SweepMemory {
  return { ...memory, lastApplied: { commit, at: new Date(now).toISOString() } };
}

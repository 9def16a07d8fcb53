import { viewTarget } from '../domain/targets.js';
import type { Domain } from '../domain/domains.js';
import { seenView, type LastApplied, type SweepMemory, type ViewDigests } from './sweep-memory.js';

/**
 * What an apply adds to the sweep memory: what it wrote and saw land. A write is as
 * good as a read of what it wrote: the service answered it.
 */

/** AppliedFacts are the writes an apply saw land (or found already live), in the memory's terms. */
export interface AppliedFacts {
  /** Each pinned list written (`pinsKey`): the ids it holds now, in tab order. */
  lists: Record<string, string[]>;
  /** Views created or updated: live and public now, under this name, with the digests of what was written when known. */
  seen: { domain: Domain; id: string; name: string; digests?: ViewDigests }[];
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
  for (const view of facts.seen) {
    const key = viewTarget(view.domain, view.id);
    views[key] = seenView(views[key], view, at);
  }
  for (const view of facts.deleted) delete views[viewTarget(view.domain, view.id)];
  return { ...memory, lists, views };
}

/** AppliedRecord is what a complete apply carried out: the manifests' commit, the digest of the desired state loaded, and the manifest paths read. */
export type AppliedRecord = Required<Pick<LastApplied, 'commit' | 'digest' | 'paths'>>;

/** HeldTargets are the targets an apply leaves held (`heldAfterApply`), with the code each was held with when known. */
export interface HeldTargets {
  targets: readonly string[];
  /** By target: why it was held (`view.id-not-found`, `apply.stale-target`, ...); a target without one has an unknown cause. */
  codes?: Readonly<Record<string, string>>;
}

/**
 * advanceLastApplied is `memory` with `applied` as what was last applied, at `now`
 * (milliseconds), holding back `held` (`heldAfterApply`) with the codes known of them.
 */
export function advanceLastApplied(
  memory: SweepMemory,
  applied: AppliedRecord,
  now: number,
  held: HeldTargets = { targets: [] },
): SweepMemory {
  const sorted = [...new Set(held.targets)].sort();
  const codes = codesOf(sorted, held.codes);
  return {
    ...memory,
    lastApplied: {
      commit: applied.commit,
      at: new Date(now).toISOString(),
      digest: applied.digest,
      paths: [...new Set(applied.paths)].sort(),
      ...(sorted.length === 0 ? {} : { held: sorted }),
      ...(codes === undefined ? {} : { heldCodes: codes }),
    },
  };
}

/**
 * heldAfterApply is what an apply that exited 0 leaves held: the targets its plan held
 * (with their codes), and, unless it read every target (a plan of the whole manifests,
 * not scoped by `--base` nor a self-heal sweep), those held before (`before`, with the
 * codes recorded then) that it carried out no change of: a target it did not read may
 * still be as it was when held.
 */
export function heldAfterApply(
  before: Pick<LastApplied, 'held' | 'heldCodes'> | undefined,
  plan: {
    held: readonly { target: string; code: string }[];
    changed: readonly string[];
    readEverything: boolean;
  },
): HeldTargets {
  const changed = new Set(plan.changed);
  const kept = plan.readEverything ? [] : (before?.held ?? []).filter((target) => !changed.has(target));
  const codes: Record<string, string> = {};
  for (const target of kept) {
    const code = before?.heldCodes?.[target];
    if (code !== undefined) codes[target] = code;
  }
  for (const entry of plan.held) codes[entry.target] = entry.code;
  return { targets: [...new Set([...kept, ...plan.held.map((entry) => entry.target)])], codes };
}

/**
 * withHoldsEnded is `applied` without the held targets in `ended`, those whose cause a
 * run saw end (`holdsNow`): the target is as the manifests ask, or the view it waited on
 * is known deleted in the app. A record left holding nothing holds no `held` list.
 */
export function withHoldsEnded(applied: LastApplied, ended: ReadonlySet<string>): LastApplied {
  if (applied.held === undefined || !applied.held.some((target) => ended.has(target))) return applied;
  const { held, heldCodes, ...rest } = applied;
  const left = held.filter((target) => !ended.has(target));
  const codes = codesOf(left, heldCodes);
  return {
    ...rest,
    ...(left.length === 0 ? {} : { held: left }),
    ...(codes === undefined ? {} : { heldCodes: codes }),
  };
}

/** codesOf are `codes` of `targets` alone, undefined when none is known (the record then holds no `heldCodes`). */
function codesOf(
  targets: readonly string[],
  codes: Readonly<Record<string, string>> | undefined,
): Record<string, string> | undefined {
  const entries = targets.flatMap((target) => {
    const code = codes?.[target];
    return code === undefined ? [] : [[target, code] as const];
  });
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}

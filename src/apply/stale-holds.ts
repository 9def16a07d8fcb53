import { describeChange, heldDependency, staleWhy } from '../kinds/capabilities.js';
import type { HeldEntry } from '../domain/apply-report.js';
import type { WriteAnswer } from '../kinds/execution.js';
import { isApplied, kindOf } from '../kinds/kinds.js';
import { driftedRecord } from '../plan/drift-record.js';
import { applyLoad } from '../plan/requests.js';
import { summarize } from '../plan/summary.js';
import type { Change, HeldTarget, Plan } from '../plan/types.js';
import type { Live } from '../state/types.js';
import { savedPlanState } from './gates.js';

/**
 * Stale targets are held, not the plan (README, "Fail-safe rules"): a saved plan whose
 * stale check fails for some targets holds those, with every change that depends on
 * them as their kinds say (`SavedPlanChecks.dependsOn`), and carries out the rest,
 * whose targets are still as the plan was computed from: each change carried out is
 * what its reviewer approved.
 */

/** StaleHolds are how a saved plan stands against the live state: the changes already applied, and those held. */
export interface StaleHolds {
  /** Index in `plan.changes` of each change already at its `after` (`SavedPlanState.alreadyLive`): skipped. */
  alreadyLive: Map<number, WriteAnswer>;
  /** Index in `plan.changes` of each held change, with what the report says of it. */
  held: Map<number, HeldEntry>;
}

/**
 * holdStale holds the saved plan's stale targets (`savedPlanState`), each with why, as
 * its kind says (`SavedPlanChecks.staleWhy`), then, until none is added, every change
 * left that depends on a held one (`SavedPlanChecks.dependsOn`): a pinned list naming a
 * view a held create makes waits with it, and so would a list naming a view that list's
 * create needed. Changes already applied are never held: nothing is sent for them.
 */
export function holdStale(plan: Plan, live: Live): StaleHolds {
  const { alreadyLive, stale } = savedPlanState(plan, live);
  const held = new Map<number, HeldEntry>();
  const staleSet = new Set(stale);
  plan.changes.forEach((change, index) => {
    if (!isApplied(change) || alreadyLive.has(index) || !staleSet.has(change.target)) return;
    held.set(index, {
      target: change.target,
      code: 'apply.stale-target',
      change: describeChange(kindOf(change), change),
      reason: `changed since the plan was reviewed (in the app, or by another apply): ${staleWhy(kindOf(change), change, live)}`,
    });
  });
  let added = held.size > 0;
  while (added) {
    added = false;
    const heldChanges = [...held.keys()].map((index) => plan.changes[index] as Change);
    plan.changes.forEach((change, index) => {
      if (!isApplied(change) || alreadyLive.has(index) || held.has(index)) return;
      const dependency = heldDependency(kindOf(change), change, heldChanges);
      if (dependency === undefined) return;
      const on = dependency.change.target;
      held.set(index, {
        target: change.target,
        code: 'apply.held-dependent',
        change: describeChange(kindOf(change), change),
        reason: `depends on ${describeChange(kindOf(dependency.change), dependency.change)}, which is held: ${dependency.why}`,
        dependsOn: on,
      });
      added = true;
    });
  }
  return { alreadyLive, held: withDependents(held) };
}

/** withDependents adds to each held entry the targets held because they depend on it, in the plan's order. */
function withDependents(held: Map<number, HeldEntry>): Map<number, HeldEntry> {
  const dependents = new Map<string, string[]>();
  for (const entry of held.values())
    if (entry.dependsOn !== undefined)
      dependents.set(entry.dependsOn, [...(dependents.get(entry.dependsOn) ?? []), entry.target]);
  // In the plan's order, as the plan lists its changes.
  return new Map(
    [...held]
      .sort(([a], [b]) => a - b)
      .map(([index, entry]) => {
        const own = dependents.get(entry.target);
        return [index, own === undefined ? entry : { ...entry, dependents: own }];
      }),
  );
}

/**
 * PlanLeft is the saved plan without its held changes, which apply checks and carries
 * out, and its changes already applied, indexed in it.
 */
export interface PlanLeft {
  plan: Plan;
  alreadyLive: Map<number, WriteAnswer>;
}

/**
 * planLeft is the saved plan as apply carries it out once `holds` are taken: its held
 * changes and their steps left out (the other steps renumbered), its summary, drift
 * count and requests apply needs those of the changes left, and each held target listed with the plan's own
 * held ones, so the plan shown says what is held and why, and the sweep memory records
 * it. The digest stays the reviewed plan's: what is carried out is part of what was approved.
 */
export function planLeft(plan: Plan, holds: StaleHolds): PlanLeft {
  if (holds.held.size === 0) return { plan, alreadyLive: holds.alreadyLive };
  const renumbered = new Map<number, number>();
  const changes: Change[] = [];
  plan.changes.forEach((change, index) => {
    if (holds.held.has(index)) return;
    renumbered.set(index, changes.length);
    changes.push(change);
  });
  const steps = plan.steps.flatMap((step) => {
    const index = renumbered.get(step.change);
    return index === undefined ? [] : [{ ...step, change: index }];
  });
  const held: HeldTarget[] = [...(plan.held ?? []), ...[...holds.held.values()].map(heldTarget)];
  const alreadyLive = new Map(
    [...holds.alreadyLive].map(([index, shown]) => [renumbered.get(index) ?? -1, shown] as const),
  );
  const drifted =
    plan.drifted === undefined
      ? {}
      : {
          drifted: driftedRecord(changes, {
            ...(plan.drifted.lastApplied === undefined ? {} : { lastApplied: plan.drifted.lastApplied }),
            countsUnapplied: plan.drifted.unapplied !== undefined,
          }),
        };
  const requests = { ...plan.requests, applyNeeds: applyLoad({ changes, steps }).total };
  return { plan: { ...plan, changes, steps, summary: summarize(changes), held, requests, ...drifted }, alreadyLive };
}

/** heldTarget is a held entry as the plan lists its held targets, with the way out. */
function heldTarget(entry: HeldEntry): HeldTarget {
  return {
    target: entry.target,
    code: entry.code,
    reason: `${entry.change}: ${entry.reason}`,
    wayOut: 'plan it again and review that plan: the rest of this plan is carried out without it',
  };
}

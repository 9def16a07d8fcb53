import { RefusedError, UsageError } from '../errors.js';
import { createdKey } from '../kinds/kind.js';
import { kindOf } from '../kinds/kinds.js';
import { storedOperations, type Operation } from '../plan/operations.js';
import type { Plan } from '../plan/types.js';
import { readKey } from '../state/live-read.js';
import type { SweepMemory } from '../state/sweep-memory.js';

/**
 * Self-heal (`apply --budget N`, README "Self-heal: `apply --budget`"): a nightly
 * apply that reads as `plan --budget N` does and carries out only what restores the
 * manifests a reviewed apply already carried out. Which changes those are is each
 * kind's to say (`Kind.repair`); this file only checks that the manifests are the last
 * applied ones, splits the budget between reads and writes, and cuts the repairs to
 * what the budget leaves. Pure: the memory, the commit and the figures are passed in.
 */

/**
 * ManifestsCommit is where the manifests stand in git: HEAD's commit, whether the files
 * match it, and the other commit (the last applied one) whose manifests git found the
 * same as HEAD's, when it did: commits that touched only other files (docs, workflows)
 * change nothing a repair writes.
 */
export interface ManifestsCommit {
  commit: string;
  clean: boolean;
  sameManifestsAs?: string;
  /** The last applied commit, when the checkout lacks it (a shallow clone), so git could not compare its manifests with HEAD's. */
  lacks?: string;
}

/**
 * repairReadBudget is what of `--budget N` self-heal lets its reads spend: N less a
 * fifth of it (rounded up), kept for the writes of the repairs and the reads that
 * verify them. A pinned list costs one read, and when it drifted one write (its answer
 * verifies it); a view's repair one write and one listing read per domain.
 */
export function repairReadBudget(budget: number): number {
  return budget - Math.ceil(budget / 5);
}

/**
 * checkRepairBase refuses self-heal, before any request, unless the sweep memory
 * records an apply of exactly the manifests checked out now: HEAD's commit, or one
 * whose manifests git found the same, with no uncommitted edit below the manifest paths. Anything else may hold a merged change
 * no reviewed apply has carried out, which a repair must never write. No memory at all
 * is a usage error (`--ledger FILE` was not given).
 */
export function checkRepairBase(memory: SweepMemory | undefined, head: ManifestsCommit | undefined): void {
  if (memory === undefined) {
    throw new UsageError(
      'usage.budget-without-ledger',
      'apply --budget repairs only manifests that are the last applied ones, and only the sweep memory records which those are, but no --ledger FILE was given; nothing was read or written',
      'pass --ledger FILE, the file the applies of reviewed plans record their commit in; or report drift without repairing: viewctl plan --budget N',
    );
  }
  const applied = memory.lastApplied;
  const refuse = (
    why: string,
    hint = 'apply the reviewed plan of what was merged since (viewctl plan --out plan.json, review it, viewctl apply --plan plan.json --ledger FILE, as the apply workflow does on merge); the next night repairs again. Meanwhile viewctl plan --budget N reports drift without writing',
    lead = 'a reviewed apply is due',
  ): never => {
    throw new RefusedError('apply.review-due', `${lead}: ${why}; nothing was read or written`, hint);
  };
  const short = (commit: string): string => commit.slice(0, 7);
  if (applied === undefined) {
    refuse(
      `the sweep memory records no apply yet, so nothing says the manifests${head === undefined ? '' : ` at HEAD (${short(head.commit)})`} were applied`,
    );
    return;
  }
  if (head === undefined)
    refuse(
      `the manifests are not in a git repository, so nothing says they are the last applied (${short(applied.commit)})`,
    );
  else if (head.commit !== applied.commit && head.sameManifestsAs !== applied.commit && head.lacks === applied.commit) {
    refuse(
      `the checkout lacks the last applied commit (${short(applied.commit)}), so git cannot tell whether the manifests at HEAD (${short(head.commit)}) are the same (a shallow clone)`,
      'fetch the history and run again: actions/checkout with fetch-depth: 0, as the example drift workflow does, or git fetch --unshallow. Meanwhile viewctl plan --budget N reports drift without writing',
      'self-heal cannot tell whether a reviewed apply is due',
    );
  } else if (head.commit !== applied.commit && head.sameManifestsAs !== applied.commit) {
    refuse(
      `the manifests at HEAD (${short(head.commit)}) are not the last applied (${short(applied.commit)}), or the checkout lacks that commit to compare them`,
    );
  } else if (!head.clean)
    refuse(
      `the manifests have uncommitted edits since HEAD (${short(head.commit)}), whose manifests are the last applied`,
    );
}

/**
 * RepairChoice is what self-heal does with each change apply would carry out (indexes
 * in `plan.changes`): repairs it (`repaired`), leaves it for a reviewed apply (not
 * repairable: a prune deletion; or its target was held when the manifests were last
 * applied, so no reviewer saw its changes), or leaves it for the next night (repairable,
 * but the budget left no room for its writes and their verification).
 */
export interface RepairChoice {
  repaired: number[];
  leftForReview: number[];
  /** Changes of targets held at the last apply (`LastApplied.held`): left for a reviewed apply too. */
  heldWhenApplied: number[];
  leftForNextNight: number[];
  /**
   * Pinned lists beyond `--max-pin-changes`: repairable, but self-heal rewrites no more
   * lists a night than apply would accept; absent when none was left so.
   */
  leftOverPinLimit?: { indexes: number[]; maxPinChanges: number };
  /** What of the room for writes the repairs need, their verification reads included. */
  requests: number;
  /** `--budget N` as given, and what its reads were kept to (`repairReadBudget`). */
  budget: { given: number; reads: number };
}

/**
 * chooseRepairs sorts the plan's applied changes, in the order apply sends them, into
 * repaired, left for a reviewed apply (the change's kind says it is not repairable,
 * `Kind.repair`, or its target is in `heldWhenApplied`, the targets the last apply held)
 * and left for the next night: a repair is taken while its writes and
 * the verification reads it adds (each read once, `Kind.verifyReads`) fit in `room`,
 * and a pinned list naming a view this run creates goes only with that create.
 */
export function chooseRepairs(
  plan: Pick<Plan, 'changes' | 'steps'>,
  room: number,
  budget: RepairChoice['budget'],
  heldWhenApplied: ReadonlySet<string> = new Set(),
  maxPinChanges = Number.POSITIVE_INFINITY,
): RepairChoice {
  const byChange = new Map<number, Operation[]>();
  for (const operation of storedOperations(plan))
    byChange.set(operation.changeIndex, [...(byChange.get(operation.changeIndex) ?? []), operation]);
  const choice: RepairChoice = {
    repaired: [],
    leftForReview: [],
    heldWhenApplied: [],
    leftForNextNight: [],
    requests: 0,
    budget,
  };
  const created = new Set<string>();
  const verifying = new Set<string>();
  let pinLists = 0;
  for (const [index, operations] of byChange) {
    const change = plan.changes[index];
    if (change === undefined) continue;
    const kind = kindOf(change);
    const role = kind.repair(change);
    if (!role.repairable) {
      choice.leftForReview.push(index);
      continue;
    }
    if ((role.heldAs ?? [change.target]).some((key) => heldWhenApplied.has(key))) {
      choice.heldWhenApplied.push(index);
      continue;
    }
    const depends = operations.some((operation) =>
      operation.newViewTabs.some(
        (tab) => operation.domain === undefined || !created.has(createdKey(operation.domain, tab.name)),
      ),
    );
    const reads = kind
      .verifyReads(change)
      .map(readKey)
      .filter((key) => !verifying.has(key));
    const cost = operations.length + new Set(reads).size;
    // The first lists are repaired, the rest wait: a glob that reached too many members is no repair.
    if (change.action === 'pin' && pinLists >= maxPinChanges) {
      choice.leftOverPinLimit ??= { indexes: [], maxPinChanges };
      choice.leftOverPinLimit.indexes.push(index);
      continue;
    }
    if (depends || choice.requests + cost > room) {
      choice.leftForNextNight.push(index);
      continue;
    }
    choice.repaired.push(index);
    if (change.action === 'pin') pinLists += 1;
    choice.requests += cost;
    for (const key of reads) verifying.add(key);
    for (const operation of operations) if (operation.creates !== undefined) created.add(operation.creates);
  }
  return choice;
}

/** repairPlan is `plan` with only the repairs' steps: what the gates check and apply sends. */
export function repairPlan(plan: Plan, choice: RepairChoice): Plan {
  const repaired = new Set(choice.repaired);
  return { ...plan, steps: plan.steps.filter((step) => repaired.has(step.change)) };
}

import { rewritesPinnedList } from '../plan/action-traits.js';
import { repairs } from '../kinds/capabilities.js';
import { RefusedError, UsageError } from '../errors.js';
import { createdKey } from '../kinds/kind.js';
import { kindOf } from '../kinds/kinds.js';
import { storedOperations, type Operation } from '../plan/operations.js';
import type { Plan } from '../plan/types.js';
import { readKey } from '../state/live-read.js';
import type { LastApplied, SweepMemory } from '../state/sweep-memory.js';

/**
 * Self-heal (`apply --budget N`, README "Self-heal: `apply --budget`"): a nightly
 * apply that reads as `plan --budget N` does and carries out only what restores the
 * manifests a reviewed apply already carried out. Which changes those are is each
 * kind's to say (`Repairs.repair`); this file only checks that the manifests are the last
 * applied ones, splits the budget between reads and writes, and cuts the repairs to
 * what the budget leaves. Pure: the memory, the commit and the figures are passed in.
 */

/**
 * ManifestsCommit is what self-heal found of the manifests it loaded, before any request:
 * HEAD's commit, whether the files match it, the other commit (the last applied one)
 * whose manifests git found the same as HEAD's when it is HEAD or an ancestor of it
 * (commits that touched only other files, docs or workflows, change nothing a repair
 * writes), the manifest paths read, the digest of the desired state loaded, and each
 * file read that is not the content git tracks at HEAD.
 */
export interface ManifestsCommit {
  commit: string;
  clean: boolean;
  sameManifestsAs?: string;
  /** The last applied commit, when the checkout lacks it (a shallow clone), so git could not compare its manifests with HEAD's. */
  lacks?: string;
  /** The last applied commit, when the checkout has it but it is not HEAD nor an ancestor of HEAD (another branch's, or a foreign memory). */
  offHistory?: string;
  /** The manifest paths read, as paths in the repository, sorted. */
  paths: string[];
  /** The digest of the desired state loaded (`desiredDigest`). */
  digest: string;
  /** Why each file read that git does not track at HEAD is not (ignored, untracked, read through a link out of the repository). */
  untracked: string[];
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

/** REVIEW_DUE_HINT is the way out of a due review: the reviewed apply of what was merged. */
const REVIEW_DUE_HINT =
  'apply the reviewed plan of what was merged since (viewctl plan --out plan.json, review it, viewctl apply --plan plan.json --ledger FILE, as the apply workflow does on merge); the next night repairs again. Meanwhile viewctl plan --budget N reports drift without writing';

/**
 * checkRepairBase is self-heal's one review gate (README, "Self-heal: `apply
 * --budget`"), run before any request: it refuses unless the desired state loaded now
 * is the one a complete, reviewed apply last carried out. The memory's record is only a
 * claim, so the repository must bear it out: the recorded commit is HEAD, or an
 * ancestor of HEAD whose manifests git finds the same; no manifest has uncommitted
 * edits; every file read is the content git tracks at HEAD (not ignored, untracked, or
 * read through a link out of the repository); the paths read are those recorded; and
 * the digest of the desired state loaded is the one recorded. A stale, foreign or edited
 * memory file can thus only make self-heal refuse. No memory at all is a usage error
 * (`--ledger FILE` was not given).
 */
export function checkRepairBase(memory: SweepMemory | undefined, head: ManifestsCommit | undefined): void {
  if (memory === undefined) {
    throw new UsageError(
      'usage.budget-without-ledger',
      'apply --budget repairs only manifests that are the last applied ones, and only the sweep memory records which those are, but no --ledger FILE was given; nothing was read or written',
      'pass --ledger FILE, the file the applies of reviewed plans record their commit in; or report drift without repairing: viewctl plan --budget N',
    );
  }
  const due = reviewDue(memory.lastApplied, head);
  if (due !== undefined)
    throw new RefusedError('apply.review-due', `${due.lead}: ${due.why}; nothing was read or written`, due.hint);
}

/** ReviewDue is why self-heal must not repair: the lead (a reviewed apply is due, or self-heal cannot tell), why, and the way out. */
export interface ReviewDue {
  lead: string;
  why: string;
  hint: string;
}

/** reviewDue is why the memory's record (`applied`) and what self-heal loaded (`head`) do not match, in the order `checkRepairBase` says; undefined when they do. */
export function reviewDue(applied: LastApplied | undefined, head: ManifestsCommit | undefined): ReviewDue | undefined {
  const refuse = (why: string, hint = REVIEW_DUE_HINT, lead = 'a reviewed apply is due'): ReviewDue => ({
    lead,
    why,
    hint,
  });
  const short = (commit: string): string => commit.slice(0, 7);
  if (applied === undefined)
    return refuse(
      `the sweep memory records no apply yet, so nothing says the manifests${head === undefined ? '' : ` at HEAD (${short(head.commit)})`} were applied`,
    );
  if (head === undefined)
    return refuse(
      `the manifests are not in a git repository, so nothing says they are the last applied (${short(applied.commit)})`,
    );
  const same = head.commit === applied.commit || head.sameManifestsAs === applied.commit;
  if (!same && head.lacks === applied.commit)
    return refuse(
      `the checkout lacks the last applied commit (${short(applied.commit)}), so git cannot tell whether the manifests at HEAD (${short(head.commit)}) are the same (a shallow clone)`,
      'fetch the history and run again: actions/checkout with fetch-depth: 0, as the example drift workflow does, or git fetch --unshallow. Meanwhile viewctl plan --budget N reports drift without writing',
      'self-heal cannot tell whether a reviewed apply is due',
    );
  if (!same && head.offHistory === applied.commit)
    return refuse(
      `HEAD (${short(head.commit)}) is not the last applied (${short(applied.commit)}) nor a commit after it: the sweep memory records an apply of another branch, or of another repository`,
    );
  if (!same)
    return refuse(
      `the manifests at HEAD (${short(head.commit)}) are not the last applied (${short(applied.commit)}), or the checkout lacks that commit to compare them`,
    );
  if (!head.clean)
    return refuse(
      `the manifests have uncommitted edits since HEAD (${short(head.commit)}), whose manifests are the last applied`,
    );
  if (head.untracked.length > 0)
    return refuse(
      `${head.untracked.slice(0, 3).join('; ')}${head.untracked.length > 3 ? `; and ${head.untracked.length - 3} more` : ''}: only what git tracks was reviewed`,
      'commit the manifests self-heal reads (or move the others out of its paths), then apply the reviewed plan of them; meanwhile viewctl plan --budget N reports drift without writing',
    );
  if (applied.digest === undefined || applied.paths === undefined)
    return refuse(
      `the sweep memory's last applied record (${short(applied.commit)}) does not record which desired state was applied (written by an earlier viewctl); a full reviewed apply records it`,
      'apply the whole manifests once, reviewed (viewctl apply --plan plan.json --ledger FILE of a plan of them, as the apply workflow does on merge); the nights after repair again',
    );
  if (applied.paths.join('\0') !== head.paths.join('\0'))
    return refuse(
      `self-heal loaded the manifests at ${head.paths.join(' ')}, but the last reviewed apply carried out those at ${applied.paths.join(' ')}`,
      `run self-heal on the manifests the reviewed applies carry out (${applied.paths.join(' ')})`,
    );
  if (applied.digest !== head.digest)
    return refuse(
      `the desired state loaded now is not the one the last reviewed apply carried out (digest ${head.digest.slice(0, 12)}, recorded ${applied.digest.slice(0, 12)})`,
    );
  return undefined;
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
  /** Pinned lists naming a view whose create is left for a reviewed apply: they wait for it, whatever the budget. */
  waitingForReview: number[];
  /** Pinned lists naming a view whose create is left for the next night: they go with it, not for want of room of their own. */
  waitingForCreate: number[];
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
 * `Repairs.repair`, or its target is in `heldWhenApplied`, the targets the last apply held)
 * and left for the next night: a repair is taken while its writes and
 * the verification reads it adds (each read once, `Kind.verifyReads`) fit in `room`,
 * and a pinned list naming a view this run creates goes only with that create; one
 * naming a view whose create is left for a reviewed apply waits for that apply
 * (`waitingForReview`), whatever the room.
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
    waitingForReview: [],
    waitingForCreate: [],
    leftForNextNight: [],
    requests: 0,
    budget,
  };
  const created = new Set<string>();
  // The views whose create is left for a reviewed apply: a list naming one waits for it, not for room.
  const reviewed = new Set<string>();
  const leaveForReview = (into: number[], index: number, operations: readonly Operation[]): void => {
    into.push(index);
    for (const operation of operations) if (operation.creates !== undefined) reviewed.add(operation.creates);
  };
  // The views whose create is left for the next night: a list naming one waits for it.
  const deferred = new Set<string>();
  const leaveForNextNight = (into: number[], index: number, operations: readonly Operation[]): void => {
    into.push(index);
    for (const operation of operations) if (operation.creates !== undefined) deferred.add(operation.creates);
  };
  const verifying = new Set<string>();
  let pinLists = 0;
  for (const [index, operations] of byChange) {
    const change = plan.changes[index];
    if (change === undefined) continue;
    const kind = kindOf(change);
    const role = repairs(kind).repair(change);
    if (!role.repairable) {
      leaveForReview(choice.leftForReview, index, operations);
      continue;
    }
    if ((role.heldAs ?? [change.target]).some((key) => heldWhenApplied.has(key))) {
      leaveForReview(choice.heldWhenApplied, index, operations);
      continue;
    }
    const named = operations.flatMap((operation) =>
      operation.newViewTabs.map((tab) =>
        operation.domain === undefined ? undefined : createdKey(operation.domain, tab.name),
      ),
    );
    if (named.some((key) => key !== undefined && reviewed.has(key))) {
      choice.waitingForReview.push(index);
      continue;
    }
    const depends = named.some((key) => key === undefined || !created.has(key));
    const reads = kind
      .verifyReads(change)
      .map(readKey)
      .filter((key) => !verifying.has(key));
    const cost = operations.length + new Set(reads).size;
    // The first lists are repaired, the rest wait: a glob that reached too many members is no repair.
    if (rewritesPinnedList(change) && pinLists >= maxPinChanges) {
      choice.leftOverPinLimit ??= { indexes: [], maxPinChanges };
      leaveForNextNight(choice.leftOverPinLimit.indexes, index, operations);
      continue;
    }
    if (named.some((key) => key !== undefined && deferred.has(key))) {
      choice.waitingForCreate.push(index);
      continue;
    }
    if (depends || choice.requests + cost > room) {
      leaveForNextNight(choice.leftForNextNight, index, operations);
      continue;
    }
    choice.repaired.push(index);
    if (rewritesPinnedList(change)) pinLists += 1;
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

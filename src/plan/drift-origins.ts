import { repairs, sweepMemoryAnswers } from '../kinds/capabilities.js';
import type { ApiUser } from '../domain/api-types.js';
import { kindOf } from '../kinds/kinds.js';
import type { Desired, Live } from '../state/types.js';
import { sameTabs, type SweepMemory } from '../state/sweep-memory.js';
import { changeOrigins, currentOrigins, type BaseMemory } from './outside.js';
import type { Change, ChangeOrigin, PlanDrift } from './types.js';

/**
 * Which origins a plan labels (README, "Drift: who, what, when"). A `--base REF` plan
 * compares its changes with the manifests at REF; a plan without `--base` that sweeps
 * (`--budget`) or has the sweep memory compares them with the last applied manifests:
 * every change is then drift, unless the manifests changed since that commit. What the
 * memory says decides how sure the label is; without it nothing is asserted.
 */

/**
 * AppliedManifests is what the command line found of the memory's last applied commit
 * (`lastApplied.commit`) for a plan without `--base`: `current`, the manifests planned
 * are that commit's (it is their git HEAD and the files are unchanged); `older`, an
 * earlier commit, with its manifests loaded through git; `unloadable`, one whose
 * manifests could not be loaded (not in this repository, or they fail to load).
 */
export type AppliedManifests =
  | { state: 'current'; commit: string }
  | { state: 'older'; commit: string; desired: Desired }
  | { state: 'unloadable'; commit: string; reason: string };

/** OriginInputs are what decides which origins a plan labels: its flags and the memory. */
export interface OriginInputs {
  /** `--base REF`: the commit it resolved to. */
  baseCommit?: string;
  /** `--budget N` was given: the plan is a sweep. */
  budget: boolean;
  memory?: SweepMemory;
  applied?: AppliedManifests;
}

/**
 * OriginDecision says against what a plan's changes are labelled: `ref`, the manifests
 * at `--base REF`; `last-applied`, the manifests at the memory's older last applied
 * commit (a change the manifests made since has no origin); `manifests`, the manifests
 * planned (every change is drift). `baseIsLastApplied` says whether that is known to be
 * the last applied state (labels may say `outside`) or not (hedged).
 */
export interface OriginDecision {
  against: 'ref' | 'last-applied' | 'manifests';
  baseIsLastApplied: boolean;
}

/**
 * originDecision is the rule, as a table: `--base REF` compares with REF, sure when the
 * memory's last applied commit is REF's; without `--base`, a memory whose last applied
 * commit the command line found to be the manifests' own (`current`) or an older one
 * (`older`) compares with it, sure; a sweep or a plan with the memory that knows no
 * usable last applied commit labels every change, hedged; a plain plan without the
 * memory labels nothing (undefined).
 */
export function originDecision(inputs: OriginInputs): OriginDecision | undefined {
  const lastApplied = inputs.memory?.lastApplied?.commit;
  if (inputs.baseCommit !== undefined)
    return { against: 'ref', baseIsLastApplied: lastApplied !== undefined && lastApplied === inputs.baseCommit };
  // What the command line found is used only for the commit this memory names.
  const applied = inputs.applied !== undefined && inputs.applied.commit === lastApplied ? inputs.applied : undefined;
  if (applied?.state === 'current') return { against: 'manifests', baseIsLastApplied: true };
  if (applied?.state === 'older') return { against: 'last-applied', baseIsLastApplied: true };
  if (inputs.budget || inputs.memory !== undefined) return { against: 'manifests', baseIsLastApplied: false };
  return undefined;
}

/**
 * membersLastSeen are the memory's members as users, for telling a member a group
 * reaches only because membership changed; undefined when the memory saw none (then no
 * one is known to have joined: the label is hedged).
 */
export function membersLastSeen(memory: SweepMemory | undefined): ApiUser[] | undefined {
  const members = Object.entries(memory?.members ?? {});
  if (members.length === 0) return undefined;
  return members.map(([email, member]) => ({
    id: email,
    email,
    name: email,
    license: 'Full',
    role: member.role,
    state: member.state,
    isDesktopAppInstalled: false,
    isMobileAppInstalled: false,
  }));
}

/** PlanOrigins are what a plan labels: each change's origin, and the plan's `drifted` record but its count. */
export interface PlanOrigins {
  origin: (change: Change) => ChangeOrigin | undefined;
  record: Omit<PlanDrift, 'changes' | 'unapplied'> & { countsUnapplied: boolean };
}

/**
 * planOrigins builds the labels of a plan of `desired` against `live` by the rule of
 * `originDecision`; `base` is REF's manifests (`--base`). Undefined when the plan labels
 * nothing.
 */
export function planOrigins(
  desired: Desired,
  live: Live,
  inputs: OriginInputs & { base?: Desired },
): PlanOrigins | undefined {
  const decision = originDecision(inputs);
  if (decision === undefined) return undefined;
  const memory: BaseMemory = {
    baseIsLastApplied: decision.baseIsLastApplied,
    ...withUsers(membersLastSeen(inputs.memory)),
  };
  const lastApplied = inputs.memory?.lastApplied;
  const record = {
    ...(decision.against === 'ref' || lastApplied === undefined
      ? {}
      : { lastApplied: { commit: lastApplied.commit, at: lastApplied.at } }),
    countsUnapplied: decision.against === 'last-applied',
  };
  const origin =
    decision.against === 'ref' && inputs.base !== undefined
      ? changeOrigins(inputs.base, live, memory)
      : decision.against === 'last-applied' && inputs.applied?.state === 'older'
        ? changeOrigins(inputs.applied.desired, live, memory)
        : currentOrigins(desired, live, memory);
  return { origin: reachedSinceRead(heldWhenApplied(origin, inputs.memory), inputs.memory), record };
}

/**
 * heldWhenApplied relabels `outside` a change of a target the last apply held
 * (`lastApplied.held`, as the kind names it, `heldAs`): no reviewer saw its change and no
 * apply carried it out, so the manifests' value was never live and nothing says the app
 * changed it; self-heal leaves it for a reviewed apply, which the hedged label says.
 */
export function heldWhenApplied(
  origin: (change: Change) => ChangeOrigin | undefined,
  memory: SweepMemory | undefined,
): (change: Change) => ChangeOrigin | undefined {
  const held = new Set(memory?.lastApplied?.held);
  if (held.size === 0) return origin;
  return (change) => {
    const label = origin(change);
    if (label !== 'outside') return label;
    const keys = repairs(kindOf(change)).repair(change).heldAs ?? [change.target];
    return keys.some((key) => held.has(key)) ? 'unapplied-or-outside' : label;
  };
}

/**
 * reachedSinceRead relabels `membership` a difference on a member's list that a group
 * document gives, when the member joined or changed role or state (`since`) after the
 * list was last read (or it never was), or when the last read found the list so for that
 * reason (`pending`) and it is still as it was then (a report-only night), or when it
 * was never read and holds only the built-in defaults (no one ever set it): any run
 * that reads the users (a pull request's plan) refreshes the members last seen, so
 * comparing with them alone would call a joiner's tabs changed in the app. A change the
 * manifests ask for (no origin) stays theirs.
 */
export function reachedSinceRead(
  origin: (change: Change) => ChangeOrigin | undefined,
  memory: SweepMemory | undefined,
): (change: Change) => ChangeOrigin | undefined {
  return (change) => {
    const label = origin(change);
    if (label === undefined || label === 'membership' || memory === undefined) return label;
    // Only a member's list that a group document gives can differ because membership changed.
    const list = sweepMemoryAnswers(kindOf(change)).memberList?.(change);
    if (list?.group === undefined) return label;
    const since = memory.members[list.member]?.since;
    const read = memory.lists[list.key];
    // Never read, and holding only the built-in defaults: no one ever set these tabs, so the
    // group reaches a member it never wrote (a joiner seen first by the memory's first users
    // read, which dates no one's joining), not tabs changed in the app.
    if (read === undefined && list.defaultsOnly === true) return 'membership';
    if (since !== undefined && (read === undefined || Date.parse(since) > Date.parse(read.lastRead)))
      return 'membership';
    if (read === undefined) return label;
    // Found so at the last read, and still as it was then: the membership's difference, not yet written.
    return sameTabs(read, list.liveIds) && read.pending === 'membership' ? 'membership' : label;
  };
}

/**
 * pendingLists are the keys (`pinsKey`) of the members' lists (`SweepMemoryAnswers.memberList`) whose
 * change is a group's new member's (`membership`): the memory marks them pending.
 */
export function pendingLists(changes: readonly Change[]): Set<string> {
  return new Set(
    changes.flatMap((change) => {
      const list = change.origin === 'membership' ? sweepMemoryAnswers(kindOf(change)).memberList?.(change) : undefined;
      return list === undefined ? [] : [list.key];
    }),
  );
}

function withUsers(users: ApiUser[] | undefined): Pick<BaseMemory, 'usersLastSeen'> {
  return users === undefined ? {} : { usersLastSeen: users };
}

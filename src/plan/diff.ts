import type { MemberPinReads } from './member-pin-reads.js';
import type { ApiWorkspace } from '../domain/api-types.js';
import type { DiffContext, Kind } from '../kinds/kind.js';
import { kindOf, kinds } from '../kinds/kinds.js';
import { rememberedPinning } from '../kinds/view-pinned-memory.js';
import type { Desired, Live } from '../state/types.js';
import type { SweepMemory } from '../state/sweep-memory.js';
import { compileGlobs } from '../text/glob.js';
import { liveHashesFor, planDigest } from './hash.js';
import { appOwnsSummary } from './app-owns-summary.js';
import { guardWarnings } from './workspace-guard.js';
import { compareChanges } from './order.js';
import { PlanRefusedError, type RefusalReason } from './refusal.js';
import { planSteps } from './operations.js';
import { applyLoad, recheckLoad } from './requests.js';
import { summarize } from './summary.js';
import { driftDetails, driftedRecord } from './drift-record.js';
import {
  PLAN_FORMAT_VERSION,
  type Change,
  type ChangeOrigin,
  type HeldTarget,
  type Plan,
  type PlanDrift,
  type PlanScope,
  type PlanWarning,
} from './types.js';

/**
 * checkWorkspace refuses a key of another workspace than the manifests' `workspaceId`.
 * The reader calls it on the first response, so nothing else is read; computePlan
 * calls it again so the pure diff holds the rule on its own.
 */
export function checkWorkspace(desired: Desired, workspace: ApiWorkspace): void {
  const expected = desired.workspace.workspaceId;
  if (expected === undefined || expected === workspace.id) return;
  const source = desired.workspace.workspaceIdSource ?? desired.workspace.source;
  throw new PlanRefusedError([
    {
      code: 'workspace.mismatch',
      message: `the manifests are for workspace ${expected}, but the API key belongs to ${workspace.name} (${workspace.id})`,
      wayOut: `use the key of ${expected}, or change \`workspaceId\` in the Workspace document`,
      ...(source === undefined ? {} : { source }),
      ids: [expected, workspace.id],
    },
  ]);
}

/**
 * PlanExtras are what a scoped plan adds to the diff: which pinned lists it read, the
 * origin of each change (`changeOrigins`: undefined for the pull request's own), and
 * warnings from how it was made.
 */
interface PlanExtras {
  scope?: PlanScope;
  origin?: (change: Change) => ChangeOrigin | undefined;
  /** With `origin`: the last applied commit the origins were judged against, and whether changes without one count as merged, not yet applied (`planOrigins`). */
  drifted?: { lastApplied?: PlanDrift['lastApplied']; countsUnapplied?: boolean };
  warnings?: readonly PlanWarning[];
  /**
   * Inactive members the group documents reached, when the caller expanded the groups
   * itself and passes the per-member lists as `desired.pins` (planWorkspace does).
   */
  skippedMembers?: number;
  /** The sweep memory, which the kinds' diffs may take advice from (`DiffContext.memory`). */
  memory?: SweepMemory;
  /** The manifests at `--base REF` (`DiffContext.base`): a view document renamed since renames its view. */
  base?: Desired;
  /** Self-heal's plan (`DiffContext.repair`): what only the memory's advice decides is held. */
  repair?: true;
  /** `--pinned-by`: per domain whose views the plan deletes, every active member's list and how many were not read (`chooseMemberPinReads`). */
  memberLists?: MemberPinReads['byDomain'];
}

/**
 * computePlan diffs the desired state against the live state into a Plan. Pure and
 * deterministic: the same inputs give a byte-equal plan. It throws PlanRefusedError
 * with every refusal at once, except that a workspace mismatch is reported alone,
 * before anything else (README, "Fail-safe rules").
 */
export function computePlan(desired: Desired, live: Live, extras: PlanExtras = {}): { plan: Plan } {
  checkWorkspace(desired, live.workspace);
  // kinds() is in dependency order: pins resolve names against the views the plan declares and deletes.
  let context: DiffContext = {
    ignored: compileGlobs(desired.workspace.ignore),
    declared: new Map(),
    deleted: new Map(),
    heldViews: new Map(),
    ...(extras.memory === undefined ? {} : { memory: extras.memory }),
    ...(extras.base === undefined ? {} : { base: extras.base }),
    ...(extras.repair === undefined ? {} : { repair: extras.repair }),
  };
  const reasons: RefusalReason[] = [];
  const changes: Change[] = [];
  const held: HeldTarget[] = [];
  const kindWarnings = new Map<Kind, PlanWarning[]>();
  let skippedMembers = extras.skippedMembers;
  for (const kind of kinds()) {
    const diff = kind.diff(desired, live, context);
    changes.push(...diff.changes);
    reasons.push(...diff.reasons);
    held.push(...(diff.held ?? []));
    kindWarnings.set(kind, diff.warnings);
    context = {
      ...context,
      declared: diff.declared ?? context.declared,
      deleted: diff.deleted ?? context.deleted,
      heldViews: diff.heldViews ?? context.heldViews,
    };
    skippedMembers ??= diff.skippedMembers;
  }
  if (reasons.length > 0) throw new PlanRefusedError(reasons);
  // A kind's own origin (a view deleted in the app, created again) is kept: it knows more than the base does.
  const labelled = changes.map((change) => {
    const origin = change.origin ?? extras.origin?.(change);
    // A drifted change says since when (the memory's last read) and, a view, whose it is.
    return origin === undefined
      ? change
      : ({ ...change, origin, ...driftDetails(change, live, extras.memory) } as Change);
  });
  labelled.sort(compareChanges);
  // Each kind's warnings about the ordered plan (look-alike names) follow its diff's own.
  const kindsWarnings = [...kindWarnings].flatMap(([kind, own]) => [...own, ...(kind.planWarnings?.(labelled) ?? [])]);
  const warnings = [...(extras.warnings ?? []), ...guardWarnings(desired), ...kindsWarnings];
  // Held targets are listed in target order, so equal inputs give byte-equal plans.
  held.sort((a, b) => (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
  const drifted = extras.origin === undefined ? {} : { drifted: driftedRecord(labelled, extras.drifted ?? {}) };
  return {
    plan: assemblePlan(desired, live, labelled, warnings, extras, {
      ...drifted,
      ...(skippedMembers === undefined ? {} : { skippedMembers }),
      ...(held.length === 0 ? {} : { held }),
    }),
  };
}

function assemblePlan(
  desired: Desired,
  live: Live,
  scopeless: Change[],
  warnings: PlanWarning[],
  extras: Pick<PlanExtras, 'scope' | 'memory' | 'memberLists'>,
  extra: Pick<Plan, 'skippedMembers' | 'held' | 'drifted'>,
): Plan {
  const { scope } = extras;
  const changes = withPinLists(scopeless, extras, live);
  const summary = summarize(changes);
  // creatorEmail owns what the plan creates: present whenever it creates anything.
  const creates = changes.some((change) => kindOf(change).creates?.(change) !== undefined);
  const creator =
    creates && desired.workspace.creatorEmail !== undefined ? { creatorEmail: desired.workspace.creatorEmail } : {};
  const steps = planSteps({ changes, creatorEmail: desired.workspace.creatorEmail });
  const withoutDigest: Omit<Plan, 'digest'> = {
    formatVersion: PLAN_FORMAT_VERSION,
    workspace: { id: live.workspace.id, name: live.workspace.name },
    ...(desired.targets === undefined ? {} : { targets: desired.targets }),
    ...creator,
    ...(extra.held === undefined ? {} : { held: extra.held }),
    changes,
    steps,
    summary,
    ...(extra.drifted === undefined ? {} : { drifted: extra.drifted }),
    ...(extra.skippedMembers === undefined ? {} : { skippedMembers: extra.skippedMembers }),
    ...appOwnsSummary(desired),
    requests: {
      used: live.requests.used,
      applyNeeds: applyLoad({ changes, steps }).total,
      recheck: recheckLoad({ changes }, live.users?.length ?? live.workspace.membersCount),
      dailyRemaining: live.requests.dailyRemaining,
      ...(live.requests.ceiling === undefined ? {} : { ceiling: live.requests.ceiling }),
    },
    liveHashes: liveHashesFor({ changes }, live),
    ...(scope === undefined ? {} : { scope }),
    warnings,
  };
  return { ...withoutDigest, digest: planDigest(withoutDigest) };
}

/**
 * withPinLists tells each deletion of a scoped plan that left lists of its view's domain
 * unread how many of them it read and how many it did not (`pinLists`): its `pinnedBy`
 * counts only the lists read, and an unread one may pin the view too (README, "Scoped
 * and budgeted plans"). With `--pinned-by` (`memberLists`), the lists counted are every
 * active member's of the domain, declared or not (README, "Scoped and budgeted plans").
 * With the sweep memory, also the last known count of the lists not read that pin it,
 * and its date (`rememberedPinning`).
 */
function withPinLists(
  changes: Change[],
  { scope, memory, memberLists }: Pick<PlanExtras, 'scope' | 'memory' | 'memberLists'>,
  live: Live,
): Change[] {
  const byDomain = scope?.unreadByDomain;
  if (byDomain === undefined && memberLists === undefined) return changes;
  return changes.map((change) => {
    if (change.action !== 'delete') return change;
    const members = memberLists?.[change.domain];
    const count = members ?? byDomain?.[change.domain];
    if (count === undefined) return change;
    const remembered =
      memory === undefined || count.unread === 0
        ? undefined
        : rememberedPinning(memory, live, change.domain, change.id);
    return {
      ...change,
      pinLists: {
        read: count.lists - count.unread,
        unread: count.unread,
        ...(remembered === undefined ? {} : { remembered }),
        ...(members === undefined ? {} : { members: true as const }),
      },
    };
  });
}

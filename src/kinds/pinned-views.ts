import { isPublicSaved } from '../domain/views.js';
import type { ApiView } from '../domain/api-types.js';
import type { Domain } from '../domain/domains.js';
import { pinsKey, type DesiredPins, type Live, type PinRef } from '../state/types.js';
import type { HeldTarget, NewViewTab, PinChange, PinnedTab, PlanWarning } from './changes.js';
import { cannotApply, createdKey, stepOf, type Kind, type VerifyContext } from './kind.js';
import type {
  DriftLabels,
  Presentation,
  Repairs,
  SavedPlanChecks,
  SecondReads,
  SweepMemoryAnswers,
} from './capabilities.js';
import { PIN_SECOND_READS } from './pin-second-reads.js';
import { sentPinnedList } from './pin-new-tabs.js';
import type { DeclaredViewRef, HeldViewRef } from './declared-view-ref.js';
import { ROUTES } from '../service/routes.js';
import type { RefusalReason } from '../domain/refusal-reason.js';
import { suggestNames } from '../text/suggest.js';
import { parseTarget, pinsTarget } from '../domain/targets.js';
import { InternalError } from '../errors.js';
import { hasPinGroups, memberPinLists } from './pin-members.js';
import { liveListing } from './view-identity.js';
import { afterWrite, type WriteAnswer } from './execution.js';
import { recheckPins } from './pin-rechecks.js';
import { pinDependsOn, pinStaleWhy } from './pin-stale-holds.js';
import { listingRead, listingReads, pinnedRead } from '../state/reads.js';
import { baseViewsOf, type BaseViews } from './view-asked-alike.js';
import { jsonEqual } from './canonical.js';
import type { SweepMemory } from '../state/sweep-memory.js';
import { deletedInApp } from './view-deleted-outside.js';
import { pinDriftWhen, pinMemberList, rememberPins } from './pin-sweep-memory.js';
import { tabsCause } from './pin-drift-cause.js';
import { includedTabs, tabKey } from './pin-include.js';
import { formerNames, renamedPinText } from './view-renames.js';

/**
 * The `PinnedViews` kind: resolving each entry of a desired pinned list to a view,
 * checking the pinned-list fail-safe rules, and comparing with the list read live.
 * Ordered: tab order is the point of a pinned list.
 */

/** PinContext is what the rest of the plan tells pin resolution about one domain. */
export interface PinContext {
  domain: Domain;
  /** Views the manifests declare in this domain. */
  declared: readonly DeclaredViewRef[];
  /** The domain's live listing: public saved views, then built-in defaults. */
  listing: readonly ApiView[];
  /** Ids the plan deletes (prune), with their names. */
  deleted: ReadonlyMap<string, string>;
  /** The sweep memory, which tells a `{viewId}` tab naming a view deleted in the app (`DiffContext.memory`). */
  memory?: SweepMemory;
  /** Old names of the views the manifests rename, to the view they now name (`formerNames`). */
  formerNames?: ReadonlyMap<string, DeclaredViewRef>;
}

/** PinOutcome is the change (if the list differs), the refusals and the warnings of one desired list. */
interface PinOutcome {
  change?: PinChange;
  reasons: RefusalReason[];
  /** Entries left out (a `{viewId}` the member no longer pins), each with its position. */
  warnings: PlanWarning[];
}

/** tabOfView is the PinnedTab of a live view, named as it will be after apply. */
function tabOfView(view: ApiView, renamedTo?: string): PinnedTab {
  return { viewId: view.viewId, name: renamedTo ?? view.name, visibility: view.visibility, isDefault: view.isDefault };
}

/**
 * planPins resolves one desired pinned list against the list read live (`current`,
 * in tab order) and returns its change, if any, every rule it breaks and what it left
 * out. Private tabs are the member's (README, Fail-safe rules): those the list names
 * as `{viewId}` stay where it names them, the others stay ahead of the listed tabs in
 * their current order, unless `unpinPrivate` drops them. No private-tab state refuses
 * a list: a `{viewId}` the member no longer pins is left out with a warning. A
 * `mode: include` list keeps the member's list and only adds what it lacks
 * (`includedTabs`).
 */
export function planPins(pins: DesiredPins, current: readonly ApiView[], context: PinContext): PinOutcome {
  const reasons: RefusalReason[] = [];
  const warnings: PlanWarning[] = [];
  const declaredNameById = new Map(
    context.declared.flatMap((view) => (view.viewId === null ? [] : [[view.viewId, view.name] as const])),
  );
  const listed: PinnedTab[] = [];
  pins.refs.forEach((ref, index) => {
    const source = pins.refSources[index] ?? pins.source;
    const resolved = resolveRef(ref, pins, current, context, declaredNameById);
    if ('leftOut' in resolved) {
      warnings.push({ code: 'pins.left-out', message: resolved.leftOut, source });
      return;
    }
    if ('reason' in resolved) {
      reasons.push({ ...resolved.reason, source });
      return;
    }
    const { tab } = resolved;
    if (resolved.replaced !== undefined)
      warnings.push({ code: 'pins.id-replaced', message: resolved.replaced, source });
    if (resolved.renamed !== undefined) warnings.push({ code: 'pins.renamed-view', message: resolved.renamed, source });
    const deletedName = tab.viewId === null ? undefined : context.deleted.get(tab.viewId);
    if (tab.viewId !== null && deletedName !== undefined) {
      reasons.push({
        code: 'pins.references-deleted',
        message: `the ${context.domain} tabs of ${pins.userEmail} pin "${deletedName}" (${tab.viewId}), which this plan deletes (prune: not declared)`,
        wayOut: `declare the view in a manifest, add its name to the Workspace \`ignore\`, or remove it from this list`,
        source,
        ids: [tab.viewId],
      });
    }
    if (listed.some((other) => tabKey(other) === tabKey(tab))) {
      reasons.push({
        code: 'pins.duplicate-view',
        message: `the ${context.domain} tabs of ${pins.userEmail} list "${tab.name}"${tab.viewId === null ? '' : ` (${tab.viewId})`} twice; the service refuses duplicates`,
        wayOut: 'list each view once',
        source,
        ids: tab.viewId === null ? [] : [tab.viewId],
      });
      return;
    }
    listed.push(tab);
  });
  if (pins.refs.length === 0) {
    reasons.push({
      code: 'pins.empty',
      message: `the ${context.domain} tabs of ${pins.userEmail} would be empty; the service needs at least one pinned view`,
      wayOut: 'list at least one view, or leave the domain out of the PinnedViews document to leave it alone',
      source: pins.source,
      ids: [],
    });
  }
  const before = current.map((view) => tabOfView(view));
  const listedIds = new Set(listed.map((tab) => tab.viewId));
  const unlisted = current.filter((view) => view.visibility === 'Private' && !listedIds.has(view.viewId));
  let after = [...(pins.unpinPrivate ? [] : unlisted.map((view) => tabOfView(view))), ...listed];
  if (pins.mode === 'include') {
    const included = includedTabs(pins, current, before, listed, context);
    after = included.after;
    warnings.push(...included.warnings);
  }
  const same =
    before.length === after.length &&
    before.every((tab, index) => after[index] !== undefined && tabKey(tab) === tabKey(after[index]));
  if (same || reasons.length > 0) return { reasons, warnings };
  if (after.length === 0) {
    warnings.push({
      code: 'pins.nothing-to-pin',
      message: `nothing is left to pin in the ${context.domain} tabs of ${pins.userEmail} (the service needs at least one tab): the list is left as it is`,
      source: pins.source,
    });
    return { reasons, warnings };
  }
  return {
    reasons,
    warnings,
    change: {
      action: 'pin',
      target: pinsTarget(context.domain, pins.userEmail),
      kind: 'PinnedViews',
      name: pins.userEmail,
      source: pins.source,
      domain: context.domain,
      userEmail: pins.userEmail,
      before,
      after,
      ...(pins.group === undefined ? {} : { group: pins.group.name }),
      ...(pins.mode !== 'include' && pins.unpinPrivate && unlisted.length > 0 ? { unpinPrivate: true as const } : {}),
    },
  };
}

/**
 * renamedByMemory tells whether `outcome`'s list resolves a pinned name only through the
 * memory's old names of a view: planned again without them, it is refused or differs.
 * A memory file is advice: self-heal never writes what only it decides.
 */
function renamedByMemory(
  outcome: ReturnType<typeof planPins>,
  planned: (advised: boolean) => ReturnType<typeof planPins>,
): boolean {
  if (!outcome.warnings.some((warning) => warning.code === 'pins.renamed-view')) return false;
  const unadvised = planned(false);
  return unadvised.reasons.length > 0 || JSON.stringify(unadvised.change) !== JSON.stringify(outcome.change);
}

/** heldAsAdvised is self-heal's hold of a list whose write only the memory's old names of a view decide. */
function heldAsAdvised(change: PinChange): HeldTarget {
  return {
    target: change.target,
    code: 'pins.renamed-by-memory',
    reason: `the ${change.domain} tabs of ${change.userEmail} name a view by an old name only the sweep memory knows: self-heal writes only what a reviewed apply decided, so the list is left as it is`,
    wayOut:
      "name the view by its name in the document (the plan's pins.renamed-view warning says which), then merge it: the reviewed apply writes the list",
    source: change.source,
  };
}

/** heldBy is the held entry of `pins` when one of its tabs names a held view (by its name or its id), else undefined. */
function heldBy(pins: DesiredPins, heldViews: readonly HeldViewRef[]): HeldTarget | undefined {
  for (const [index, ref] of pins.refs.entries()) {
    const view = heldViews.find((candidate) =>
      'viewId' in ref ? candidate.viewId === ref.viewId : candidate.name === ref.name,
    );
    if (view === undefined) continue;
    return {
      target: pinsTarget(pins.domain, pins.userEmail),
      code: 'pins.names-held-view',
      reason: `the ${pins.domain} tabs of ${pins.userEmail} name "${view.name}", which is held (${view.target}): the list is left as it is`,
      wayOut: `it is planned again once "${view.name}" is; or remove "${view.name}" from this list`,
      source: pins.refSources[index] ?? pins.source,
    };
  }
  return undefined;
}

type Resolution =
  | { tab: PinnedTab; replaced?: string; renamed?: string }
  | { reason: Omit<RefusalReason, 'source'> }
  | { leftOut: string };

function resolveRef(
  ref: PinRef,
  pins: DesiredPins,
  current: readonly ApiView[],
  context: PinContext,
  declaredNameById: ReadonlyMap<string, string>,
): Resolution {
  if ('viewId' in ref) {
    const view =
      current.find((candidate) => candidate.viewId === ref.viewId) ??
      context.listing.find((candidate) => candidate.viewId === ref.viewId);
    if (view !== undefined) return { tab: tabOfView(view, declaredNameById.get(view.viewId)) };
    // The id of a declared view deleted in the app means the view that replaces it (created
    // again, or found by name): by the manifest that bound it, or by the name the memory saw.
    const seen = deletedInApp(context.memory, context.domain, ref.viewId);
    const named = seen === undefined ? [] : context.declared.filter((candidate) => candidate.name === seen.name);
    const replaced =
      context.declared.find((candidate) => candidate.formerViewId === ref.viewId) ??
      (named.length === 1 ? named[0] : undefined);
    if (replaced !== undefined) {
      const resolved = declaredTab(replaced, context);
      const now = replaced.viewId === null ? 'which this plan creates again' : replaced.viewId;
      const replacedText =
        `${ref.viewId} in the ${context.domain} tabs of ${pins.userEmail} was deleted in the app: it stands for "${replaced.name}" (${now}), ` +
        `the view that replaced it; name it \`${replaced.name}\` instead, so the entry holds when the id changes`;
      return 'tab' in resolved ? { ...resolved, replaced: replacedText } : resolved;
    }
    // A private view the member unpinned or deleted in the app: theirs to decide, never an error.
    return {
      leftOut: `${ref.viewId} is left out of the ${context.domain} tabs of ${pins.userEmail}: they no longer pin it (unpinned or deleted in the app) and it is no public or default view`,
    };
  }
  const name = ref.name;
  const declared = context.declared.filter((view) => view.name === name);
  if (declared.length === 1 && declared[0] !== undefined) return declaredTab(declared[0], context);
  if (declared.length > 1)
    return ambiguous(
      name,
      pins,
      context,
      declared.flatMap((view) => (view.viewId === null ? [] : [view.viewId])),
    );
  // A live view bound to a manifest takes the manifest's name after apply: its old name no longer resolves.
  const saved = context.listing.filter((view) => isPublicSaved(view) && !declaredNameById.has(view.viewId));
  const byName = saved.filter((view) => view.name === name);
  if (byName.length === 1 && byName[0] !== undefined) return { tab: tabOfView(byName[0]) };
  if (byName.length > 1)
    return ambiguous(
      name,
      pins,
      context,
      byName.map((view) => view.viewId),
    );
  const defaults = context.listing.filter((view) => view.isDefault && view.name === name);
  if (defaults.length === 1 && defaults[0] !== undefined) return { tab: tabOfView(defaults[0]) };
  if (defaults.length > 1)
    return ambiguous(
      name,
      pins,
      context,
      defaults.map((view) => view.viewId),
    );
  // The old name of a view the manifests rename means that view, with a warning to name it anew.
  const renamed = context.formerNames?.get(name);
  if (renamed !== undefined) {
    const resolved = declaredTab(renamed, context);
    return 'tab' in resolved
      ? { ...resolved, renamed: renamedPinText(context.domain, pins.userEmail, name, renamed) }
      : resolved;
  }
  // A near miss of an old name suggests the new one first.
  const formerly = suggestNames(name, context.formerNames?.keys() ?? [], 1).flatMap(
    (old) => context.formerNames?.get(old)?.name ?? [],
  );
  const candidates = [
    ...formerly,
    ...context.declared.map((view) => view.name),
    ...saved.map((view) => view.name),
    ...context.listing.filter((view) => view.isDefault).map((view) => view.name),
    ...current.map((view) => view.name),
  ];
  const suggestions = [...new Set([...formerly, ...suggestNames(name, candidates)])].slice(0, 3);
  const didYouMean = suggestions.length === 0 ? '' : `; did you mean ${suggestions.map((s) => `"${s}"`).join(' or ')}?`;
  return {
    reason: {
      code: 'pins.unknown-name',
      message: `no manifest, public view or default ${context.domain} view is named "${name}"${didYouMean}`,
      wayOut: 'fix the name, declare the view, or pin a private view by `{viewId: ...}`',
      ids: [],
    },
  };
}

/** declaredTab is the tab of a declared view: its live view, named as the manifest names it, or the view the plan creates. */
function declaredTab({ name, viewId }: DeclaredViewRef, context: PinContext): Resolution {
  const live = viewId === null ? undefined : context.listing.find((view) => view.viewId === viewId);
  if (live !== undefined) return { tab: tabOfView(live, name) };
  return { tab: { viewId, name, visibility: 'Public', isDefault: false } };
}

function ambiguous(name: string, pins: DesiredPins, context: PinContext, ids: string[]): Resolution {
  const listed = ids.length === 0 ? '' : `: ${ids.join(', ')}`;
  return {
    reason: {
      code: 'pins.ambiguous-name',
      message: `"${name}" in the ${context.domain} tabs of ${pins.userEmail} names more than one view${listed}`,
      wayOut:
        ids[0] === undefined
          ? 'give the declared views distinct names'
          : `pin the one you mean by id, e.g. \`{viewId: ${ids[0]}}\``,
      ids,
    },
  };
}

/**
 * PINNED_VIEWS is the `Kind` of pin changes: one PUT of the whole list, whose tabs
 * naming a view this run creates are held as `newViewTabs` until the create answers;
 * hashed with the domain's listing it was resolved against; verified from the PUT's
 * answer, which is the new list.
 */
export const PINNED_VIEWS: Kind<PinChange> &
  SavedPlanChecks<PinChange> &
  DriftLabels<PinChange> &
  SweepMemoryAnswers<PinChange> &
  Repairs<PinChange> &
  Presentation<PinChange> &
  SecondReads = {
  // The lists themselves: expanded per member and domain, and read once the first diff chose them.
  ...PIN_SECOND_READS,

  diff(desired, live, context) {
    const members = memberPinLists(desired, live.users);
    const result = {
      changes: [] as PinChange[],
      reasons: [...members.reasons],
      warnings: [...members.warnings],
      held: [] as HeldTarget[],
    };
    const renames = new Map<string, Map<string, DeclaredViewRef>>();
    // `advised`: with the memory's names too (a view's old names it saw); without, only the live listing's.
    const formerNamesOf = (domain: Domain, advised = true): Map<string, DeclaredViewRef> => {
      const key = `${domain}:${String(advised)}`;
      let names = renames.get(key);
      if (names === undefined) {
        const memory = advised ? context.memory : undefined;
        names = formerNames(domain, context.declared.get(domain) ?? [], liveListing(live, domain), memory);
        renames.set(key, names);
      }
      return names;
    };
    for (const pins of members.lists) {
      // A list naming a held view is held with it, whole: half a list would move the member's tabs.
      const held = heldBy(pins, context.heldViews.get(pins.domain) ?? []);
      if (held !== undefined) {
        result.held.push(held);
        continue;
      }
      const current = live.pins[pins.key];
      if (current === undefined)
        throw new InternalError(`live state lacks the ${pins.domain} pinned list of ${pins.userEmail}`);
      const planned = (advised: boolean) =>
        planPins(pins, current, {
          domain: pins.domain,
          declared: context.declared.get(pins.domain) ?? [],
          listing: liveListing(live, pins.domain),
          deleted: context.deleted.get(pins.domain) ?? new Map(),
          ...(context.memory === undefined ? {} : { memory: context.memory }),
          formerNames: formerNamesOf(pins.domain, advised),
        });
      const outcome = planned(true);
      const advisedOnly = context.repair === true && outcome.change !== undefined && renamedByMemory(outcome, planned);
      if (advisedOnly && outcome.change !== undefined) {
        result.held.push(heldAsAdvised(outcome.change));
        continue;
      }
      result.reasons.push(...outcome.reasons);
      result.warnings.push(...outcome.warnings);
      if (outcome.change !== undefined) result.changes.push(outcome.change);
    }
    return hasPinGroups(desired) ? { ...result, skippedMembers: members.skipped } : result;
  },

  actions: [{ action: 'pin', schema: { $ref: '#/$defs/pin' }, phase: 30, verb: 'pins', countedAs: 'pinned' }],

  sortKey: (change) => change.userEmail,

  // Names resolve against the listings of the domains pinned in; the lists themselves
  // are read in a second phase, once groups are expanded and the scope chose them.
  planReads: (desired) => listingReads([...desired.pins, ...(desired.pinGroups ?? [])]),

  // A group document names its members only through the users. A member's own document
  // is checked against them when they are read anyway; otherwise the service's refusal
  // of their pinned read tells, and only then are the users read (planWorkspace).
  wantsUsers: (desired) => hasPinGroups(desired),

  // A pinned list resolves names against its domain's listing: re-read it too.
  reads: (change) => ({ reads: [listingRead(change.domain), pinnedRead(change.domain, change.userEmail)] }),

  steps(change, index, { created }) {
    if (change.after.length === 0) {
      throw cannotApply(
        `the pinned list of ${change.userEmail} in ${change.domain} is empty; the service keeps at least one tab`,
      );
    }
    const newViewTabs: NewViewTab[] = [];
    const viewIds = change.after.map((tab, tabIndex) => {
      if (tab.viewId !== null) return tab.viewId;
      if (!created.has(createdKey(change.domain, tab.name))) {
        throw cannotApply(
          `the pinned tab "${tab.name}" of ${change.userEmail} in ${change.domain} has no id and the plan does not create it`,
        );
      }
      newViewTabs.push({ index: tabIndex, name: tab.name });
      return null;
    });
    const step = stepOf(index, ROUTES.putPinned(change.domain, change.userEmail, { viewIds }));
    return [newViewTabs.length === 0 ? step : { ...step, newViewTabs }];
  },

  // A tab naming a view the run creates takes its id once the create answered.
  sent: sentPinnedList,

  hashed(target, live) {
    const parsed = parseTarget(target);
    if (parsed?.type !== 'pins') return undefined;
    // The new list was resolved against the user's tabs and the domain's listing
    // (names to ids): a rename, a deletion or a new namesake there makes it stale.
    const key = target.slice('pins:'.length);
    const listing = live.views[parsed.domain]?.map((view) => [view.viewId, view.name, view.isDefault]);
    return { pins: key, ids: live.pins[key]?.map((view) => view.viewId) ?? null, listing: listing ?? null };
  },

  subject: (change) => ({
    name: `${change.userEmail} ${change.domain}`,
    domain: change.domain,
    userEmail: change.userEmail,
  }),

  async execute(change, { client, request, signal }) {
    const answered = await client.request<ApiView[] | undefined>(request, { signal });
    // Without a body to verify against, read the list back once: the write is done either way.
    const pinned =
      answered ??
      (await afterWrite(`the pinned ${change.domain} tabs of ${change.userEmail} were written`, () =>
        client.request<ApiView[]>(ROUTES.getPinned(change.domain, change.userEmail)),
      ));
    return { pinned };
  },

  // The PUT answers the new list: nothing to read back.
  verifyReads: () => [],

  verify: verifyPins,

  // Already applied is what verification would accept of the re-read list, a tab
  // naming a view the plan creates resolving by name to the one public view of it.
  alreadyLive(change, live) {
    const pinned = live.pins[pinsKey(change.domain, change.userEmail)];
    const listing = live.views[change.domain];
    if (pinned === undefined || listing === undefined) return undefined;
    const createdIds = new Map<string, string>();
    for (const tab of change.after) {
      if (tab.viewId !== null) continue;
      const named = listing.filter((view) => isPublicSaved(view) && view.name === tab.name);
      if (named.length === 1 && named[0] !== undefined)
        createdIds.set(createdKey(change.domain, tab.name), named[0].viewId);
    }
    return verifyPins(change, { pinned }, { createdIds }) === undefined ? { pinned } : undefined;
  },

  // A stale list is held (apply --plan): how its tabs changed; and a list naming a held create or rename waits with it.
  staleWhy: pinStaleWhy,
  dependsOn: pinDependsOn,

  target: (change) => pinsTarget(change.domain, change.userEmail),

  recheck: (plan, live) => recheckPins(plan, live, (change): change is PinChange => change.action === 'pin'),

  describe: (change) => `pinned ${change.domain} tabs of ${change.userEmail}`,
  // A member's tabs set back to the manifests (re-ordered, unpinned or pinned in the app, a joiner's first tabs).
  repair: () => ({ repairable: true, noun: { one: 'pin list', many: 'pin lists' } }),

  // The memory knows when it last read each list, and what it held.
  driftWhen: pinDriftWhen,
  remember: (change, _landed, createdIds) => rememberPins(change, createdIds),
  memberList: pinMemberList,
  // A member's tabs are told per domain: one line covers every member whose tabs drifted alike.
  driftScope: (change) => change.domain,
  driftCause: tabsCause,

  askedAlike(base, live) {
    const viewsOf = baseViewsOf(base, live);
    let lists: Map<string, DesiredPins> | undefined;
    return {
      test(change) {
        const views = viewsOf(change.domain);
        lists ??= new Map(memberPinLists(base, live.users).lists.map(({ key, ...pins }) => [key, pins]));
        return views !== undefined && pinsAskedAlike(change, lists, live, views);
      },
    };
  },

  identityProblems(change) {
    const problems: string[] = [];
    if ((change.kind as string) !== 'PinnedViews' || change.name !== change.userEmail)
      problems.push(`kind and name must be PinnedViews and ${change.userEmail}`);
    if (change.after.length === 0) problems.push('empties the pinned list; the service needs at least one tab');
    if (new Set(change.after.map(tabKey)).size !== change.after.length) problems.push('lists a tab twice');
    return problems;
  },
};

/** verifyPins says how the pinned list `landed` differs from the ids `change` sent, or undefined when it holds them, in order. */
function verifyPins(
  change: PinChange,
  landed: WriteAnswer,
  { createdIds }: Pick<VerifyContext, 'createdIds'>,
): string | undefined {
  const expected = change.after.map(
    (tab) => tab.viewId ?? createdIds.get(createdKey(change.domain, tab.name)) ?? `(new "${tab.name}")`,
  );
  const actual = (landed.pinned ?? []).map((view) => view.viewId);
  if (expected.join('\u0000') === actual.join('\u0000')) return undefined;
  return `pinned tabs are [${actual.join(', ')}], expected [${expected.join(', ')}]`;
}

/**
 * pinsAskedAlike: REF gives the member a list (by a `userEmail` document or a group)
 * that resolves, against today's listing and REF's view documents, to the same tabs in
 * the same order. A name resolves through the documents that declare it: a name that
 * meant a live view at REF and means a view the pull request creates is not alike.
 */
export function pinsAskedAlike(
  change: PinChange,
  lists: ReadonlyMap<string, DesiredPins>,
  live: Live,
  views: BaseViews,
): boolean {
  const parsed = parseTarget(change.target);
  if (parsed?.type !== 'pins') return false;
  const key = change.target.slice('pins:'.length);
  const list = lists.get(key);
  const current = live.pins[key];
  const listing = live.views[parsed.domain];
  if (list === undefined || current === undefined || listing === undefined) return false;
  const outcome = planPins(list, current, {
    domain: parsed.domain,
    declared: views.declared.get(parsed.domain) ?? [],
    listing,
    deleted: views.pruned ?? new Map(),
  });
  // A list REF's manifests refuse, or leave as it is live, asks something else.
  if (outcome.reasons.length > 0 || outcome.change === undefined) return false;
  return jsonEqual(outcome.change.after.map(tabKey), change.after.map(tabKey));
}

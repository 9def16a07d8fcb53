import fc from 'fast-check';
import type { ApiUser, ApiView, JsonObject } from '../../src/domain/api-types.js';
import {
  DEAL_AI_STATUSES,
  DEAL_STATUSES,
  DOMAINS,
  RECORDING_SOURCES,
  RECORDING_STATES,
  type Domain,
} from '../../src/domain/domains.js';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import type { EmulatorData } from '../../src/emulator/model.js';

/**
 * Random workspaces for the export round trip: public views with random valid
 * columns, filters (set arrays in random order, empty sets, response-only
 * attributes), sort and icons; names that slug alike, repeat, or are not ASCII;
 * private views; and random pinned lists mixing all of them with the defaults.
 */

const NAMES = [
  'Calls',
  'calls!',
  'Café calls',
  'Cafe calls',
  '📞 Calls',
  '日本語のビュー',
  'Pipeline',
  'All recordings',
  'All deals',
  'true',
  '123',
  'a: b',
  '# hash',
  "Mia's view",
  '  padded  ',
  'x'.repeat(90),
];
const name = fc.oneof(fc.constantFrom(...NAMES), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }));
const icon = fc.option(fc.constantFrom('moneybag', 'telephone_receiver', 'warning'), { nil: undefined });
const ids = fc.uniqueArray(fc.constantFrom('a_1', 'b_2', 'c_3', 'd_4', 'e_5'), { maxLength: 4 });
/** A set in random order, duplicates included: the service may return either. */
const setOf = <T>(values: readonly T[]) => fc.array(fc.constantFrom(...values), { maxLength: 5 });

const defaultColumn = fc.record(
  {
    type: fc.constant('Default'),
    columnId: fc.constantFrom('title', 'createdAt', 'owner'),
    isHidden: fc.boolean(),
    width: fc.nat(400),
  },
  { requiredKeys: ['type', 'columnId'] },
);
const aiColumn = fc.record(
  {
    type: fc.constant('AiSection'),
    fieldId: fc.constantFrom('fld_a', 'fld_b'),
    title: name,
    hasAutogen: fc.boolean(),
    isConfigured: fc.boolean(),
    isHidden: fc.boolean(),
    width: fc.nat(400),
  },
  { requiredKeys: ['type', 'fieldId', 'title'] },
);

const insightFilter = fc.oneof(
  fc.record({
    type: fc.constant('select'),
    fieldId: fc.constantFrom('fld_a', 'fld_b'),
    selectFilter: fc.record({ in: setOf(['x', 'y', 'z']), notIn: setOf(['w']) }),
  }),
  fc.record({
    type: fc.constant('boolean'),
    fieldId: fc.constant('fld_c'),
    boolFilter: fc.record({ is: fc.boolean() }),
  }),
);
const author = fc.oneof(
  fc.record({ type: fc.constant('User'), userId: fc.constantFrom('u_mia', 'u_adam') }),
  fc.constant({ type: 'Me' }),
);

const FILTERS: Record<Domain, fc.Arbitrary<Record<string, unknown>>> = {
  recordings: fc.record(
    {
      sourceIn: setOf(RECORDING_SOURCES),
      stateIn: setOf(RECORDING_STATES),
      labelIdNotIn: ids,
      createdAfterRelative: fc.nat(365),
      title: fc.record({ contains: name }),
      authorIdIn: fc.array(author, { maxLength: 3 }),
      insights: fc.array(insightFilter, { maxLength: 2 }),
      dealAgeRange: fc.constantFrom('OneDay', 'LessThan30Days'),
      videoDurationSecBetween: fc.record({ gte: fc.nat(600) }),
    },
    { requiredKeys: [] },
  ),
  deals: fc.record(
    {
      statusIn: setOf(DEAL_STATUSES),
      aiStatusNotIn: setOf(DEAL_AI_STATUSES),
      amountCurrencyIn: setOf(['EUR', 'USD', 'GBP']),
      amountValue: fc.record({ gte: fc.nat(100_000) }),
      hasInteraction: fc.boolean(),
      dealAgeRange: fc.constantFrom('OneDay', 'MoreThan180Days'),
    },
    { requiredKeys: [] },
  ),
  companies: fc.record(
    { dealStatusIn: setOf(DEAL_STATUSES), contactIdIn: ids, hasInteraction: fc.boolean() },
    { requiredKeys: [] },
  ),
  contacts: fc.record({ companyIdIn: ids, externalities: setOf(['x', 'y']) }, { requiredKeys: [] }),
};

const order = fc.constantFrom('Asc', 'Desc');
const SORTS: Record<Domain, fc.Arbitrary<Record<string, unknown>>> = {
  recordings: fc.oneof(
    fc.record({ field: fc.constantFrom('CreatedAt', 'Title', 'DealAmount'), order }),
    fc.record({
      field: fc.constant('Insight'),
      insight: fc.record({ fieldId: fc.constantFrom('fld_a', 'fld_b') }),
      order,
    }),
  ),
  deals: fc.record({ field: fc.constantFrom('AmountValue', 'AmountCurrency', 'Stage'), order }),
  companies: fc.record({ field: fc.constantFrom('ContactName', 'Name'), order }),
  contacts: fc.record({ field: fc.constantFrom('Name', 'CreatedAt'), order }),
};

/** ViewSeed is a generated view before it gets its id, owner and visibility. */
interface ViewSeed {
  name: string;
  icon: string | undefined;
  columns: unknown[];
  filters: Record<string, unknown>;
  sort: unknown[];
}

function viewSeed(domain: Domain): fc.Arbitrary<ViewSeed> {
  const column = domain === 'recordings' || domain === 'deals' ? fc.oneof(defaultColumn, aiColumn) : defaultColumn;
  return fc.record({
    name,
    icon,
    columns: fc.array(column, { maxLength: 3 }),
    filters: FILTERS[domain],
    sort: fc.array(SORTS[domain], { maxLength: 2 }),
  });
}

function toView(seed: ViewSeed, viewId: string, visibility: 'Public' | 'Private', ownerId: string): ApiView {
  const view: ApiView = {
    viewId,
    name: seed.name,
    visibility,
    isDefault: false,
    ownerId,
    columns: seed.columns as JsonObject[],
    filters: seed.filters as JsonObject,
    sort: seed.sort as JsonObject[],
  };
  if (seed.icon !== undefined) view.icon = seed.icon;
  return view;
}

/** DomainSeed is one domain's generated views and the choices that build pinned lists from them. */
interface DomainSeed {
  publicViews: ViewSeed[];
  privateViews: { seed: ViewSeed; owner: number }[];
  /**
   * Per active user: no custom tabs (null), picks (indexes into what they can access) in
   * tab order, or one of the lists several members share (`{shared}`), after their own
   * private views when they own some.
   */
  pins: (number[] | { shared: number } | null)[];
  /** Lists members share, as picks among the public and default views. */
  shared: number[][];
}

function domainSeed(domain: Domain, activeUsers: number): fc.Arbitrary<DomainSeed> {
  return fc.record({
    publicViews: fc.array(viewSeed(domain), { maxLength: 5 }),
    privateViews: fc.array(fc.record({ seed: viewSeed(domain), owner: fc.nat(activeUsers - 1) }), { maxLength: 2 }),
    pins: fc.array(
      fc.option(fc.oneof(fc.uniqueArray(fc.nat(20), { maxLength: 5 }), fc.record({ shared: fc.nat(1) })), {
        nil: null,
      }),
      { minLength: activeUsers, maxLength: activeUsers },
    ),
    shared: fc.tuple(
      fc.uniqueArray(fc.nat(20), { minLength: 1, maxLength: 3 }),
      fc.uniqueArray(fc.nat(20), { minLength: 1, maxLength: 3 }),
    ),
  });
}

function canAccess(user: ApiUser, view: ApiView): boolean {
  return view.isDefault || view.visibility === 'Public' || user.role !== 'Member' || view.ownerId === user.id;
}

/** WorkspaceSeed is a generated workspace, small enough to print as a counterexample. */
export type WorkspaceSeed = Record<Domain, DomainSeed>;

const BASE = demoWorkspace();
const ACTIVE = BASE.users.filter((user) => user.state === 'Active');

/** workspaceSeeds generates the views and pinned-list choices of every domain. */
export function workspaceSeeds(): fc.Arbitrary<WorkspaceSeed> {
  return fc.record(
    Object.fromEntries(DOMAINS.map((domain) => [domain, domainSeed(domain, ACTIVE.length)])) as Record<
      Domain,
      fc.Arbitrary<DomainSeed>
    >,
  );
}

/** buildWorkspace is the demo workspace's people and records with the seed's views and pinned lists. */
export function buildWorkspace(seeds: WorkspaceSeed): EmulatorData {
  const data = structuredClone(BASE);
  for (const domain of DOMAINS) {
    const seed = seeds[domain];
    const defaults = BASE.views[domain].filter((view) => view.isDefault);
    const publicViews = seed.publicViews.map((view, index) =>
      toView(view, `${domain}_pub_${index}`, 'Public', 'u_adam'),
    );
    const privateViews = seed.privateViews.map(({ seed: view, owner }, index) =>
      toView(view, `${domain}_prv_${index}`, 'Private', ACTIVE[owner]?.id ?? 'u_adam'),
    );
    data.views[domain] = [...defaults, ...publicViews, ...privateViews];
    data.pinned[domain] = {};
    ACTIVE.forEach((user, index) => {
      const picks = seed.pins[index];
      if (picks === null || picks === undefined) return;
      const accessible = data.views[domain].filter((view) => canAccess(user, view));
      if (!Array.isArray(picks)) {
        const everyones = data.views[domain].filter((view) => view.visibility === 'Public' || view.isDefault);
        const owned = data.views[domain].filter((view) => view.visibility === 'Private' && view.ownerId === user.id);
        const tabs = (seed.shared[picks.shared] ?? []).map((pick) => everyones[pick % everyones.length]?.viewId ?? '');
        data.pinned[domain][user.id] = [...new Set([...owned.map((view) => view.viewId), ...tabs])];
        return;
      }
      const chosen = picks.map((pick) => accessible[pick % accessible.length]?.viewId ?? '').filter((id) => id !== '');
      data.pinned[domain][user.id] = [...new Set(chosen)];
    });
  }
  return data;
}

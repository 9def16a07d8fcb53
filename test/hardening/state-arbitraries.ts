import fc from 'fast-check';
import type { ApiView, JsonObject } from '../../src/domain/api-types.js';
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
import type { Desired, DesiredPins, DesiredView, ManagedViewAttributes, PinRef } from '../../src/state/types.js';

/**
 * Random live workspaces and random desired states over them, with attribute values
 * the service accepts: set arrays in any order and with repeats, response-only
 * `dealAgeRange` on live deal views, icons set, removed or unmanaged, views bound by
 * id and renamed, prune on or off, pinned lists naming declared, live and default
 * views. Every desired state is one the planner accepts.
 */

const at = { file: 'random.yaml', line: 1, column: 1 };
/** A set value: any order, repeats allowed (the service may answer either). */
const setOf = <T>(values: readonly T[]): fc.Arbitrary<T[]> => fc.array(fc.constantFrom(...values), { maxLength: 4 });
const ids = setOf(['co_globex', 'co_hooli', 'co_initech', 'co_umbrella']);

/** FILTERS holds, per domain, filter objects the service accepts. */
export const FILTERS: Record<Domain, fc.Arbitrary<JsonObject>> = {
  recordings: fc.record(
    {
      sourceIn: setOf(RECORDING_SOURCES),
      stateIn: setOf(RECORDING_STATES),
      createdAfterRelative: fc.integer({ min: 1, max: 365 }),
      teamIdIn: setOf(['team_ae', 'team_sdr']),
    },
    { requiredKeys: [] },
  ) as fc.Arbitrary<JsonObject>,
  deals: fc.record(
    {
      statusIn: setOf(DEAL_STATUSES),
      aiStatusNotIn: setOf(DEAL_AI_STATUSES),
      amountCurrencyIn: setOf(['EUR', 'USD', 'GBP']),
      amountValue: fc.record({ gte: fc.nat(100_000) }),
      hasInteraction: fc.boolean(),
    },
    { requiredKeys: [] },
  ) as fc.Arbitrary<JsonObject>,
  companies: fc.record(
    { dealStatusIn: setOf(DEAL_STATUSES), contactIdIn: ids, hasInteraction: fc.boolean() },
    { requiredKeys: [] },
  ) as fc.Arbitrary<JsonObject>,
  contacts: fc.record(
    { companyIdIn: ids, externalities: setOf(['champion', 'decision-maker']) },
    { requiredKeys: [] },
  ) as fc.Arbitrary<JsonObject>,
};

const order = fc.constantFrom('Asc', 'Desc');
/** SORTS holds, per domain, sort entries the service accepts. */
export const SORTS: Record<Domain, fc.Arbitrary<JsonObject>> = {
  recordings: fc.record({ field: fc.constantFrom('CreatedAt', 'Title'), order }),
  deals: fc.record({ field: fc.constantFrom('AmountValue', 'Stage'), order }),
  companies: fc.record({ field: fc.constantFrom('Name', 'ContactName'), order }),
  contacts: fc.record({ field: fc.constantFrom('Name', 'CreatedAt'), order }),
};

/** COLUMN is a default column, with and without the optional flags. */
export const COLUMN: fc.Arbitrary<JsonObject> = fc.record(
  {
    type: fc.constant('Default'),
    columnId: fc.constantFrom('title', 'createdAt', 'owner', 'name'),
    isHidden: fc.boolean(),
    width: fc.integer({ min: 40, max: 400 }),
  },
  { requiredKeys: ['type', 'columnId'] },
) as fc.Arbitrary<JsonObject>;

const ICONS = ['star', 'moneybag', 'warning', 'telephone_receiver'] as const;
const NAMES = [
  'Calls',
  'Pipeline',
  'Renewals',
  'Café ☕',
  '日本語',
  'Escalations',
  'Wins',
  'Q3 review',
  'Scratch pad',
  'a: b',
  "Mia's",
];

/** ViewParts is what a random view manages: each attribute present or not. */
interface ViewParts {
  icon: string | null | undefined;
  columns: JsonObject[] | undefined;
  filters: JsonObject | undefined;
  sort: JsonObject[] | undefined;
}

function parts(domain: Domain): fc.Arbitrary<ViewParts> {
  const option = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
    fc.option(arbitrary, { nil: undefined, freq: 3 });
  return fc.record({
    icon: fc.oneof(fc.constant(undefined), fc.constant(null), fc.constantFrom(...ICONS)),
    columns: option(fc.array(COLUMN, { maxLength: 3 })),
    filters: option(FILTERS[domain]),
    sort: option(fc.array(SORTS[domain], { maxLength: 2 })),
  });
}

/** DomainPlan is one domain's random live views and what the desired state does with them. */
interface DomainPlan {
  live: { name: string; parts: ViewParts; ageRange: boolean }[];
  /** Per live view: leave undeclared, declare by name, or bind by id and rename. */
  fate: ('undeclared' | 'declare' | 'rename')[];
  desiredParts: ViewParts[];
  created: { name: string; parts: ViewParts }[];
  /** Pinned list picks (indexes into the candidates) for one user, or none. */
  pins: number[] | null;
  pinUser: number;
}

function domainPlan(domain: Domain): fc.Arbitrary<DomainPlan> {
  const names = fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 5 });
  return names.chain((liveNames) =>
    fc.record({
      live: fc.tuple(
        ...liveNames.map((name) =>
          fc.record({ name: fc.constant(name), parts: parts(domain), ageRange: fc.boolean() }),
        ),
      ),
      fate: fc.array(
        fc.constantFrom('undeclared' as const, 'declare' as const, 'declare' as const, 'rename' as const),
        { minLength: liveNames.length, maxLength: liveNames.length },
      ),
      desiredParts: fc.array(parts(domain), { minLength: liveNames.length, maxLength: liveNames.length }),
      created: fc.uniqueArray(
        fc.record({ name: fc.constantFrom('New A', 'New B', 'New C', 'Nouveau é'), parts: parts(domain) }),
        { maxLength: 3, selector: (entry) => entry.name },
      ),
      pins: fc.option(fc.uniqueArray(fc.nat(12), { minLength: 1, maxLength: 4 }), { nil: null }),
      pinUser: fc.nat(5),
    }),
  );
}

/** Scenario is a live workspace for the emulator and a desired state over it. */
export interface Scenario {
  data: EmulatorData;
  desired: Desired;
}

/** scenario generates a Scenario across every domain. */
export function scenario(): fc.Arbitrary<Scenario> {
  return fc
    .tuple(
      fc.record(
        Object.fromEntries(DOMAINS.map((domain) => [domain, domainPlan(domain)])) as Record<
          Domain,
          fc.Arbitrary<DomainPlan>
        >,
      ),
      fc.boolean(),
    )
    .map(([plans, prune]) => build(plans, prune));
}

const BASE = demoWorkspace();
const ACTIVE = BASE.users.filter((user) => user.state === 'Active');

function build(plans: Record<Domain, DomainPlan>, prune: boolean): Scenario {
  const data = structuredClone(BASE);
  const views: DesiredView[] = [];
  const pins: DesiredPins[] = [];
  for (const domain of DOMAINS) {
    const plan = plans[domain];
    const defaults = BASE.views[domain].filter((view) => view.isDefault);
    const live = plan.live.map((entry, index) =>
      liveView(domain, `${domain}_live_${index}`, entry.name, entry.parts, entry.ageRange),
    );
    data.views[domain] = [...defaults, ...live];
    data.pinned[domain] = {};
    const pinnable: string[] = defaults.map((view) => view.name);
    live.forEach((view, index) => {
      const fate = plan.fate[index] ?? 'undeclared';
      const managed = managedOf(plan.desiredParts[index]);
      if (fate === 'declare') {
        views.push({ domain, name: view.name, managed, source: at });
        pinnable.push(view.name);
      } else if (fate === 'rename') {
        const name = `${view.name} (renamed)`;
        views.push({ domain, name, viewId: view.viewId, managed, source: at });
        pinnable.push(name);
      } else if (!prune) {
        pinnable.push(view.name);
      }
    });
    for (const entry of plan.created) {
      views.push({ domain, name: entry.name, managed: managedOf(entry.parts), source: at });
      pinnable.push(entry.name);
    }
    if (plan.pins !== null) {
      const refs: PinRef[] = [...new Set(plan.pins.map((pick) => pinnable[pick % pinnable.length] ?? ''))].map(
        (name) => ({ name }),
      );
      const user = ACTIVE[plan.pinUser % ACTIVE.length]?.email ?? 'adam.reyes@acme.test';
      pins.push({ userEmail: user, domain, refs, unpinPrivate: true, source: at, refSources: refs.map(() => at) });
    }
  }
  return { data, desired: { workspace: { creatorEmail: 'adam.reyes@acme.test', prune, ignore: [] }, views, pins } };
}

function managedOf(viewParts: ViewParts | undefined): ManagedViewAttributes {
  const managed: ManagedViewAttributes = {};
  if (viewParts === undefined) return managed;
  if (viewParts.icon !== undefined) managed.icon = viewParts.icon;
  if (viewParts.columns !== undefined) managed.columns = viewParts.columns;
  if (viewParts.filters !== undefined) managed.filters = viewParts.filters;
  if (viewParts.sort !== undefined) managed.sort = viewParts.sort;
  return managed;
}

function liveView(domain: Domain, viewId: string, name: string, viewParts: ViewParts, ageRange: boolean): ApiView {
  const filters: JsonObject = { ...(viewParts.filters ?? {}) };
  // The service answers deal views with the response-only dealAgeRange.
  if (domain === 'deals' && ageRange) filters.dealAgeRange = 'LessThan30Days';
  return {
    viewId,
    name,
    visibility: 'Public',
    isDefault: false,
    ownerId: 'u_adam',
    ...(typeof viewParts.icon === 'string' ? { icon: viewParts.icon } : {}),
    columns: viewParts.columns ?? [],
    filters,
    sort: viewParts.sort ?? [],
  };
}

import { isJsonObject, type ApiView, type JsonObject, type JsonValue } from '../domain/api-types.js';
import type { AppOwnable } from '../domain/app-owns.js';
import { VIEW_DOMAINS, type Domain, type ViewDomain } from '../domain/domains.js';
import type { DesiredView, ManagedViewAttributes } from '../state/types.js';
import { canonicalize, compareCodePoints, sortedSet } from './canonical.js';
import type { ViewSnapshot } from './changes.js';

/**
 * One normalisation for desired state, live state, post-apply verification and drift,
 * the same for every domain but for what its `VIEW_DOMAINS` entry (src/domain/domains.ts)
 * says about its filters. A ViewSnapshot holds only what a manifest can manage
 * (name, icon, columns, filters, sort); `viewId`, `visibility`, `isDefault` and
 * `ownerId` are server attributes and never part of it.
 *
 * Equalities the normalisation decides (and why):
 * - a set attribute (`...In`, `...NotIn`, plus the domain's `setAttributes`) is sorted
 *   and de-duplicated; an empty set equals an absent attribute, because both mean
 *   "no constraint" and the service may spell either;
 * - a column's `isHidden: false` equals an absent `isHidden` (shown is the default);
 *   no other column flag is assumed (`hasAutogen`, `isConfigured` and `width` are
 *   compared as given, since the service does not document their defaults);
 * - a sort entry's `insight` is dropped unless `field` is `Insight` (the API ignores it);
 * - response-only filter attributes (deal `dealAgeRange`) are dropped;
 * - object keys are in canonical (sorted) order at every depth.
 */

const SET_SUFFIX = /(?:In|NotIn)$/;

/** isSetAttribute tells whether a filter attribute of a domain is a set: by its `In` / `NotIn` suffix or its domain's `setAttributes`. */
export function isSetAttribute(domain: Domain, attribute: string): boolean {
  return (VIEW_DOMAINS[domain].setAttributes as readonly string[]).includes(attribute) || SET_SUFFIX.test(attribute);
}

/** SnapshotParts is anything shaped like a view: an ApiView, a ViewSnapshot, a create body. */
interface SnapshotParts extends ManagedViewAttributes {
  name: string;
}

/**
 * normalizeSnapshot normalises view-shaped data of a domain. Omitted columns and sort
 * are `[]` and omitted filters `{}`, as the service fills them on create
 * (the service's POST); a null or absent icon is no icon. Idempotent.
 */
export function normalizeSnapshot(domain: Domain, parts: SnapshotParts): ViewSnapshot {
  // Key order is fixed (name, icon, columns, filters, sort) so YAML and JSON read the same every time.
  return {
    name: parts.name,
    ...(typeof parts.icon === 'string' ? { icon: parts.icon } : {}),
    columns: (parts.columns ?? []).map(normalizeColumn),
    filters: normalizeFilters(domain, parts.filters ?? {}),
    sort: (parts.sort ?? []).map(normalizeSortEntry),
  };
}

/** normalizeView normalises a view as the service returns it. */
export const normalizeView: (domain: Domain, apiView: ApiView) => ViewSnapshot = normalizeSnapshot;

/** normalizeFilters normalises a filter object of a domain (sets sorted, response-only dropped). */
export function normalizeFilters(domain: Domain, filters: JsonObject): JsonObject {
  const spec: ViewDomain = VIEW_DOMAINS[domain];
  // Entries, then fromEntries: an own `__proto__` attribute stays an attribute (canonical.ts).
  const out: [string, JsonValue][] = [];
  for (const attribute of Object.keys(filters).sort(compareCodePoints)) {
    const raw = filters[attribute];
    if (raw === undefined || spec.responseOnlyFilters?.includes(attribute) === true) continue;
    const nested = spec.nestedSets?.[attribute];
    if (Array.isArray(raw) && isSetAttribute(domain, attribute)) {
      if (raw.length === 0) continue;
      out.push([attribute, sortedSet(nested === undefined ? raw : raw.map((entry) => withNestedSets(entry, nested)))]);
    } else {
      out.push([attribute, canonicalize(raw)]);
    }
  }
  return Object.fromEntries(out) as JsonObject;
}

/** withNestedSets sorts, in an object entry of a set, the arrays `nested` names under each member. */
function withNestedSets(entry: JsonValue, nested: Readonly<Record<string, readonly string[]>>): JsonValue {
  if (!isJsonObject(entry)) return entry;
  const out: JsonObject = { ...entry };
  for (const [member, keys] of Object.entries(nested)) {
    const value = out[member];
    if (!isJsonObject(value)) continue;
    const sets: JsonObject = { ...value };
    for (const key of keys) {
      const set = sets[key];
      if (Array.isArray(set)) sets[key] = sortedSet(set);
    }
    out[member] = sets;
  }
  return out;
}

/** normalizeColumn drops `isHidden: false` (equal to absent) and sorts keys. */
function normalizeColumn(column: JsonObject): JsonObject {
  const { isHidden, ...shown } = column;
  return canonicalize(isHidden === false ? shown : column);
}

/** normalizeSortEntry drops `insight` unless the entry sorts by `Insight`, and sorts keys. */
function normalizeSortEntry(entry: JsonObject): JsonObject {
  const { insight: _insight, ...rest } = entry;
  return canonicalize(entry.field === 'Insight' ? entry : rest);
}

/**
 * desiredSnapshot is the state a view manifest asks for. Managed attributes override
 * `live` (an already normalised snapshot of the bound view); unmanaged ones keep
 * their live value, and so do the attributes left to the app (`appOwns`), whatever the
 * manifest gives: their manifest value only serves a create. For a create (`live`
 * absent) the manifest's values count, app-owned or not, and the rest take the
 * service's defaults. `icon: null` means no icon.
 */
export function desiredSnapshot(domain: Domain, desiredView: DesiredView, live?: ViewSnapshot): ViewSnapshot {
  const owned = new Set(live === undefined ? [] : (desiredView.appOwns ?? []));
  const managed = (attribute: AppOwnable) => (owned.has(attribute) ? undefined : desiredView.managed[attribute]);
  const icon = managed('icon') as ViewSnapshot['icon'] | null | undefined;
  return normalizeSnapshot(domain, {
    name: desiredView.name,
    icon: icon === undefined ? live?.icon : icon,
    columns: (managed('columns') as JsonObject[] | undefined) ?? live?.columns,
    filters: (managed('filters') as JsonObject | undefined) ?? live?.filters,
    sort: (managed('sort') as JsonObject[] | undefined) ?? live?.sort,
  });
}

/**
 * withoutAppOwned is `snapshot` without the attributes left to the app: what the stale
 * check, the re-checks and verification compare of a view whose manifest leaves them.
 */
export function withoutAppOwned(snapshot: ViewSnapshot, appOwns: readonly AppOwnable[] | undefined): JsonObject {
  const kept: JsonObject = { ...(snapshot as unknown as JsonObject) };
  for (const attribute of appOwns ?? []) delete kept[attribute];
  return kept;
}

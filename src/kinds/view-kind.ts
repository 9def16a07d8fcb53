import type { JsonObject, JsonValue } from '../domain/api-types.js';
import type { Domain, ViewKind } from '../domain/domains.js';
import { canonicalize, compareCodePoints, isJsonObject, sortedSet } from './canonical.js';

/**
 * ViewKindModule is what the engine needs to know about one view domain:
 * which filter attributes are sets, which are response-only,
 * and how its columns, filters and sort entries normalise. The same functions serve
 * plan, post-apply verification and drift.
 *
 * Equalities the normalisation decides (and why):
 * - a set attribute (`...In`, `...NotIn`, plus the kind's `setAttributes`) is sorted
 *   and de-duplicated; an empty set equals an absent attribute, because both mean
 *   "no constraint" and the service may spell either;
 * - a column's `isHidden: false` equals an absent `isHidden` (shown is the default);
 *   no other column flag is assumed (`hasAutogen`, `isConfigured` and `width` are
 *   compared as given, since the service does not document their defaults);
 * - a sort entry's `insight` is dropped unless `field` is `Insight` (the API ignores it);
 * - response-only filter attributes (deal `dealAgeRange`) are dropped;
 * - object keys are in canonical (sorted) order at every depth.
 */
export interface ViewKindModule {
  kind: ViewKind;
  domain: Domain;
  /** Filter attributes whose array value is a set, beyond the `...In` / `...NotIn` rule. */
  setAttributes: ReadonlySet<string>;
  /** Filter attributes the service returns but never accepts: never compared, never sent. */
  responseOnlyFilters: ReadonlySet<string>;
  isSetAttribute(attribute: string): boolean;
  normalizeFilters(filters: JsonObject): JsonObject;
  normalizeColumn(column: JsonObject): JsonObject;
  normalizeSortEntry(entry: JsonObject): JsonObject;
}

/** ViewKindSpec is what a per-kind module declares; `defineViewKind` builds the rest. */
export interface ViewKindSpec {
  kind: ViewKind;
  domain: Domain;
  setAttributes: readonly string[];
  responseOnlyFilters?: readonly string[];
  /** Kind-specific normalisation of one filter value after the generic rules (e.g. nested sets). */
  normalizeFilterValue?: (attribute: string, value: JsonValue) => JsonValue;
}

const SET_SUFFIX = /(?:In|NotIn)$/;

/** defineViewKind builds a ViewKindModule from its declaration. */
export function defineViewKind(spec: ViewKindSpec): ViewKindModule {
  const setAttributes = new Set(spec.setAttributes);
  const responseOnlyFilters = new Set(spec.responseOnlyFilters ?? []);
  const isSetAttribute = (attribute: string): boolean => setAttributes.has(attribute) || SET_SUFFIX.test(attribute);
  return {
    kind: spec.kind,
    domain: spec.domain,
    setAttributes,
    responseOnlyFilters,
    isSetAttribute,
    normalizeFilters(filters) {
      // Entries, then fromEntries: an own `__proto__` attribute stays an attribute (canonical.ts).
      const out: [string, JsonValue][] = [];
      for (const attribute of Object.keys(filters).sort(compareCodePoints)) {
        const raw = filters[attribute];
        if (raw === undefined || responseOnlyFilters.has(attribute)) continue;
        let value: JsonValue;
        if (Array.isArray(raw) && isSetAttribute(attribute)) {
          if (raw.length === 0) continue;
          value = sortedSet(raw);
        } else {
          value = canonicalize(raw);
        }
        out.push([attribute, spec.normalizeFilterValue === undefined ? value : canonicalize(spec.normalizeFilterValue(attribute, value))]);
      }
      return Object.fromEntries(out) as JsonObject;
    },
    normalizeColumn,
    normalizeSortEntry,
  };
}

/** normalizeColumn drops `isHidden: false` (equal to absent) and sorts keys. */
export function normalizeColumn(column: JsonObject): JsonObject {
  const out: JsonObject = { ...column };
  if (out['isHidden'] === false) delete out['isHidden'];
  return canonicalize(out);
}

/** normalizeSortEntry drops `insight` unless the entry sorts by `Insight`, and sorts keys. */
export function normalizeSortEntry(entry: JsonObject): JsonObject {
  const out: JsonObject = { ...entry };
  if (out['field'] !== 'Insight') delete out['insight'];
  return canonicalize(out);
}

/** normalizeNestedSets sorts the array members named in `keys` of an object value. */
export function normalizeNestedSets(value: JsonValue, keys: readonly string[]): JsonValue {
  if (!isJsonObject(value)) return value;
  const out: JsonObject = { ...value };
  for (const key of keys) {
    const member = out[key];
    if (Array.isArray(member)) out[key] = sortedSet(member);
  }
  return out;
}

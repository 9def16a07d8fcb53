import { stringify } from 'yaml';
import type { JsonValue } from '../domain/api-types.js';
import type { CreateChange, DeleteChange, ViewSnapshot } from '../plan/types.js';
import { safeText } from '../text/safe-text.js';
import { viewYaml } from './format.js';

/**
 * The attributes of many views created or deleted by one cause, told once: those every
 * view has alike (`columns`, `filters.sourceIn`), then each view's own, one line each.
 * Attributes are compared one level into objects, so views that share a filter but not
 * another show the shared one once.
 */

/** OwnAttributes is one view of a batch and the attributes it does not share with all the others. */
export interface OwnAttributes<C extends CreateChange | DeleteChange> {
  change: C;
  /** `path: value` in YAML flow style (`filters.labelIdIn: [ a, b ]`), made safe for display. */
  attributes: string[];
}

/** BatchAttributes are a batch's shared attributes and each view's own. */
export interface BatchAttributes<C extends CreateChange | DeleteChange> {
  /** The shared attributes as block YAML lines, made safe; empty when the views share none. */
  common: string[];
  own: OwnAttributes<C>[];
}

/** batchAttributes splits the attributes of a batch's views into the shared ones and each view's own. */
export function batchAttributes<C extends CreateChange | DeleteChange>(changes: readonly C[]): BatchAttributes<C> {
  const flat = changes.map((change) => flatten(change.action === 'create' ? change.after : change.before));
  const [first] = flat;
  const common = new Map<string, JsonValue>();
  if (first !== undefined) {
    for (const [path, value] of first) {
      const text = sortedJson(value);
      if (flat.every((attributes) => attributes.has(path) && sortedJson(attributes.get(path) ?? null) === text))
        common.set(path, value);
    }
  }
  const own = changes.map((change, index) => ({
    change,
    attributes: [...(flat[index] ?? new Map<string, JsonValue>())]
      .filter(([path]) => !common.has(path))
      .map(([path, value]) => `${safeText(path)}: ${flowYaml(value)}`),
  }));
  return { common: common.size === 0 ? [] : viewYaml(unflatten(common)).trimEnd().split('\n').map(safeText), own };
}

/** flowYaml writes a value on one line, in YAML flow style, made safe. */
export function flowYaml(value: JsonValue): string {
  return safeText(stringify(value, { collectionStyle: 'flow', lineWidth: 0 }).trimEnd());
}

/** flatten lists a view's attributes but its name, one level into non-empty objects (`filters.sourceIn`). */
function flatten(view: ViewSnapshot): Map<string, JsonValue> {
  const { name: _name, ...attributes } = view;
  const flat = new Map<string, JsonValue>();
  for (const [key, value] of Object.entries(attributes) as [string, JsonValue][]) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) {
      for (const [inner, innerValue] of Object.entries(value)) flat.set(`${key}.${inner}`, innerValue);
    } else {
      flat.set(key, value);
    }
  }
  return flat;
}

/** sortedJson spells a value with its object keys sorted, so equal values compare equal whatever their key order. */
function sortedJson(value: JsonValue): string {
  return JSON.stringify(value, (_key, member: unknown) =>
    member !== null && typeof member === 'object' && !Array.isArray(member)
      ? Object.fromEntries(Object.entries(member).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : member,
  );
}

function unflatten(flat: ReadonlyMap<string, JsonValue>): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [path, value] of flat) {
    const dot = path.indexOf('.');
    if (dot < 0) {
      out[path] = value;
      continue;
    }
    const key = path.slice(0, dot);
    const inner = out[key];
    const object = inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? inner : {};
    object[path.slice(dot + 1)] = value;
    out[key] = object;
  }
  return out;
}

import type { StoredInsight } from '../types.js';
import {
  matchesBetween,
  matchesIn,
  matchesNotIn,
  matchesNumeric,
  matchesString,
  stringList,
  timestamp,
  type JsonRecord,
} from './shared-shapes.js';
import { isJsonObject } from '../../../domain/api-types.js';

/**
 * matchesInsightFilter evaluates one RecordingViewInsightFilter against a recording's
 * insights (the service's "RecordingViewInsightFilter"). The entry's `type` decides
 * both the attribute read and the value kind expected: an insight of another kind
 * counts as missing, so only `exists: false` style tests match it.
 *
 * - `date` bounds are timestamps: numbers are milliseconds since the epoch, strings
 *   are parsed as ISO dates; the insight's ISO value is compared in milliseconds.
 * - `select` matches when the value (one option or a list of options) has one of
 *   `in` (if any are given) and none of `notIn`.
 */
export function matchesInsightFilter(entry: JsonRecord, insights: readonly StoredInsight[]): boolean {
  const fieldId = entry.fieldId;
  const insight = insights.find((candidate) => candidate.fieldId === fieldId);
  const value = insight?.value ?? null;
  switch (entry.type) {
    case 'exists':
      return typeof entry.existsFilter !== 'boolean' || entry.existsFilter === (value !== null);
    case 'boolean': {
      const is = isJsonObject(entry.boolFilter) ? entry.boolFilter.is : undefined;
      if (typeof is !== 'boolean') return true;
      return insight?.kind === 'boolean' && value === is;
    }
    case 'number':
      return matchesNumeric(entry.numFilter, insight?.kind === 'number' && typeof value === 'number' ? value : null);
    case 'string':
      return matchesString(entry.strFilter, insight?.kind === 'string' && typeof value === 'string' ? value : null);
    case 'date':
      return matchesBetween(
        dateBounds(entry.dateFilter),
        insight?.kind === 'date' && typeof value === 'string' ? timestamp(value) : null,
      );
    case 'select':
      return matchesSelect(entry.selectFilter, insight?.kind === 'select' ? selectValues(value) : []);
    default:
      // Entries are validated on write; an unknown type cannot narrow anything.
      return true;
  }
}

function dateBounds(filter: unknown): JsonRecord | undefined {
  if (!isJsonObject(filter)) return undefined;
  const bounds: JsonRecord = {};
  for (const key of ['gte', 'lte'] as const) {
    const raw = filter[key];
    const ms = typeof raw === 'string' ? timestamp(raw) : typeof raw === 'number' ? raw : null;
    if (ms !== null) bounds[key] = ms;
  }
  return bounds;
}

function selectValues(value: StoredInsight['value']): string[] {
  if (typeof value === 'string') return [value];
  return stringList(value);
}

function matchesSelect(filter: unknown, values: string[]): boolean {
  return !isJsonObject(filter) || (matchesIn(filter.in, values) && matchesNotIn(filter.notIn, values));
}

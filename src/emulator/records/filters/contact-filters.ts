import type { StoredContact } from '../types.js';
import { inNotIn, matchesFilters, matchesIn, type FilterTable, type JsonRecord } from './shared-shapes.js';

/**
 * CONTACT_FILTERS evaluates every contact view filter (the service's "Contact view
 * filters"). The element shape of `externalities` is not shown; the emulator takes
 * strings (tags such as `decision-maker`) and matches a contact carrying any of them.
 */
export const CONTACT_FILTERS: FilterTable<StoredContact, unknown> = {
  ...inNotIn<StoredContact, unknown>('companyId', (contact) => (contact.companyId === null ? [] : [contact.companyId])),
  externalities: (value, contact) => matchesIn(value, contact.externalities),
};

/** matchesContactFilters tells whether a contact passes every set attribute of contact view filters. */
export function matchesContactFilters(filters: JsonRecord, contact: StoredContact): boolean {
  return matchesFilters(CONTACT_FILTERS, filters, contact, undefined);
}

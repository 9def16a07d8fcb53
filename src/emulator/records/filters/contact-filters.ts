import { ownValue } from '../../own.js';
import type { StoredContact } from '../types.js';
import { matchesIn, matchesNotIn, type JsonRecord } from './shared-shapes.js';

type ContactPredicate = (value: unknown, contact: StoredContact) => boolean;

/**
 * CONTACT_FILTERS evaluates every contact view filter (the service's "Contact view
 * filters"). The element shape of `externalities` is not shown; the emulator takes
 * strings (tags such as `decision-maker`) and matches a contact carrying any of them.
 */
export const CONTACT_FILTERS: Record<string, ContactPredicate> = {
  companyIdIn: (value, contact) => matchesIn(value, contact.companyId === null ? [] : [contact.companyId]),
  companyIdNotIn: (value, contact) => matchesNotIn(value, contact.companyId === null ? [] : [contact.companyId]),
  externalities: (value, contact) => matchesIn(value, contact.externalities),
};

/** matchesContactFilters tells whether a contact passes every set attribute of contact view filters. */
export function matchesContactFilters(filters: JsonRecord, contact: StoredContact): boolean {
  for (const [attribute, value] of Object.entries(filters)) {
    const predicate = ownValue(CONTACT_FILTERS, attribute);
    if (predicate !== undefined && value !== undefined && value !== null && !predicate(value, contact)) return false;
  }
  return true;
}

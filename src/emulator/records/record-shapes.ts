import type { StoredCompany, StoredContact, StoredDeal } from './types.js';

/**
 * Response shapes of `GET /v1/deals`, `/v1/companies` and `/v1/contacts` entries. The
 * spec does not show them; the emulator answers with the attributes the view filters
 * of each domain work on, named as those filters name them, so a client can check
 * a listing against a view by eye:
 *
 * - deal: `{id, name, status, aiStatus, stage, pipelineId, type, owner: {email, name},
 *   amount: {value, currency} | null, openedAt, closedAt (null while open), companyId,
 *   contactIds, hasInteraction, lastActivityAt}`
 * - company: `{id, name, domain, contactIds, dealIds, hasInteraction, lastActivityAt}`
 * - contact: `{id, name, email, companyId, externalities, lastActivityAt}`
 *
 * Each builder copies the attributes it lists, so stored-only facts never leak.
 */

/** dealResponse is one entry of `result.deals`. */
export function dealResponse(deal: StoredDeal): Record<string, unknown> {
  return {
    ...copyOf(deal, ['id', 'name', 'status', 'aiStatus', 'stage', 'pipelineId', 'type']),
    owner: { email: deal.ownerEmail, name: deal.ownerName },
    amount: deal.amount === null ? null : { value: deal.amount.value, currency: deal.amount.currency },
    ...copyOf(deal, ['openedAt', 'closedAt', 'companyId', 'contactIds', 'hasInteraction', 'lastActivityAt']),
  };
}

/** companyResponse is one entry of `result.companies`. */
export function companyResponse(company: StoredCompany): Record<string, unknown> {
  return copyOf(company, ['id', 'name', 'domain', 'contactIds', 'dealIds', 'hasInteraction', 'lastActivityAt']);
}

/** contactResponse is one entry of `result.contacts`. */
export function contactResponse(contact: StoredContact): Record<string, unknown> {
  return copyOf(contact, ['id', 'name', 'email', 'companyId', 'externalities', 'lastActivityAt']);
}

// A copy of the listed attributes, lists included, so a response never shares the stored arrays.
function copyOf<T, const K extends keyof T>(record: T, keys: readonly K[]): Pick<T, K> {
  return structuredClone(Object.fromEntries(keys.map((key) => [key, record[key]])) as Pick<T, K>);
}

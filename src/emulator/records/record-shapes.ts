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
 * Each builder copies attributes one by one so stored-only facts never leak.
 */

/** dealResponse is one entry of `result.deals`. */
export function dealResponse(deal: StoredDeal): Record<string, unknown> {
  return {
    id: deal.id,
    name: deal.name,
    status: deal.status,
    aiStatus: deal.aiStatus,
    stage: deal.stage,
    pipelineId: deal.pipelineId,
    type: deal.type,
    owner: { email: deal.ownerEmail, name: deal.ownerName },
    amount: deal.amount === null ? null : { value: deal.amount.value, currency: deal.amount.currency },
    openedAt: deal.openedAt,
    closedAt: deal.closedAt,
    companyId: deal.companyId,
    contactIds: [...deal.contactIds],
    hasInteraction: deal.hasInteraction,
    lastActivityAt: deal.lastActivityAt,
  };
}

/** companyResponse is one entry of `result.companies`. */
export function companyResponse(company: StoredCompany): Record<string, unknown> {
  return {
    id: company.id,
    name: company.name,
    domain: company.domain,
    contactIds: [...company.contactIds],
    dealIds: [...company.dealIds],
    hasInteraction: company.hasInteraction,
    lastActivityAt: company.lastActivityAt,
  };
}

/** contactResponse is one entry of `result.contacts`. */
export function contactResponse(contact: StoredContact): Record<string, unknown> {
  return {
    id: contact.id,
    name: contact.name,
    email: contact.email,
    companyId: contact.companyId,
    externalities: [...contact.externalities],
    lastActivityAt: contact.lastActivityAt,
  };
}

import { ownValue } from '../../own.js';
import type { StoredDeal } from '../types.js';
import { groupIdsOf, type FilterEnv } from './env.js';
import { matchesOwnerIn, matchesOwnerNotIn } from './owner-filters.js';
import {
  dealAgeDays,
  matchesDealAge,
  matchesIn,
  matchesNotIn,
  matchesNumeric,
  matchesRelative,
  timestamp,
  type JsonRecord,
} from './shared-shapes.js';

type DealPredicate = (value: unknown, deal: StoredDeal, env: FilterEnv) => boolean;

/**
 * DEAL_FILTERS evaluates every attribute of the deal view filters (the service's
 * "Deal view"). `ownerEmailIn` / `ownerEmailNotIn` hold owner emails (compared
 * case-insensitively) and may hold the `Me` entry (rule 7); `userGroupIn` matches when
 * the deal owner (found by email) is in one of the groups; `dealAgeRange` counts from
 * `openedAt` (to `closedAt` for a closed deal).
 */
export const DEAL_FILTERS: Record<string, DealPredicate> = {
  aiStatusIn: (value, deal) => matchesIn(value, [deal.aiStatus]),
  aiStatusNotIn: (value, deal) => matchesNotIn(value, [deal.aiStatus]),
  amountCurrencyIn: (value, deal) => matchesIn(value, deal.amount === null ? [] : [deal.amount.currency]),
  amountCurrencyNotIn: (value, deal) => matchesNotIn(value, deal.amount === null ? [] : [deal.amount.currency]),
  amountValue: (value, deal) => matchesNumeric(value, deal.amount?.value ?? null),
  closedAfterRelative: (value, deal, env) => matchesRelative(value, undefined, timestamp(deal.closedAt), env.now),
  closedBeforeRelative: (value, deal, env) => matchesRelative(undefined, value, timestamp(deal.closedAt), env.now),
  companyIdIn: (value, deal) => matchesIn(value, deal.companyId === null ? [] : [deal.companyId]),
  companyIdNotIn: (value, deal) => matchesNotIn(value, deal.companyId === null ? [] : [deal.companyId]),
  contactIdIn: (value, deal) => matchesIn(value, deal.contactIds),
  dealAgeRange: (value, deal, env) => matchesDealAge(value, dealAgeDays(deal.openedAt, deal.closedAt, env.now)),
  hasInteraction: (value, deal) => typeof value !== 'boolean' || deal.hasInteraction === value,
  openedAfterRelative: (value, deal, env) => matchesRelative(value, undefined, timestamp(deal.openedAt), env.now),
  openedBeforeRelative: (value, deal, env) => matchesRelative(undefined, value, timestamp(deal.openedAt), env.now),
  ownerEmailIn: (value, deal, env) => matchesOwnerIn(value, deal, env, 'ownerEmail'),
  ownerEmailNotIn: (value, deal) => matchesOwnerNotIn(value, deal, 'ownerEmail'),
  pipelineIdIn: (value, deal) => matchesIn(value, [deal.pipelineId]),
  pipelineIdNotIn: (value, deal) => matchesNotIn(value, [deal.pipelineId]),
  stageIn: (value, deal) => matchesIn(value, [deal.stage]),
  stageNotIn: (value, deal) => matchesNotIn(value, [deal.stage]),
  statusIn: (value, deal) => matchesIn(value, [deal.status]),
  statusNotIn: (value, deal) => matchesNotIn(value, [deal.status]),
  typeIn: (value, deal) => matchesIn(value, [deal.type]),
  typeNotIn: (value, deal) => matchesNotIn(value, [deal.type]),
  userGroupIn: (value, deal, env) => matchesIn(value, ownerGroups(deal, env)),
  userGroupNotIn: (value, deal, env) => matchesNotIn(value, ownerGroups(deal, env)),
};

/** matchesDealFilters tells whether a deal passes every set attribute of deal view filters. */
export function matchesDealFilters(filters: JsonRecord, deal: StoredDeal, env: FilterEnv): boolean {
  for (const [attribute, value] of Object.entries(filters)) {
    const predicate = ownValue(DEAL_FILTERS, attribute);
    if (predicate !== undefined && value !== undefined && value !== null && !predicate(value, deal, env)) return false;
  }
  return true;
}

function ownerGroups(deal: StoredDeal, env: FilterEnv): string[] {
  const email = deal.ownerEmail.toLowerCase();
  const owner = [...env.usersById.values()].find((user) => user.email.toLowerCase() === email);
  return groupIdsOf(env.groupsOf, owner?.id);
}

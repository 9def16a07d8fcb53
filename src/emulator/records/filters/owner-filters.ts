import type { StoredDeal } from '../types.js';
import type { FilterEnv } from './env.js';
import { isJsonObject } from '../../../domain/api-types.js';

/** isMe tells whether a filter entry is the `Me` entry (an object `{type: 'Me'}`). */
export function isMe(entry: unknown): boolean {
  return isJsonObject(entry) && entry.type === 'Me';
}

/**
 * matchesOwnerIn evaluates a deal owner include list. Deal owner filters hold owner names (or emails for deal views); rule 7 lets them
 * also hold the `Me` entry, which includes every workspace member's deals.
 */
export function matchesOwnerIn(
  value: unknown,
  deal: StoredDeal | undefined,
  env: FilterEnv,
  key: 'ownerName' | 'ownerEmail',
): boolean {
  if (!Array.isArray(value) || value.length === 0) return true;
  if (deal === undefined) return false;
  return value.some((entry) =>
    isMe(entry)
      ? env.memberEmails.has(deal.ownerEmail.toLowerCase())
      : typeof entry === 'string' && sameOwner(entry, deal[key], key),
  );
}

/** matchesOwnerNotIn is the exclude half of matchesOwnerIn; excluding `Me` matches nothing. */
export function matchesOwnerNotIn(
  value: unknown,
  deal: StoredDeal | undefined,
  key: 'ownerName' | 'ownerEmail',
): boolean {
  if (!Array.isArray(value)) return true;
  if (value.some(isMe)) return false;
  if (deal === undefined) return true;
  return !value.some((entry) => typeof entry === 'string' && sameOwner(entry, deal[key], key));
}

function sameOwner(entry: string, actual: string, key: 'ownerName' | 'ownerEmail'): boolean {
  // Emails compare case-insensitively as addresses do; names are shown as typed.
  return key === 'ownerEmail' ? entry.toLowerCase() === actual.toLowerCase() : entry === actual;
}

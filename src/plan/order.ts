import { DOMAINS } from '../domain/domains.js';
import { compareCodePoints } from '../kinds/canonical.js';
import { ACTIONS, type Change } from './types.js';

/**
 * compareChanges orders a plan: creates, updates, deletes, pins, drift; within an
 * action by domain (in DOMAINS order), then name, then id or user, so equal inputs
 * always give byte-equal plans.
 */
export function compareChanges(a: Change, b: Change): number {
  return ACTIONS.indexOf(a.action) - ACTIONS.indexOf(b.action)
    || domainRank(a) - domainRank(b)
    || compareCodePoints(a.name, b.name)
    || compareCodePoints(tieBreaker(a), tieBreaker(b));
}

function domainRank(change: Change): number {
  return change.action === 'drift' ? -1 : DOMAINS.indexOf(change.domain);
}

function tieBreaker(change: Change): string {
  return change.action === 'create' ? change.target : change.action === 'pin' ? change.userEmail : change.id ?? '';
}

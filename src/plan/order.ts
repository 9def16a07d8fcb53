import { DOMAINS } from '../domain/domains.js';
import { compareCodePoints } from '../kinds/canonical.js';
import { actionNames, kindOf } from '../kinds/kinds.js';
import type { Change } from './types.js';

/**
 * compareChanges orders a plan: by action in the order the registry lists them
 * (creates, updates, deletes, pins, drift); within an action by domain (in DOMAINS
 * order, changes of no domain first), then name, then what the kind orders by (a new
 * view's target, an id, a user), so equal inputs always give byte-equal plans.
 */
export function compareChanges(a: Change, b: Change): number {
  const actions = actionNames();
  return (
    actions.indexOf(a.action) - actions.indexOf(b.action) ||
    domainRank(a) - domainRank(b) ||
    compareCodePoints(a.name, b.name) ||
    compareCodePoints(sortKey(a), sortKey(b))
  );
}

/** sortKey is what `change`'s kind orders it by (`Kind.sortKey`), or its target, which names it uniquely. */
function sortKey(change: Change): string {
  return kindOf(change).sortKey?.(change) ?? change.target;
}

function domainRank(change: Change): number {
  return 'domain' in change ? DOMAINS.indexOf(change.domain) : -1;
}

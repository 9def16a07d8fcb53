import { isDomain, type Domain } from './domains.js';

/**
 * Change targets are stable string keys of what a change acts on; `Plan.liveHashes`
 * is keyed by them, and `apply --plan` re-reads and re-hashes each one.
 */

/** viewTarget is the target of an existing view. */
export function viewTarget(domain: Domain, id: string): string {
  return `view:${domain}:id:${id}`;
}

/** newViewTarget is the target of a view to create: its name within the domain, absent live. */
export function newViewTarget(domain: Domain, name: string): string {
  return `view:${domain}:name:${name}`;
}

/** pinsKey is the key of a pinned list in `Live.pins` and of a pin change's target. */
export function pinsKey(domain: Domain, userEmail: string): string {
  return `${domain}:${userEmail.toLowerCase()}`;
}

/** pinsTarget is the target of one user's pinned list in one domain. */
export function pinsTarget(domain: Domain, userEmail: string): string {
  return `pins:${pinsKey(domain, userEmail)}`;
}

/** AUTOMATIONS_TARGET is the target of every drift change: the list of admin automations. */
export const AUTOMATIONS_TARGET = 'automations';

type ParsedTarget =
  | { type: 'view'; domain: Domain; id: string }
  | { type: 'new-view'; domain: Domain; name: string }
  | { type: 'pins'; domain: Domain; userEmail: string }
  | { type: 'automations' };

/** parseTarget takes a target apart; undefined when it is not one this build writes. */
export function parseTarget(target: string): ParsedTarget | undefined {
  if (target === AUTOMATIONS_TARGET) return { type: 'automations' };
  const view = /^view:([a-z]+):(id|name):(.+)$/s.exec(target);
  if (view !== null) {
    const [, domain = '', how, rest = ''] = view;
    if (!isDomain(domain)) return undefined;
    return how === 'id' ? { type: 'view', domain, id: rest } : { type: 'new-view', domain, name: rest };
  }
  const pins = /^pins:([a-z]+):(.+)$/s.exec(target);
  if (pins !== null) {
    const [, domain = '', userEmail = ''] = pins;
    if (isDomain(domain)) return { type: 'pins', domain, userEmail };
  }
  return undefined;
}

import { DOMAINS, type Domain } from '../domain/domains.js';
import { formatPosition, type SourcePosition } from '../domain/source-position.js';
import { ServiceError, ViewctlError } from '../errors.js';
import { ROUTES } from '../service/routes.js';
import type { LiveRead } from './live-read.js';
import { pinsKey } from './types.js';

/**
 * The reads of the built-in kinds' live state, as data (`LiveRead`): each names a
 * request of the route table and the key of `Live` its answer goes under. The kinds
 * say which of them they need; `viewctl export` reads them all.
 */

/** listingRead is a domain's listing (public saved views, then built-in defaults), stored as `live.views[domain]`. */
export function listingRead(domain: Domain): LiveRead {
  return { request: ROUTES.listViews(domain), into: 'views', entry: domain };
}

/** listingReads are the listings of the domains `documents` name, once each, in the order of DOMAINS. */
export function listingReads(documents: readonly { domain: Domain }[]): LiveRead[] {
  const used = new Set(documents.map((document) => document.domain));
  return DOMAINS.filter((domain) => used.has(domain)).map(listingRead);
}

/**
 * pinnedRead is one user's tabs in one domain, in tab order, stored as
 * `live.pins[pinsKey(domain, userEmail)]`; a user the service refuses is reported at
 * `source`, the manifest that names them.
 */
export function pinnedRead(domain: Domain, userEmail: string, source?: SourcePosition): LiveRead {
  return {
    request: ROUTES.getPinned(domain, userEmail),
    into: 'pins',
    entry: pinsKey(domain, userEmail),
    explain: (error) => inactiveUser(error, userEmail, source),
  };
}

/** automationsRead is the admin automations, in priority order, stored as `live.automations`. */
export function automationsRead(): LiveRead {
  return { request: ROUTES.automations(), into: 'automations' };
}

/**
 * inactiveUser turns the service's refusal of a pinned read (`userEmail` is not an
 * active member) into an error at the manifest that names the user.
 */
function inactiveUser(error: unknown, userEmail: string, source: SourcePosition | undefined): ViewctlError | undefined {
  if (!(error instanceof ServiceError) || error.errorType !== 'validation_error' || error.path !== 'userEmail')
    return undefined;
  const where = source === undefined ? '' : `${formatPosition(source)}: `;
  return new ViewctlError(
    'pins.user-not-active',
    `${where}${userEmail} is not an active member of the workspace, so the service refuses to read or set their tabs`,
    {
      hint: 'fix userEmail, or remove the PinnedViews document of a user who left or has not accepted the invitation yet',
      cause: error,
    },
  );
}

import { describe, expect, it } from 'vitest';
import type { DesiredPinGroup } from '../../src/domain/desired.js';
import { pinReads, readNeeds } from '../../src/state/needs.js';
import { at, declared, emptyDesired, pinsOf } from '../plan/fixtures.js';

function group(domain: DesiredPinGroup['domain']): DesiredPinGroup {
  return { group: { name: 'sales', source: at('pins/sales.yaml') }, users: [{ pattern: '*@acme.com', isGlob: true, source: at('pins/sales.yaml', 3) }], roles: [], domain, refs: [{ name: 'All companies' }], unpinPrivate: false, source: at('pins/sales.yaml'), refSources: [at('pins/sales.yaml', 5)] };
}

describe('readNeeds', () => {
  it('reads nothing but the workspace for manifests that declare nothing', () => {
    expect(readNeeds(emptyDesired())).toEqual({ domains: [], pins: [], automations: false });
  });

  it('reads the listing of a domain only a group pin document uses, but no pinned list until the group is expanded', () => {
    const desired = { ...emptyDesired(), views: [declared('contacts', 'Buyers')], pinGroups: [group('companies')] };
    expect(readNeeds(desired)).toEqual({ domains: ['companies', 'contacts'], pins: [], automations: false });
  });

  it('lists the domains in the fixed domain order, whatever order the manifests name them in', () => {
    const desired = { ...emptyDesired(), views: [declared('contacts', 'B'), declared('recordings', 'A'), declared('deals', 'C')] };
    expect(readNeeds(desired).domains).toEqual(['recordings', 'deals', 'contacts']);
  });
});

describe('pinReads', () => {
  it('reads each user and domain once, emails compared without case, keeping the first position for errors', () => {
    const first = pinsOf('Mia@acme.com', 'deals', [{ name: 'All deals' }]);
    const again = pinsOf('mia@ACME.com', 'deals', [{ name: 'Closing' }], { source: at('pins/other.yaml', 9) });
    const otherDomain = pinsOf('mia@acme.com', 'recordings', [{ name: 'Calls' }]);
    expect(pinReads([first, again, otherDomain])).toEqual([
      { domain: 'deals', userEmail: 'Mia@acme.com', source: first.source },
      { domain: 'recordings', userEmail: 'mia@acme.com', source: otherDomain.source },
    ]);
  });
});

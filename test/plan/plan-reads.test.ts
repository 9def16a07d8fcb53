import { describe, expect, it } from 'vitest';
import type { DesiredPinGroup } from '../../src/domain/desired.js';
import { planReads } from '../../src/plan/plan-reads.js';
import type { LiveRead } from '../../src/state/live-read.js';
import { at, declared, emptyDesired, pinsOf } from './fixtures.js';

/** What a plan reads first, as the kinds say: each read as data, `route into[entry]`. */

function group(domain: DesiredPinGroup['domain']): DesiredPinGroup {
  return {
    group: { name: 'sales', source: at('pins/sales.yaml') },
    users: [{ pattern: '*@acme.com', isGlob: true, source: at('pins/sales.yaml', 3) }],
    roles: [],
    domain,
    refs: [{ name: 'All companies' }],
    unpinPrivate: false,
    source: at('pins/sales.yaml'),
    refSources: [at('pins/sales.yaml', 5)],
  };
}

const shown = (reads: readonly LiveRead[]): string[] =>
  reads.map((read) => `${read.request.route} ${read.into}${read.entry === undefined ? '' : `[${read.entry}]`}`);

describe('planReads', () => {
  it('reads nothing but the workspace for manifests that declare nothing', () => {
    expect(planReads(emptyDesired())).toEqual([]);
  });

  it('reads the listing of a domain only a pin document uses, but no pinned list: those come once the documents are expanded', () => {
    const desired = {
      ...emptyDesired(),
      views: [declared('contacts', 'Buyers')],
      pins: [pinsOf('mia@acme.com', 'contacts', [{ name: 'Buyers' }])],
      pinGroups: [group('companies')],
    };
    expect(shown(planReads(desired))).toEqual([
      '/v1/contacts/views views[contacts]',
      '/v1/companies/views views[companies]',
    ]);
  });

  it('reads each view domain once, in the fixed domain order whatever order the manifests name them in, and the automations when declared', () => {
    const desired = {
      ...emptyDesired(),
      views: [
        declared('contacts', 'B'),
        declared('recordings', 'A'),
        declared('deals', 'C'),
        declared('recordings', 'D'),
      ],
      automations: { automations: [], source: at('a.yaml') },
    };
    expect(shown(planReads(desired))).toEqual([
      '/v1/recordings/views views[recordings]',
      '/v1/deals/views views[deals]',
      '/v1/contacts/views views[contacts]',
      '/v1/admin-automations automations',
    ]);
  });
});

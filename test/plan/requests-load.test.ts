import { describe, expect, it } from 'vitest';
import { applyLoad, applySeconds } from '../../src/plan/requests.js';
import type { Change } from '../../src/plan/types.js';
import { handPlan, snapshot } from '../apply/plan-fixtures.js';

/** The requests apply announces (plan's "Requests") and its time estimate, from the changes alone. */

const create = (name: string): Change => ({
  action: 'create',
  target: `view:recordings:name:${name}`,
  kind: 'RecordingView',
  name,
  domain: 'recordings',
  before: null,
  after: snapshot(name),
});
const update: Change = {
  action: 'update',
  target: 'view:deals:id:dv_1',
  kind: 'DealView',
  name: 'Pipeline',
  domain: 'deals',
  id: 'dv_1',
  before: snapshot('Pipeline'),
  after: snapshot('Pipeline', { icon: 'star' }),
  patch: [],
};
const pin: Change = {
  action: 'pin',
  target: 'pins:companies:mia@acme.test',
  kind: 'PinnedViews',
  name: 'mia',
  domain: 'companies',
  userEmail: 'mia@acme.test',
  before: [],
  after: [{ viewId: 'cv_1', name: 'Key accounts', visibility: 'Public', isDefault: false }],
};
const drift: Change = {
  action: 'drift',
  target: 'automation:Tag calls',
  kind: 'AdminAutomation',
  name: 'Tag calls',
  before: null,
  after: { name: 'Tag calls' },
  differences: [{ pointer: '', expected: 'Tag calls' }],
};

describe('applyLoad', () => {
  it('counts one write per change and one verifying list per view domain written, never for pins or drift', () => {
    const load = applyLoad(handPlan([create('A'), create('B'), update, pin, drift]));
    expect(load).toEqual({
      total: 6,
      writes: 4,
      verificationReads: 2,
      perEndpoint: new Map([
        ['POST /v1/recordings/views', 2],
        ['PATCH /v1/deals/views/{viewId}', 1],
        ['PUT /v1/companies/views/pinned', 1],
        ['GET /v1/recordings/views', 1],
        ['GET /v1/deals/views', 1],
      ]),
    });
  });

  it('is nothing at all for a plan of drift only', () => {
    expect(applyLoad(handPlan([drift]))).toEqual({ total: 0, writes: 0, verificationReads: 0, perEndpoint: new Map() });
  });
});

describe('applySeconds', () => {
  it('is set by the busiest endpoint, since endpoints run side by side', () => {
    const plan = handPlan([create('A'), create('B'), create('C'), update, pin]);
    expect(applySeconds(plan, 3)).toBe(1);
    expect(applySeconds(plan, 1.5)).toBe(2);
  });

  it('is 0 for a rate of 0 rather than infinite', () => {
    expect(applySeconds(handPlan([create('A')]), 0)).toBe(0);
  });
});

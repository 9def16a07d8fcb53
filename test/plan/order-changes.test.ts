import { describe, expect, it } from 'vitest';
import { compareChanges } from '../../src/plan/order.js';
import type { Change } from '../../src/plan/types.js';
import { snapshot } from '../apply/plan-fixtures.js';

/** The order a plan lists its changes in, so equal inputs always give byte-equal plans. */

const create = (domain: 'recordings' | 'deals', name: string): Change => ({
  action: 'create',
  target: `view:${domain}:name:${name}`,
  kind: domain === 'deals' ? 'DealView' : 'RecordingView',
  name,
  domain,
  before: null,
  after: snapshot(name),
});
const remove = (id: string, name: string): Change => ({
  action: 'delete',
  target: `view:deals:id:${id}`,
  kind: 'DealView',
  name,
  domain: 'deals',
  id,
  before: snapshot(name),
  after: null,
  reason: 'prune',
  ownerId: 'u',
  pinnedBy: [],
});
const pin = (userEmail: string): Change => ({
  action: 'pin',
  target: `pins:recordings:${userEmail}`,
  kind: 'PinnedViews',
  name: 'Pins',
  domain: 'recordings',
  userEmail,
  before: [],
  after: [],
});
const drift: Change = {
  action: 'drift',
  target: 'automation:Tag',
  kind: 'AdminAutomation',
  name: 'Tag',
  before: null,
  after: { name: 'Tag' },
  differences: [],
};

describe('compareChanges', () => {
  it('orders by action, then domain in the fixed order, then name by code point, then id or user', () => {
    const ordered = [
      create('recordings', 'Zoom'),
      create('deals', 'Alpha'),
      create('deals', 'beta'),
      create('deals', 'Ärger'),
      remove('dv_1', 'Old'),
      remove('dv_2', 'Old'),
      pin('ann@acme.test'),
      pin('bob@acme.test'),
      drift,
    ];
    const shuffled = [
      ordered[8],
      ordered[5],
      ordered[2],
      ordered[7],
      ordered[0],
      ordered[4],
      ordered[3],
      ordered[6],
      ordered[1],
    ] as Change[];
    expect([...shuffled].sort(compareChanges).map((change) => change.target)).toEqual(
      ordered.map((change) => change.target),
    );
  });

  it('calls two changes equal only when they are the same target', () => {
    expect(compareChanges(remove('dv_1', 'Old'), remove('dv_1', 'Old'))).toBe(0);
    expect(compareChanges(remove('dv_1', 'Old'), remove('dv_2', 'Old'))).toBeLessThan(0);
    expect(compareChanges(pin('bob@acme.test'), pin('ann@acme.test'))).toBeGreaterThan(0);
  });
});

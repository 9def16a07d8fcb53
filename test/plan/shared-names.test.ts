import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import { declared, emptyDesired, emptyLive, view } from './fixtures.js';

describe('views that share a name in the service', () => {
  it('are managed one by one when each manifest binds its viewId: no ambiguity error', () => {
    const live = emptyLive();
    live.views.recordings?.push(view('rv_1', 'Customer calls'), view('rv_2', 'Customer calls'));
    const desired = emptyDesired();
    desired.views.push(
      declared('recordings', 'Customer calls', { icon: 'phone' }, { viewId: 'rv_1' }),
      declared('recordings', 'Customer calls', {}, { viewId: 'rv_2' }),
    );
    const { plan } = computePlan(desired, live);
    expect(plan.changes.map((change) => [change.action, 'id' in change ? change.id : undefined])).toEqual([
      ['update', 'rv_1'],
    ]);
  });

  it('are refused as ambiguous when a manifest names them without viewId', () => {
    const live = emptyLive();
    live.views.recordings?.push(view('rv_1', 'Customer calls'), view('rv_2', 'Customer calls'));
    const desired = emptyDesired();
    desired.views.push(declared('recordings', 'Customer calls', { icon: 'phone' }));
    expect(() => computePlan(desired, live)).toThrow(expect.objectContaining({ code: 'view.ambiguous-name' }));
  });
});

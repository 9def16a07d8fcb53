import { describe, expect, it } from 'vitest';
import { stepOf } from '../../src/kinds/kind.js';

/** A plan step is a write the plan schema allows: a read handed to `stepOf` is viewctl's own fault, never written to a plan. */

describe('stepOf', () => {
  it('stores a write as the plan schema says a step', () => {
    expect(stepOf(2, { method: 'DELETE', route: '/v1/deals/views/{viewId}', params: { viewId: 'dv_1' } })).toEqual({
      change: 2,
      method: 'DELETE',
      route: '/v1/deals/views/{viewId}',
      params: { viewId: 'dv_1' },
      query: {},
    });
  });

  it('refuses a read, which the plan schema has no step for', () => {
    expect(() => stepOf(0, { method: 'GET', route: '/v1/deals/views' })).toThrow(
      /a plan step must write, not read: GET \/v1\/deals\/views/,
    );
  });
});

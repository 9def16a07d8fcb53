import { describe, expect, it } from 'vitest';
import { pinsValue } from '../../src/plan/desired-values.js';
import { at, pinsOf } from './fixtures.js';

/**
 * What a pinned list asks for, compared between two states of the manifests (scoped
 * plans): equal exactly when the request is, wherever it is written.
 */

describe('pinsValue', () => {
  it('ignores positions, and sees the order of the tabs and unpinPrivate', () => {
    const list = pinsOf('mia@acme.com', 'deals', [{ name: 'A' }, { viewId: 'dv_2' }]);
    expect(
      pinsValue({ ...list, source: at('elsewhere.yaml', 9), refSources: [at('x.yaml', 1), at('x.yaml', 2)] }),
    ).toBe(pinsValue(list));
    expect(pinsValue({ ...list, refs: [{ viewId: 'dv_2' }, { name: 'A' }] })).not.toBe(pinsValue(list));
    expect(pinsValue({ ...list, unpinPrivate: true })).not.toBe(pinsValue(list));
  });
});

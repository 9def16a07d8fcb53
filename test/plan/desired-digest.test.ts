import { describe, expect, it } from 'vitest';
import { desiredDigest } from '../../src/plan/desired-digest.js';
import { declared, emptyDesired } from './fixtures.js';

/** The digest the sweep memory records of a desired state, and self-heal compares. */

describe('desiredDigest', () => {
  it('is the same for the same content read from another folder or in another order', () => {
    const a = emptyDesired();
    a.views = [declared('recordings', 'Calls'), declared('deals', 'Pipeline')];
    const b = structuredClone(a);
    b.views.reverse();
    for (const view of b.views) view.source = { file: `elsewhere/${view.source.file}`, line: 9, column: 3 };
    expect(desiredDigest(b)).toBe(desiredDigest(a));
  });

  it('differs when any declared value differs, a view attribute named like a position included', () => {
    const a = emptyDesired();
    a.views = [declared('recordings', 'Calls')];
    const renamed = structuredClone(a);
    const [view] = renamed.views;
    if (view === undefined) throw new Error('no view');
    view.name = 'Calls (renamed)';
    expect(desiredDigest(renamed)).not.toBe(desiredDigest(a));
    // A view's attributes are data, whatever their keys: never taken for a position.
    const withFilter = (line: number) => {
      const copy = structuredClone(a);
      const [view] = copy.views;
      if (view === undefined) throw new Error('no view');
      (view.managed as Record<string, unknown>).filters = { source: { file: 'x', line, column: 1 } };
      return desiredDigest(copy);
    };
    expect(withFilter(1)).not.toBe(withFilter(2));
    const pruned = structuredClone(a);
    pruned.workspace.prune = true;
    expect(desiredDigest(pruned)).not.toBe(desiredDigest(a));
  });
});

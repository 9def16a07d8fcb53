import { describe, expect, it } from 'vitest';
import { ADMIN_AUTOMATIONS } from '../../src/kinds/admin-automations.js';
import {
  describeChange,
  driftLabels,
  hasDriftLabels,
  hasManifests,
  hasPresentation,
  hasRepairs,
  hasSavedPlanChecks,
  hasSweepMemoryAnswers,
  heldDependency,
  presentation,
  repairs,
  savedPlanChecks,
  staleWhy,
  sweepMemoryAnswers,
} from '../../src/kinds/capabilities.js';
import type { DeleteChange } from '../../src/kinds/changes.js';
import type { Kind } from '../../src/kinds/kind.js';
import { PINNED_VIEWS } from '../../src/kinds/pinned-views.js';
import { SAVED_VIEWS } from '../../src/kinds/saved-views.js';
import { emptyLive } from '../plan/fixtures.js';

/**
 * A kind is a core plus the capabilities it implements: the type guards find them, and
 * a kind that lacks one gets the default that is safe for it.
 */

/** CORE_ONLY answers the core and nothing else: what a new kind must write at least. */
const CORE_ONLY: Kind = {
  actions: [{ action: 'core-only', schema: {}, phase: 60, verb: 'core' }],
  planReads: () => [],
  diff: () => ({ changes: [], reasons: [], warnings: [] }),
  reads: () => ({ reads: [] }),
  steps: () => [],
  hashed: () => undefined,
  execute: () => Promise.resolve({}),
  verifyReads: () => [],
  verify: () => undefined,
  target: (change) => change.target,
  recheck: () => [],
};

const remove: DeleteChange = {
  action: 'delete',
  target: 'view:recordings:rv_1',
  kind: 'RecordingView',
  domain: 'recordings',
  name: 'Calls',
  id: 'rv_1',
  before: { name: 'Calls', icon: null, columns: [], filters: {}, sort: [] },
  after: null,
  ownerId: 'u_1',
  pinnedBy: [],
} as unknown as DeleteChange;

describe('the capabilities of a kind', () => {
  it('are found on the built-in kinds as each implements them', () => {
    const found = (kind: Kind) =>
      [
        hasSavedPlanChecks(kind) && 'saved-plan',
        hasDriftLabels(kind) && 'drift',
        hasSweepMemoryAnswers(kind) && 'memory',
        hasRepairs(kind) && 'repair',
        hasPresentation(kind) && 'presentation',
        hasManifests(kind) && 'manifests',
      ].filter(Boolean);
    expect(found(SAVED_VIEWS as Kind)).toEqual(['saved-plan', 'drift', 'memory', 'repair', 'presentation']);
    expect(found(PINNED_VIEWS as Kind)).toEqual(['saved-plan', 'drift', 'memory', 'repair', 'presentation']);
    expect(found(ADMIN_AUTOMATIONS as Kind)).toEqual(['saved-plan', 'drift', 'repair', 'presentation']);
    expect(found(CORE_ONLY)).toEqual([]);
  });

  it('default, for a kind that lacks them, to what is safe: never already applied, never made in the app, nothing remembered, nothing repaired', () => {
    const live = emptyLive();
    // A saved plan's change is never taken as landed: its moved target is stale, and apply holds it.
    expect(savedPlanChecks(CORE_ONLY).alreadyLive(remove, live)).toBeUndefined();
    // A stale target is said to be not as planned; a kind that cannot tell what its change
    // depends on waits with the first held change, never written on the strength of one not made.
    expect(staleWhy(CORE_ONLY, remove, live)).toBe('it is not as the plan expected');
    expect(heldDependency(CORE_ONLY, remove, [])).toBeUndefined();
    const held = { ...remove, id: 'rv_2', target: 'view:recordings:id:rv_2' };
    expect(heldDependency(CORE_ONLY, remove, [held])).toEqual({
      change: held,
      why: 'its kind (RecordingView) cannot tell which held change it depends on',
    });
    expect(savedPlanChecks(CORE_ONLY).identityProblems(remove, undefined)).toEqual([]);
    // Nothing is labelled as changed outside viewctl.
    expect(
      driftLabels(CORE_ONLY)
        .askedAlike(live as never, live)
        .test(remove),
    ).toBe(false);
    expect(sweepMemoryAnswers(CORE_ONLY).remember(remove, { name: 'Calls' }, new Map())).toEqual({});
    expect(sweepMemoryAnswers(CORE_ONLY).driftWhen(remove, live, undefined)).toEqual({});
    expect(sweepMemoryAnswers(CORE_ONLY).memberList).toBeUndefined();
    // Self-heal leaves what it was not told it may repair for a reviewed apply.
    expect(repairs(CORE_ONLY).repair(remove)).toEqual({
      repairable: false,
      noun: { one: 'RecordingView change', many: 'RecordingView changes' },
    });
    expect(presentation(CORE_ONLY).subject(remove)).toEqual({ name: 'Calls', id: 'rv_1' });
    expect(describeChange(CORE_ONLY, remove)).toBe('delete RecordingView "Calls" (rv_1)');
  });

  it("are the kind's own where it implements them", () => {
    expect(repairs(SAVED_VIEWS as Kind).repair(remove).repairable).toBe(false);
    expect(repairs(SAVED_VIEWS as Kind).repair(remove).noun.one).not.toBe('RecordingView change');
    expect(
      describeChange(PINNED_VIEWS as Kind, { ...remove, action: 'pin', domain: 'deals', userEmail: 'a@x' } as never),
    ).toBe('pinned deals tabs of a@x');
  });
});

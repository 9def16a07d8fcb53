import { describe, expect, it } from 'vitest';
import type { DesiredPinGroup } from '../../src/domain/desired.js';
import { changedOutside } from '../../src/plan/outside.js';
import type { Change } from '../../src/plan/types.js';
import { at, declared, emptyDesired, emptyLive, pinsOf } from './fixtures.js';

/**
 * changedOutside (outside.ts) on creates, updates of bound views and pinned lists:
 * test/plan/scope.test.ts covers updates by name, prune deletes and drift.
 */

const create = (name: string): Change => ({ action: 'create', domain: 'recordings', name, after: { name } }) as unknown as Change;
const update = (id: string, name: string): Change => ({ action: 'update', domain: 'recordings', id, name, after: { name } }) as unknown as Change;
const pin = (email: string): Change => ({ action: 'pin', target: `pins:recordings:${email}` }) as unknown as Change;

describe('changedOutside: views', () => {
  it('labels a create when REF declared the same view (someone deleted it in the app), not when the manifest is new or asks otherwise', () => {
    const base = { ...emptyDesired(), views: [declared('recordings', 'Calls', { icon: 'telephone' }), declared('recordings', 'Demos', { icon: 'tv' })] };
    const now = { ...emptyDesired(), views: [declared('recordings', 'Calls', { icon: 'telephone' }, { source: at('moved.yaml', 9) }), declared('recordings', 'Demos', { icon: 'movie_camera' }), declared('recordings', 'New')] };
    const outside = changedOutside(base, now);
    expect([create('Calls'), create('Demos'), create('New')].map(outside)).toEqual([true, false, false]);
  });

  it('finds the manifest of an update by the id it binds, not by the name', () => {
    const bound = declared('recordings', 'Calls', { icon: 'telephone' }, { viewId: 'rv_1' });
    const outside = changedOutside({ ...emptyDesired(), views: [bound] }, { ...emptyDesired(), views: [bound] });
    expect(outside(update('rv_1', 'Calls'))).toBe(true);
    expect(outside(update('rv_2', 'Calls'))).toBe(false);
  });
});

describe('changedOutside: pinned lists', () => {
  const mia = pinsOf('mia@acme.com', 'recordings', [{ name: 'Calls' }, { name: 'Demos' }]);

  it('labels a member\'s list when REF asked the same list of them, not when it changed or is new', () => {
    const base = { ...emptyDesired(), pins: [mia] };
    const now = { ...emptyDesired(), pins: [{ ...mia, source: at('pins/moved.yaml', 4) }, pinsOf('max@acme.com', 'recordings', [{ name: 'Calls' }])] };
    expect([pin('mia@acme.com'), pin('max@acme.com')].map(changedOutside(base, now))).toEqual([true, false]);
    const reordered = { ...emptyDesired(), pins: [{ ...mia, refs: [{ name: 'Demos' }, { name: 'Calls' }] }] };
    expect(changedOutside(base, reordered)(pin('mia@acme.com'))).toBe(false);
  });

  it('compares the list a group document gives each member, expanded with the users read', () => {
    const group = (refs: { name: string }[], file: string): DesiredPinGroup => ({
      group: { name: 'Sales', source: at(file) }, users: [{ pattern: 'm*@acme.com', isGlob: true, source: at(file, 3) }], roles: [],
      domain: 'recordings', refs, unpinPrivate: false, source: at(file, 5), refSources: refs.map((_, index) => at(file, 6 + index)),
    });
    const users = emptyLive().users;
    const base = { ...emptyDesired(), pinGroups: [group([{ name: 'Calls' }], 'pins/sales.yaml')] };
    const moved = { ...emptyDesired(), pinGroups: [group([{ name: 'Calls' }], 'pins/team.yaml')] };
    expect([pin('mia@acme.com'), pin('max@acme.com'), pin('zoe@acme.com')].map(changedOutside(base, moved, users))).toEqual([true, true, false]);
    const changed = { ...emptyDesired(), pinGroups: [group([{ name: 'Demos' }], 'pins/sales.yaml')] };
    expect(changedOutside(base, changed, users)(pin('mia@acme.com'))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { automationsValue, declaresView, pinsValue, pruneValue, viewIdentity, viewValue } from '../../src/plan/desired-values.js';
import { at, declared, emptyDesired, pinsOf } from './fixtures.js';

/**
 * What a manifest asks for, compared between two states of the manifests (scoped plans,
 * "changed outside viewctl"): equal exactly when the request is, wherever it is written.
 */

describe('viewValue and viewIdentity', () => {
  it('ignore where a view is written and the key order of its attributes, but not what it asks', () => {
    const here = declared('deals', 'Pipeline', { icon: 'star', filters: { statusIn: ['Open'] } });
    const moved = declared('deals', 'Pipeline', { filters: { statusIn: ['Open'] }, icon: 'star' }, { source: at('other.yaml', 40, 3) });
    expect(viewValue(moved)).toBe(viewValue(here));
    expect(viewValue(declared('deals', 'Pipeline', { icon: 'star', filters: { statusIn: ['Won'] } }))).not.toBe(viewValue(here));
    expect(viewValue(declared('deals', 'Pipeline', { icon: 'star', filters: { statusIn: ['Open'] } }, { viewId: 'dv_1' }))).not.toBe(viewValue(here));
  });

  it('find a view by its bound id when it has one, so a rename is the same view', () => {
    expect(viewIdentity(declared('deals', 'Old name', {}, { viewId: 'dv_1' }))).toBe(viewIdentity(declared('deals', 'New name', {}, { viewId: 'dv_1' })));
    expect(viewIdentity(declared('deals', 'Pipeline'))).toBe('deals:name:Pipeline');
    expect(viewIdentity(declared('contacts', 'Pipeline'))).not.toBe(viewIdentity(declared('deals', 'Pipeline')));
  });
});

describe('pinsValue', () => {
  it('ignores positions, and sees the order of the tabs and unpinPrivate', () => {
    const list = pinsOf('mia@acme.com', 'deals', [{ name: 'A' }, { viewId: 'dv_2' }]);
    expect(pinsValue({ ...list, source: at('elsewhere.yaml', 9), refSources: [at('x.yaml', 1), at('x.yaml', 2)] })).toBe(pinsValue(list));
    expect(pinsValue({ ...list, refs: [{ viewId: 'dv_2' }, { name: 'A' }] })).not.toBe(pinsValue(list));
    expect(pinsValue({ ...list, unpinPrivate: true })).not.toBe(pinsValue(list));
  });
});

describe('pruneValue and automationsValue', () => {
  it('compare prune and its ignore list, and the automations without their positions', () => {
    expect(pruneValue(emptyDesired({ prune: true, ignore: ['Scratch *'] }))).not.toBe(pruneValue(emptyDesired({ prune: true })));
    expect(pruneValue(emptyDesired({ prune: false }))).toBe(pruneValue(emptyDesired({ prune: false, source: at('moved.yaml', 7) })));
    expect(automationsValue(emptyDesired())).toBeNull();
    const automations = (line: number, color: string) => ({ ...emptyDesired(), automations: { source: at('a.yaml', line), automations: [{ name: 'Tag', color, source: at('a.yaml', line + 1) }] } });
    expect(automationsValue(automations(1, 'blue'))).toBe(automationsValue(automations(20, 'blue')));
    expect(automationsValue(automations(1, 'blue'))).not.toBe(automationsValue(automations(1, 'green')));
  });
});

describe('declaresView', () => {
  it('is true for a view of the domain declared by name or bound to the id, and only in that domain', () => {
    const desired = { ...emptyDesired(), views: [declared('deals', 'Pipeline'), declared('deals', 'Renamed', {}, { viewId: 'dv_9' })] };
    expect(declaresView(desired, 'deals', 'Pipeline', undefined)).toBe(true);
    expect(declaresView(desired, 'deals', 'Old name', 'dv_9')).toBe(true);
    expect(declaresView(desired, 'deals', 'Old name', 'dv_8')).toBe(false);
    expect(declaresView(desired, 'contacts', 'Pipeline', undefined)).toBe(false);
  });
});

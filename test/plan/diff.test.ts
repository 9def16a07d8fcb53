import { describe, expect, it } from 'vitest';
import { warningText } from '../../src/render/warning-lines.js';
import { InternalError } from '../../src/errors.js';
import { computePlan } from '../../src/plan/diff.js';
import { planDigest } from '../../src/plan/hash.js';
import { createsViews } from '../../src/kinds/view-identity.js';
import { PlanRefusedError } from '../../src/plan/refusal.js';
import type { Desired, Live } from '../../src/state/types.js';
import { pinsKey } from '../../src/state/types.js';
import {
  RECORDING_DEFAULTS,
  at,
  automation,
  declared,
  emptyDesired,
  emptyLive,
  mixedScenario,
  pinsOf,
  privateView,
  user,
  view,
} from './fixtures.js';

function refusal(desired: Desired, live: Live): PlanRefusedError {
  try {
    computePlan(desired, live);
  } catch (error) {
    if (error instanceof PlanRefusedError) return error;
    throw error;
  }
  throw new Error('expected the plan to be refused');
}

const codes = (desired: Desired, live: Live): string[] => refusal(desired, live).reasons.map((reason) => reason.code);

describe('computePlan: identity of views', () => {
  it('creates, updates, skips equal views and orders changes', () => {
    const { desired, live } = mixedScenario();
    const { plan } = computePlan(desired, live);
    expect(plan.changes.map((change) => `${change.action}:${change.name}`)).toEqual([
      'create:Team calls',
      'update:Zoom and Meet calls',
      'delete:Old pipeline',
      'pin:mia@acme.com',
      'drift:Record external meetings',
    ]);
    expect(plan.summary).toEqual({ create: 1, update: 1, delete: 1, pin: 1, drift: 1 });
    expect(plan.creatorEmail).toBe('ops@acme.com');
  });

  it('is deterministic: the same inputs give the same plan and digest', () => {
    const first = computePlan(mixedScenario().desired, mixedScenario().live).plan;
    const second = computePlan(mixedScenario().desired, mixedScenario().live).plan;
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  });

  it('binds by viewId, so a rename is an update', () => {
    const live = emptyLive();
    live.views.recordings = [view('rv_1', 'Old name'), ...RECORDING_DEFAULTS];
    const desired = emptyDesired();
    desired.views = [declared('recordings', 'New name', {}, { viewId: 'rv_1' })];
    const [change] = computePlan(desired, live).plan.changes;
    expect(change).toMatchObject({
      action: 'update',
      id: 'rv_1',
      patch: [{ op: 'replace', path: '/name', value: 'New name' }],
    });
  });

  it('ignores set order and response-only attributes (no change)', () => {
    const live = emptyLive();
    live.views.deals = [
      view('dv_1', 'P', {
        filters: { statusIn: ['Won', 'Open'], dealAgeRange: 'OneDay' },
        columns: [{ type: 'Default', columnId: 'a', isHidden: false }],
      }),
    ];
    const desired = emptyDesired();
    desired.views = [
      declared('deals', 'P', {
        filters: { statusIn: ['Open', 'Won', 'Open'] },
        columns: [{ columnId: 'a', type: 'Default' }],
      }),
    ];
    expect(computePlan(desired, live).plan.changes).toEqual([]);
  });

  it('holds a viewId the service reports as not found, never a create, with the pinned lists naming it, and plans the rest', () => {
    const desired = emptyDesired();
    desired.views = [
      declared('recordings', 'Mine', {}, { viewId: 'rv_private_7' }),
      declared('recordings', 'Calls', { icon: 'phone' }, { viewId: 'rv_1' }),
    ];
    desired.pins = [
      pinsOf('mia@acme.com', 'recordings', [{ name: 'Calls' }, { name: 'Mine' }]),
      pinsOf('max@acme.com', 'recordings', [{ viewId: 'rv_private_7' }]),
      pinsOf('ops@acme.com', 'recordings', [{ name: 'Calls' }]),
    ];
    const live = emptyLive();
    live.views.recordings = [view('rv_1', 'Calls'), ...RECORDING_DEFAULTS];
    for (const email of ['mia@acme.com', 'max@acme.com', 'ops@acme.com'])
      live.pins[pinsKey('recordings', email)] = [...RECORDING_DEFAULTS];
    const { plan } = computePlan(desired, live);
    expect(plan.changes.map((change) => change.target)).toEqual([
      'view:recordings:id:rv_1',
      'pins:recordings:ops@acme.com',
    ]);
    expect(plan.held?.map((held) => [held.target, held.code])).toEqual([
      ['pins:recordings:max@acme.com', 'pins.names-held-view'],
      ['pins:recordings:mia@acme.com', 'pins.names-held-view'],
      ['view:recordings:id:rv_private_7', 'view.id-not-found'],
    ]);
    expect(plan.held?.[2]).toMatchObject({ source: desired.views[0]?.source });
    expect(plan.held?.[2]?.reason).toContain('binds to rv_private_7, which the service reports as not found');
    expect(plan.held?.[1]?.reason).toBe(
      'the recordings tabs of mia@acme.com name "Mine", which is held (view:recordings:id:rv_private_7): the list is left as it is',
    );
    expect(plan.held?.[1]?.source).toEqual(desired.pins[0]?.refSources[1]);
    // The digest binds what is held: the same plan without it digests differently.
    expect(plan.digest).not.toBe(planDigest({ ...plan, held: [] }));
  });

  it('leaves `held` out of a plan that holds nothing, so its digest is as before', () => {
    const { desired, live } = mixedScenario();
    expect(computePlan(desired, live).plan).not.toHaveProperty('held');
  });

  it('refuses binding to a default view by id, and declaring a default view name', () => {
    const desired = emptyDesired();
    desired.views = [declared('recordings', 'X', {}, { viewId: 'rv_all' }), declared('recordings', 'My recordings')];
    expect(codes(desired, emptyLive()).sort()).toEqual(['view.default-immutable', 'view.default-name']);
  });

  it('refuses an ambiguous name with every id, oldest first, and the way out: keep the oldest, prune the others', () => {
    const live = emptyLive();
    live.views.recordings = [view('rv_10', 'Dup'), view('rv_9', 'Dup'), view('rv_11', 'Dup'), ...RECORDING_DEFAULTS];
    const desired = emptyDesired();
    desired.views = [declared('recordings', 'Dup')];
    const error = refusal(desired, live);
    expect(error.code).toBe('view.ambiguous-name');
    expect(error.reasons[0]?.ids).toEqual(['rv_9', 'rv_10', 'rv_11']);
    expect(error.hint).toContain('viewId: rv_9');
    expect(error.hint).toContain('the others (rv_10, rv_11) are undeclared');
    expect(error.hint).toContain('prune: true');
  });

  it('lets a viewId settle an ambiguous name', () => {
    const live = emptyLive();
    live.views.recordings = [view('rv_1', 'Dup'), view('rv_2', 'Dup'), ...RECORDING_DEFAULTS];
    const desired = emptyDesired();
    desired.views = [declared('recordings', 'Dup', { icon: 'star' }, { viewId: 'rv_2' })];
    expect(computePlan(desired, live).plan.changes.map((change) => change.target)).toEqual(['view:recordings:id:rv_2']);
  });

  it('refuses two manifests bound to the same view', () => {
    const live = emptyLive();
    live.views.recordings = [view('rv_1', 'A'), ...RECORDING_DEFAULTS];
    const desired = emptyDesired();
    desired.views = [
      declared('recordings', 'A', {}, { viewId: 'rv_1' }),
      declared('recordings', 'B', {}, { viewId: 'rv_1', source: at('b.yaml') }),
    ];
    expect(codes(desired, live)).toEqual(['view.bound-twice']);
  });

  it('reports every refusal at once, sorted by position', () => {
    const live = emptyLive();
    live.views.recordings = [view('rv_1', 'Dup'), view('rv_2', 'Dup'), ...RECORDING_DEFAULTS];
    const desired = emptyDesired();
    desired.views = [
      declared('recordings', 'Dup', {}, { source: at('z.yaml') }),
      declared('recordings', 'Dup', {}, { viewId: 'rv_9', source: at('a.yaml'), nameSource: at('a.yaml', 2) }),
      declared('recordings', 'All recordings', {}, { source: at('m.yaml') }),
    ];
    const error = refusal(desired, live);
    expect(error.reasons.map((reason) => reason.code)).toEqual(['view.default-name', 'view.ambiguous-name']);
    expect(error.message).toContain('[view.ambiguous-name]');
    expect(error.message).toContain('[view.default-name]');
  });
});

describe('computePlan: workspace', () => {
  it('refuses another workspace first and alone', () => {
    const desired = emptyDesired({ workspaceId: 'ws_other' });
    desired.views = [declared('recordings', 'Dup', {}, { viewId: 'rv_missing' })];
    expect(codes(desired, emptyLive())).toEqual(['workspace.mismatch']);
  });

  it('needs creatorEmail for creates', () => {
    const desired = emptyDesired();
    delete desired.workspace.creatorEmail;
    desired.views = [declared('recordings', 'New')];
    expect(codes(desired, emptyLive())).toEqual(['workspace.creator-required']);
    desired.views = [];
    expect(computePlan(desired, emptyLive()).plan.changes).toEqual([]);
  });

  it('needs a creator who is a member when the users were read; holds the creates, and the pinned lists naming them, of one who left', () => {
    const desired = emptyDesired({ creatorEmail: 'gone@acme.com' });
    desired.views = [declared('recordings', 'New')];
    expect(codes(desired, emptyLive())).toEqual(['workspace.creator-inactive']);
    const live = emptyLive();
    live.users = [
      user('u_gone', 'Gone@acme.com', 'Deactivated'),
      user('u_mia', 'mia@acme.com'),
      user('u_ana', 'ana@acme.com'),
    ];
    live.views.recordings = [view('rv_1', 'Calls'), ...RECORDING_DEFAULTS];
    desired.views.push(declared('recordings', 'Calls', { icon: 'phone' }, { viewId: 'rv_1' }));
    desired.pins = [
      pinsOf('mia@acme.com', 'recordings', [{ name: 'New' }, { name: 'Calls' }]),
      pinsOf('ana@acme.com', 'recordings', [{ name: 'Calls' }]),
    ];
    for (const email of ['mia@acme.com', 'ana@acme.com'])
      live.pins[pinsKey('recordings', email)] = [...RECORDING_DEFAULTS];
    const { plan } = computePlan(desired, live);
    expect(plan.changes.map((change) => change.target)).toEqual([
      'view:recordings:id:rv_1',
      'pins:recordings:ana@acme.com',
    ]);
    expect(plan.held?.map((held) => [held.target, held.code])).toEqual([
      ['pins:recordings:mia@acme.com', 'pins.names-held-view'],
      ['view:recordings:name:New', 'workspace.creator-inactive'],
    ]);
    // Nothing created: the plan names no creatorEmail.
    expect(plan).not.toHaveProperty('creatorEmail');
    desired.views = [declared('recordings', 'New')];
    desired.pins = [];
    // The reader reads users whenever createsViews says so; a plan without them is a bug, never a pass.
    delete live.users;
    expect(() => computePlan(desired, live)).toThrow(InternalError);
  });

  it('createsViews applies the same identity rule as the diff: a rename by viewId frees the old name', () => {
    const desired = emptyDesired({ creatorEmail: 'ops@acme.com' });
    const live = emptyLive();
    live.views.recordings = [view('rv_1', 'Customer calls'), ...RECORDING_DEFAULTS];
    desired.views = [declared('recordings', 'Customer calls', {}, { viewId: 'rv_1' })];
    expect(createsViews(desired, live.views)).toBe(false);
    desired.views = [
      declared('recordings', 'Customer calls v2', {}, { viewId: 'rv_1' }),
      declared('recordings', 'Customer calls'),
    ];
    expect(createsViews(desired, live.views)).toBe(true);
    expect(createsViews(emptyDesired({ creatorEmail: undefined }), live.views)).toBe(false);
  });
});

describe('computePlan: prune', () => {
  function pruneCase(prune: boolean): { desired: Desired; live: Live } {
    const live = emptyLive();
    live.views.recordings = [
      view('rv_1', 'Kept'),
      view('rv_2', 'Extra'),
      view('rv_3', 'Scratch 1'),
      ...RECORDING_DEFAULTS,
    ];
    live.views.deals = [view('dv_1', 'Undeclared domain')];
    live.pins[pinsKey('recordings', 'zoe@acme.com')] = [view('rv_2', 'Extra')];
    const desired = emptyDesired({ prune, ignore: ['Scratch ?'] });
    desired.views = [declared('recordings', 'Kept')];
    return { desired, live };
  }

  it('deletes only undeclared public views of declared domains, not ignored ones', () => {
    const { desired, live } = pruneCase(true);
    const { plan } = computePlan(desired, live);
    expect(plan.changes).toEqual([
      expect.objectContaining({
        action: 'delete',
        id: 'rv_2',
        pinnedBy: ['zoe@acme.com'],
        ownerEmail: 'ops@acme.com',
        reason: 'prune',
      }),
    ]);
    expect(plan.warnings).toEqual([
      { code: 'prune.kept-by-ignore', message: expect.stringContaining('"Scratch 1" (rv_3)') },
    ]);
  });

  it('deletes nothing without prune: true', () => {
    const { desired, live } = pruneCase(false);
    expect(computePlan(desired, live).plan.changes).toEqual([]);
  });

  it('refuses to delete a view a desired pinned list references', () => {
    const { desired, live } = pruneCase(true);
    live.pins[pinsKey('recordings', 'mia@acme.com')] = [view('rv_1', 'Kept')];
    desired.pins = [pinsOf('mia@acme.com', 'recordings', [{ name: 'Kept' }, { name: 'Extra' }])];
    expect(codes(desired, live)).toEqual(['pins.references-deleted']);
  });
});

describe('computePlan: pinned views', () => {
  function pinCase(): { desired: Desired; live: Live } {
    const live = emptyLive();
    live.views.recordings = [
      view('rv_1', 'Calls'),
      view('rv_2', 'Demos'),
      view('rv_3', 'Twin'),
      view('rv_4', 'Twin'),
      ...RECORDING_DEFAULTS,
    ];
    live.pins[pinsKey('recordings', 'mia@acme.com')] = [privateView('rv_p', "Mia's calls"), view('rv_1', 'Calls')];
    const desired = emptyDesired();
    desired.views = [declared('recordings', 'New one')];
    return { desired, live };
  }

  it('resolves names against manifests, live views, then defaults; ids against pins and the listing', () => {
    const { desired, live } = pinCase();
    desired.pins = [
      pinsOf('mia@acme.com', 'recordings', [
        { name: 'New one' },
        { name: 'Demos' },
        { name: 'All recordings' },
        { viewId: 'rv_p' },
        { viewId: 'rv_1' },
      ]),
    ];
    const pin = computePlan(desired, live).plan.changes.find((change) => change.action === 'pin');
    expect(pin?.action === 'pin' ? pin.after.map((tab) => tab.viewId) : []).toEqual([
      null,
      'rv_2',
      'rv_all',
      'rv_p',
      'rv_1',
    ]);
    expect(pin?.target).toBe('pins:recordings:mia@acme.com');
  });

  it('makes no change when the ordered ids are equal', () => {
    const { desired, live } = pinCase();
    desired.views = [];
    desired.pins = [pinsOf('mia@acme.com', 'recordings', [{ viewId: 'rv_p' }, { name: 'Calls' }])];
    expect(computePlan(desired, live).plan.changes).toEqual([]);
  });

  it('expands group documents with the users read: changes name the group, inactive members are counted, warnings kept', () => {
    const { desired, live } = pinCase();
    desired.views = [];
    live.users = [...(live.users ?? []), user('u_tom', 'tom@acme.com', 'Deactivated')];
    live.pins[pinsKey('recordings', 'max@acme.com')] = [view('rv_1', 'Calls')];
    const refs = [{ viewId: 'rv_gone' }, { name: 'Demos' }];
    desired.pinGroups = [
      {
        group: { name: 'Sales', source: at('pins/sales.yaml') },
        users: [
          { pattern: 'm*@acme.com', isGlob: true, source: at('pins/sales.yaml', 3) },
          { pattern: 't*@acme.com', isGlob: true, source: at('pins/sales.yaml', 4) },
        ],
        roles: [],
        domain: 'recordings',
        refs,
        unpinPrivate: false,
        source: at('pins/sales.yaml', 5),
        refSources: refs.map((_, index) => at('pins/sales.yaml', 6 + index)),
      },
    ];
    const { plan } = computePlan(desired, live);
    const pins = plan.changes.flatMap((change) =>
      change.action === 'pin' ? [[change.userEmail, change.group, change.after.map((tab) => tab.viewId)]] : [],
    );
    expect(pins).toEqual([
      ['max@acme.com', 'Sales', ['rv_2']],
      ['mia@acme.com', 'Sales', ['rv_p', 'rv_2']],
    ]);
    expect(plan.skippedMembers).toBe(1);
    const texts = plan.warnings.map(warningText);
    expect(texts).toContain(
      'pins/sales.yaml:4:1: users glob "t*@acme.com" of the group "Sales" reaches no active member',
    );
    expect(texts.filter((warning) => warning.startsWith('pins/sales.yaml:6:1: rv_gone is left out'))).toHaveLength(2);
  });

  it('refuses unknown names (with did you mean), ambiguous names and duplicates', () => {
    const { desired, live } = pinCase();
    desired.pins = [
      pinsOf('mia@acme.com', 'recordings', [
        { viewId: 'rv_p' },
        { name: 'Demo' },
        { name: 'Twin' },
        { name: 'Calls' },
        { viewId: 'rv_1' },
      ]),
    ];
    const error = refusal(desired, live);
    expect(error.reasons.map((reason) => reason.code)).toEqual([
      'pins.unknown-name',
      'pins.ambiguous-name',
      'pins.duplicate-view',
    ]);
    expect(error.reasons[0]?.message).toContain('did you mean "Demos"');
    expect(error.reasons[1]?.ids).toEqual(['rv_3', 'rv_4']);
    expect(error.reasons[0]?.source).toEqual(desired.pins[0]?.refSources[1]);
  });

  it('refuses an empty list', () => {
    const { desired, live } = pinCase();
    desired.pins = [pinsOf('mia@acme.com', 'recordings', [], { unpinPrivate: true })];
    expect(codes(desired, live)).toEqual(['pins.empty']);
  });
});

describe('computePlan: admin automations', () => {
  function driftCase(): { desired: Desired; live: Live } {
    const live = emptyLive();
    live.automations = [
      automation('aa_1', 'A'),
      automation('aa_2', 'B', { color: 'green' }),
      automation('aa_3', 'C'),
      automation('aa_4', 'Scratch x'),
    ];
    const desired = emptyDesired({ ignore: ['Scratch *'] });
    desired.automations = {
      source: at('automations.yaml'),
      automations: [
        { name: 'C', color: 'blue', source: at('automations.yaml', 2) },
        {
          name: 'A',
          actions: { autoRecord: { toBeRecorded: true, onlyHosted: true } },
          source: at('automations.yaml', 5),
        },
        { name: 'B', color: 'green', source: at('automations.yaml', 9) },
        { name: 'D', source: at('automations.yaml', 12) },
      ],
    };
    return { desired, live };
  }

  it('reports differences, priority, missing and unexpected automations as drift', () => {
    const { desired, live } = driftCase();
    live.automations?.push(automation('aa_5', 'Rogue'));
    const drift = computePlan(desired, live).plan.changes;
    expect(drift.every((change) => change.action === 'drift')).toBe(true);
    const byName = Object.fromEntries(drift.map((change) => [change.name, change]));
    expect(byName.A).toMatchObject({
      differences: [{ pointer: '/actions/autoRecord/onlyHosted', expected: true, actual: false }],
    });
    expect(byName.C).toMatchObject({ differences: [{ pointer: '/priority', expected: 1, actual: 3 }] });
    expect(byName.B).toBeUndefined();
    expect(byName.D).toMatchObject({ before: null, after: { name: 'D' } });
    expect(byName.Rogue).toMatchObject({ after: null, id: 'aa_5' });
    expect(byName['Scratch x']).toBeUndefined();
  });

  it('reports nothing when live matches the expectations', () => {
    const live = emptyLive();
    live.automations = [automation('aa_1', 'A')];
    const desired = emptyDesired();
    desired.automations = {
      source: at('a.yaml'),
      automations: [
        {
          name: 'A',
          color: 'blue',
          filters: [{ not: true, combineWith: 'And', meetingType: 'Internal', type: 'MeetingType' }],
          source: at('a.yaml', 2),
        },
      ],
    };
    expect(computePlan(desired, live).plan.changes).toEqual([]);
  });
});

describe('computePlan: request accounting', () => {
  it('counts writes plus one verification read per touched view domain', () => {
    const { desired, live } = mixedScenario();
    const { plan } = computePlan(desired, live);
    // create + update (recordings), delete (deals), one pin list; reads: recordings, deals.
    // apply --plan re-reads first: the workspace, both listings, the pinned list, the users (the plan creates a view).
    expect(plan.requests).toEqual({ used: 6, applyNeeds: 6, recheck: 5, dailyRemaining: 2981 });
  });
});

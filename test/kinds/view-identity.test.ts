import { describe, expect, it } from 'vitest';
import { InternalError } from '../../src/errors.js';
import { matchViews, planViews } from '../../src/kinds/view-identity.js';
import { emptyMemory } from '../../src/state/sweep-memory.js';
import { RECORDING_DEFAULTS, at, declared, emptyDesired, emptyLive, user, view } from '../plan/fixtures.js';

/** Identity of declared views (view-identity.ts) against in-memory listings. */

describe('a manifest named like a built-in default view', () => {
  it('is refused, with the public saved view of that name as the one to bind by viewId', () => {
    const desired = emptyDesired();
    desired.views = [declared('recordings', 'My recordings')];
    const live = emptyLive();
    live.views.recordings = [view('rv_7', 'My recordings'), ...RECORDING_DEFAULTS];
    const [reason] = matchViews(desired, live).reasons;
    expect(reason).toMatchObject({ code: 'view.default-name', ids: ['rv_mine', 'rv_7'] });
    expect(reason?.wayOut).toBe('bind the manifest to the saved view with `viewId: rv_7`, or rename it');
    live.views.recordings = [view('rv_7', 'My recordings'), view('rv_8', 'My recordings'), ...RECORDING_DEFAULTS];
    expect(matchViews(desired, live).reasons[0]?.wayOut).toContain('(saved views of that name: rv_7, rv_8)');
  });
});

describe('the creator of the views a plan creates', () => {
  const creates = (...names: string[]) => {
    const desired = emptyDesired({ creatorEmail: undefined });
    desired.views = names.map((name) => declared('recordings', name));
    return desired;
  };

  it("holds the create again of a view deleted in the app (the app did it), with its way out, and refuses the manifests' own create", () => {
    const desired = creates('New');
    desired.views.push(declared('recordings', 'Calls', {}, { viewId: 'rv_calls' }));
    const memory = emptyMemory();
    memory.views['view:recordings:id:rv_calls'] = {
      domain: 'recordings',
      id: 'rv_calls',
      name: 'Calls',
      lastSeen: '2026-04-07T06:00:00.000Z',
    };
    const both = planViews(desired, emptyLive(), memory);
    expect(both.reasons.map((reason) => [reason.code, reason.message])).toEqual([
      [
        'workspace.creator-required',
        'the plan creates RecordingView "New", and the Workspace document names no `creatorEmail` to own them',
      ],
    ]);
    expect(both.held).toEqual([
      {
        target: 'view:recordings:name:Calls',
        code: 'view.create-needs-creator',
        reason:
          'RecordingView "Calls" (rv_calls) was deleted in the app and is not created again: the Workspace document names no `creatorEmail` to own it',
        wayOut:
          'to create it again, set `creatorEmail: <an active member>` in the Workspace document (workspace.yaml); ' +
          'if it is gone for good, drop `viewId: rv_calls` and the document with it (views/recordings/calls.yaml), and the tabs naming it',
        source: at('views/recordings/calls.yaml'),
      },
    ]);
    // The lists naming the held view by its old id are held with it.
    expect(both.heldViews.get('recordings')).toEqual([
      { name: 'Calls', viewId: 'rv_calls', target: 'view:recordings:name:Calls' },
    ]);
    desired.views.shift();
    const only = planViews(desired, emptyLive(), memory);
    expect(only.reasons).toEqual([]);
    expect(only.changes).toEqual([]);
  });

  it('is required, at the Workspace document, with the one view or the number of views it would own', () => {
    const [one] = planViews(creates('New'), emptyLive()).reasons;
    expect(one).toMatchObject({ code: 'workspace.creator-required', source: at('workspace.yaml') });
    expect(one?.message).toBe(
      'the plan creates RecordingView "New", and the Workspace document names no `creatorEmail` to own them',
    );
    const [two] = planViews(creates('New', 'Newer'), emptyLive()).reasons;
    expect(two?.message).toBe(
      'the plan creates 2 views, and the Workspace document names no `creatorEmail` to own them',
    );
  });

  it('is reported at the first create when there is no Workspace document', () => {
    const desired = creates('New');
    delete desired.workspace.source;
    expect(planViews(desired, emptyLive()).reasons[0]?.source).toEqual(desired.views[0]?.source);
  });

  it('holds the creates of a creator who is no longer active (not the whole plan), and refuses an address that never was a member, at creatorEmail', () => {
    const emailSource = at('workspace.yaml', 3, 15);
    const live = emptyLive();
    live.users = [user('u_gone', 'Gone@acme.com', 'Deactivated'), user('u_new', 'new@acme.com', 'Invited')];
    const plan = (creatorEmail: string) => {
      const desired = emptyDesired({ creatorEmail, creatorEmailSource: emailSource });
      desired.views = [declared('recordings', 'New')];
      return planViews(desired, live);
    };
    const gone = plan('gone@acme.com');
    expect(gone.reasons).toEqual([]);
    expect(gone.changes).toEqual([]);
    expect(gone.held).toEqual([
      {
        target: 'view:recordings:name:New',
        code: 'workspace.creator-inactive',
        reason:
          'RecordingView "New" is not created: creatorEmail gone@acme.com is deactivated, not active, and the service would refuse the create',
        wayOut: 'set `creatorEmail` to an active member of the workspace',
        source: at('views/recordings/new.yaml'),
      },
    ]);
    expect(gone.heldViews.get('recordings')).toEqual([
      { name: 'New', viewId: null, target: 'view:recordings:name:New' },
    ]);
    expect(plan('new@acme.com').held[0]?.reason).toContain('creatorEmail new@acme.com is invited, not active');
    expect(plan('nobody@acme.com').reasons[0]).toMatchObject({
      code: 'workspace.creator-inactive',
      message: 'creatorEmail nobody@acme.com is not a member of the workspace; the service would refuse every create',
      ids: [],
      source: emailSource,
    });
    expect(plan('nobody@acme.com').held).toEqual([]);
  });
});

describe('binding declared views', () => {
  it('asks to rename a manifest named like a default view when no saved view has that name', () => {
    const desired = emptyDesired();
    desired.views = [declared('recordings', 'All recordings', {}, { nameSource: at('views/all.yaml', 2, 7) })];
    expect(matchViews(desired, emptyLive()).reasons).toEqual([
      expect.objectContaining({
        code: 'view.default-name',
        wayOut: 'rename the manifest',
        ids: ['rv_all'],
        source: at('views/all.yaml', 2, 7),
      }),
    ]);
  });

  it("refuses a second manifest binding the same id at its viewId, naming the first one's position, and binds the first", () => {
    const desired = emptyDesired();
    desired.views = [
      declared('recordings', 'A', { icon: 'star' }, { viewId: 'rv_1', source: at('views/a.yaml') }),
      declared(
        'recordings',
        'B',
        {},
        { viewId: 'rv_1', source: at('views/b.yaml'), viewIdSource: at('views/b.yaml', 2, 9) },
      ),
    ];
    const live = emptyLive();
    live.views.recordings = [view('rv_1', 'A'), ...RECORDING_DEFAULTS];
    const { reasons, changes, claimed } = matchViews(desired, live);
    expect(reasons).toEqual([
      {
        code: 'view.bound-twice',
        message: 'RecordingView "B" and "A" (views/a.yaml:1) both bind to rv_1',
        wayOut: 'keep one manifest for the view, or give the other its own name',
        source: at('views/b.yaml', 2, 9),
        ids: ['rv_1'],
      },
    ]);
    expect(changes.map((change) => [change.action, change.name])).toEqual([['update', 'A']]);
    expect(claimed.get('recordings')).toEqual(new Set(['rv_1']));
  });

  it('never plans a declared domain whose listing was not read (it would create every view)', () => {
    const desired = emptyDesired();
    desired.views = [declared('companies', 'Key accounts')];
    const live = emptyLive();
    delete live.views.companies;
    expect(() => matchViews(desired, live)).toThrow(InternalError);
  });
});

import { describe, expect, it } from 'vitest';
import { matchViews } from '../../src/kinds/view-identity.js';
import { RECORDING_DEFAULTS, declared, emptyDesired, emptyLive, view } from '../plan/fixtures.js';

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

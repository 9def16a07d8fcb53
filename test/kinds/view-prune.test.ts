import { describe, expect, it } from 'vitest';
import { planPrune } from '../../src/kinds/view-prune.js';
import { pinsKey } from '../../src/state/types.js';
import { compileGlobs } from '../../src/text/glob.js';
import { RECORDING_DEFAULTS, declared, emptyDesired, emptyLive, view } from '../plan/fixtures.js';

/** What prune (view-prune.ts) leaves to `ignore`, against in-memory listings. */

describe('prune and ignore', () => {
  it('names at most five views an ignore glob keeps from prune, then how many more', () => {
    const desired = emptyDesired({ prune: true, ignore: ['Scratch *'] });
    desired.views = [declared('recordings', 'Kept')];
    const live = emptyLive();
    const scratch = Array.from({ length: 7 }, (_, index) => view(`rv_${index}`, `Scratch ${index}`));
    live.views.recordings = [view('rv_kept', 'Kept'), ...scratch, ...RECORDING_DEFAULTS];
    const { changes, warnings } = planPrune(
      desired,
      live,
      new Map([['recordings', new Set(['rv_kept'])]]),
      compileGlobs(['Scratch *']),
    );
    expect(changes).toEqual([]);
    expect(warnings).toEqual([
      {
        code: 'prune.kept-by-ignore',
        message:
          'ignore "Scratch *" keeps 7 undeclared RecordingViews from prune: "Scratch 0" (rv_0), "Scratch 1" (rv_1), "Scratch 2" (rv_2), "Scratch 3" (rv_3), "Scratch 4" (rv_4), and 2 more',
      },
    ]);
  });
});

describe('what a prune delete tells about its view', () => {
  function prune(withUsers: boolean) {
    const desired = emptyDesired({ prune: true });
    const live = emptyLive();
    live.views.recordings = [
      view('rv_kept', 'Kept'),
      view('rv_old', 'Old', { ownerId: 'u_max' }),
      view('rv_gone', 'Left behind', { ownerId: 'u_left' }),
      ...RECORDING_DEFAULTS,
    ];
    live.pins = {
      [pinsKey('recordings', 'zoe@acme.com')]: [view('rv_old', 'Old')],
      [pinsKey('recordings', 'mia@acme.com')]: [view('rv_kept', 'Kept'), view('rv_old', 'Old')],
      [pinsKey('deals', 'max@acme.com')]: [view('rv_old', 'Old')],
    };
    if (!withUsers) delete live.users;
    return planPrune(desired, live, new Map([['recordings', new Set(['rv_kept'])]]), compileGlobs([])).changes;
  }

  it('lists, sorted, the users read whose tabs in its domain pin it', () => {
    expect(prune(true).map((change) => [change.id, change.pinnedBy])).toEqual([
      ['rv_old', ['mia@acme.com', 'zoe@acme.com']],
      ['rv_gone', []],
    ]);
  });

  it('names its owner by email when the users were read and hold the owner, by id always', () => {
    expect(prune(true).map((change) => [change.ownerId, change.ownerEmail])).toEqual([
      ['u_max', 'max@acme.com'],
      ['u_left', undefined],
    ]);
    expect(prune(false).map((change) => [change.ownerId, 'ownerEmail' in change])).toEqual([
      ['u_max', false],
      ['u_left', false],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { planPrune } from '../../src/kinds/view-prune.js';
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
    const { changes, warnings } = planPrune(desired, live, new Map([['recordings', new Set(['rv_kept'])]]), compileGlobs(['Scratch *']));
    expect(changes).toEqual([]);
    expect(warnings).toEqual([
      'ignore "Scratch *" keeps 7 undeclared RecordingViews from prune: "Scratch 0" (rv_0), "Scratch 1" (rv_1), "Scratch 2" (rv_2), "Scratch 3" (rv_3), "Scratch 4" (rv_4), and 2 more',
    ]);
  });
});

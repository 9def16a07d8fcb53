import { describe, expect, it } from 'vitest';
import type { ApiView } from '../../src/domain/api-types.js';
import type { PinRef } from '../../src/domain/desired.js';
import { planPins, type PinContext } from '../../src/kinds/pinned-views.js';
import { memberPinLists } from '../../src/kinds/pin-members.js';
import { at, defaultView, emptyLive, pinsOf, privateView, view } from '../plan/fixtures.js';

// `mode: include`: the listed tabs must be pinned; the rest and the order are the member's.

const CALLS = view('rv_1', 'Calls');
const DEMOS = view('rv_2', 'Demos');
const WINS = view('rv_3', 'Wins');
const ALL = defaultView('rv_all', 'All recordings');
const MINE = privateView('rv_p1', 'My follow-ups');
const CONTEXT: PinContext = {
  domain: 'recordings',
  declared: [],
  listing: [CALLS, DEMOS, WINS, ALL],
  deleted: new Map(),
};

function include(refs: PinRef[], current: ApiView[], unpin: string[] = []) {
  return planPins(
    pinsOf('mia@acme.com', 'recordings', refs, {
      mode: 'include',
      ...(unpin.length === 0
        ? {}
        : { unpin: unpin.map((name, index) => ({ name, source: at('pins/mia.yaml', 9, index) })) }),
    }),
    current,
    CONTEXT,
  );
}

const ids = (outcome: ReturnType<typeof planPins>) => outcome.change?.after.map((tab) => tab.viewId);

describe('planPins with mode: include', () => {
  it('is in sync while every listed tab is pinned, whatever the member added or re-ordered', () => {
    expect(include([{ name: 'Calls' }], [MINE, WINS, ALL, CALLS])).toEqual({ reasons: [], warnings: [] });
    // The same list, exact, takes the member's public and default tabs back.
    expect(
      ids(planPins(pinsOf('mia@acme.com', 'recordings', [{ name: 'Calls' }]), [MINE, WINS, ALL, CALLS], CONTEXT)),
    ).toEqual(['rv_p1', 'rv_1']);
  });

  it('adds the missing listed tabs in front, in the listed order, and keeps every other tab where it is', () => {
    const outcome = include([{ name: 'Demos' }, { name: 'Calls' }, { name: 'All recordings' }], [WINS, ALL, MINE]);
    expect(outcome.reasons).toEqual([]);
    expect(ids(outcome)).toEqual(['rv_2', 'rv_1', 'rv_3', 'rv_all', 'rv_p1']);
    expect(outcome.change?.before.map((tab) => tab.viewId)).toEqual(['rv_3', 'rv_all', 'rv_p1']);
  });

  it('unpin removes the tabs it names where they are pinned, and nothing else', () => {
    expect(ids(include([{ name: 'Calls' }], [WINS, CALLS, DEMOS, MINE], ['Demos']))).toEqual(['rv_3', 'rv_1', 'rv_p1']);
    // Not pinned: nothing to do.
    expect(include([{ name: 'Calls' }], [WINS, CALLS], ['Demos'])).toEqual({ reasons: [], warnings: [] });
  });

  it('warns, with the closest name, of an unpin name no view has: a typo would remove nothing', () => {
    const outcome = include([{ name: 'Calls' }], [CALLS, DEMOS], ['Demoz']);
    expect(outcome.change).toBeUndefined();
    expect(outcome.warnings).toEqual([
      {
        code: 'pins.unpin-unknown',
        message:
          '"Demoz" in `unpin` names no recordings view, so no tab of mia@acme.com is removed; did you mean "Demos"?',
        source: at('pins/mia.yaml', 9, 0),
      },
    ]);
  });

  it('keeps the unknown-name refusal of a listed tab', () => {
    expect(include([{ name: 'Cals' }], [CALLS]).reasons.map((reason) => reason.code)).toEqual(['pins.unknown-name']);
  });

  it("a member's own document still wins over a group per member and domain, whichever mode either has", () => {
    const live = emptyLive();
    const own = pinsOf('mia@acme.com', 'recordings', [{ name: 'Demos' }]);
    const group = {
      ...pinsOf('', 'recordings', [{ name: 'Calls' }], { mode: 'include' as const }),
      group: { name: 'everyone', source: at('pins/all.yaml') },
      users: [{ pattern: '*@acme.com', isGlob: true, source: at('pins/all.yaml', 3) }],
      roles: [],
    };
    const { userEmail: _userEmail, ...groupList } = group;
    const lists = memberPinLists({ pins: [own], pinGroups: [groupList] }, live.users).lists;
    const mia = lists.find((list) => list.userEmail === 'mia@acme.com');
    expect(mia?.mode).toBeUndefined();
    expect(mia?.refs).toEqual([{ name: 'Demos' }]);
    expect(lists.find((list) => list.userEmail === 'max@acme.com')?.mode).toBe('include');
  });
});

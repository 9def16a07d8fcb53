import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import type { PlanScope } from '../../src/plan/types.js';
import { renderJson } from '../../src/render/json.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { renderText } from '../../src/render/text.js';
import { viewTarget } from '../../src/domain/targets.js';
import { rememberedPinning } from '../../src/kinds/view-pinned-memory.js';
import { emptyMemory, type SweepMemory } from '../../src/state/sweep-memory.js';
import { pinsKey } from '../../src/state/types.js';
import { RECORDING_DEFAULTS, at, declared, emptyDesired, emptyLive, mixedScenario, pinsOf } from '../plan/fixtures.js';

/** What the sweep memory adds to a plan's text, markdown and JSON: a view deleted in the app created again, and who pinned a deleted view when last read. */

describe('the create of a view deleted in the app', () => {
  function recreatePlan(): ReturnType<typeof computePlan>['plan'] {
    const desired = emptyDesired();
    desired.views = [
      declared(
        'recordings',
        'Coaching',
        { icon: 'mortar_board' },
        { viewId: 'rv_gone', source: at('views/coaching.yaml'), viewIdSource: at('views/coaching.yaml', 3, 9) },
      ),
    ];
    desired.pins = [pinsOf('mia@acme.com', 'recordings', [{ name: 'Coaching' }])];
    const live = emptyLive();
    live.pins[pinsKey('recordings', 'mia@acme.com')] = [...RECORDING_DEFAULTS];
    const memory = emptyMemory();
    memory.views[viewTarget('recordings', 'rv_gone')] = {
      domain: 'recordings',
      id: 'rv_gone',
      name: 'Coaching',
      lastSeen: '2026-11-20T03:00:00.000Z',
    };
    return computePlan(desired, live, { memory }).plan;
  }

  it('is labelled deleted in the app, with the old id and when it was last seen, in text', () => {
    const text = renderText(recreatePlan(), { color: false });
    // Listed with the drift, by cause: the view, the id the manifest still binds, and since when.
    expect(text).toContain(
      '\n  ! drift   1 RecordingView deleted in the app  views/coaching.yaml:1\n      "Coaching" (was rv_gone)\n      changed between 2026-11-20 03:00 UTC (last seen) and now\n',
    );
    expect(text).toContain(
      '\n+ RecordingView "Coaching", owner ops@acme.com\n    deleted in the app (rv_gone, last seen 2026-11-20): created again\n  + icon: mortar_board\n',
    );
  });

  it('is labelled in markdown, in its row (which the comment always keeps) and its details', () => {
    const markdown = renderMarkdown(recreatePlan(), { color: false });
    expect(markdown).toContain(
      '| ⚠️ | Drift | **1 RecordingView deleted in the app**: **Coaching** (was rv\\_gone) | `views/coaching.yaml:1` · changed between 2026-11-20 03:00 UTC (last seen) and now ·',
    );
    expect(markdown).toContain(
      '➕ Coaching, owner ops@acme.com, deleted in the app (rv_gone, last seen 2026-11-20): created again: the attributes it sets',
    );
  });

  it('carries origin outside and deletedOutside in JSON', () => {
    const json = JSON.parse(renderJson(recreatePlan())) as {
      changes: { action: string; origin?: string; deletedOutside?: unknown }[];
    };
    expect(json.changes.find((change) => change.action === 'create')).toMatchObject({
      origin: 'outside',
      deletedOutside: { id: 'rv_gone', lastSeen: '2026-11-20T03:00:00.000Z' },
    });
  });
});

describe('"pinned by" with the sweep memory', () => {
  // Old pipeline (dv_9) is pinned by Mia, Max and Zoe, whose deal lists were read.
  const base = { ref: 'origin/main', commit: 'abcdef1'.padEnd(40, '0') };
  const scope: PlanScope = { base, lists: 40, unread: 37, unreadByDomain: { deals: { lists: 7, unread: 4 } } };

  /** memoryOf remembers deal lists not read by this plan: `[email, lastRead, pins dv_9]`. */
  function memoryOf(lists: [string, string, boolean][]): SweepMemory {
    const memory = emptyMemory();
    for (const [email, lastRead, pins] of lists)
      memory.lists[pinsKey('deals', email)] = { lastRead, viewIds: pins ? ['dv_1', 'dv_9'] : ['dv_1'] };
    // Read by this plan (so not counted) and of another domain (never counted).
    memory.lists[pinsKey('deals', 'mia@acme.com')] = { lastRead: '2026-01-01T00:00:00.000Z', viewIds: ['dv_9'] };
    memory.lists[pinsKey('recordings', 'ann@acme.com')] = { lastRead: '2026-01-01T00:00:00.000Z', viewIds: ['dv_9'] };
    return memory;
  }

  function plan(memory: SweepMemory | undefined): ReturnType<typeof computePlan>['plan'] {
    const { desired, live } = mixedScenario();
    return computePlan(desired, live, { scope, ...(memory === undefined ? {} : { memory }) }).plan;
  }

  const REMEMBERED: [string, string, boolean][] = [
    ['ann@acme.com', '2026-11-22T02:00:00.000Z', true],
    ['bob@acme.com', '2026-11-20T02:00:00.000Z', true],
    ['cat@acme.com', '2026-11-18T02:00:00.000Z', false],
  ];

  it('counts the lists not read that held the view when last read, dated by the oldest of them', () => {
    const { live } = mixedScenario();
    expect(rememberedPinning(memoryOf(REMEMBERED), live, 'deals', 'dv_9')).toEqual({
      lists: 3,
      pinning: 2,
      asOf: '2026-11-20T02:00:00.000Z',
    });
    // None held it: the figure is dated by the oldest list known.
    expect(rememberedPinning(memoryOf(REMEMBERED), live, 'deals', 'dv_12')).toEqual({
      lists: 3,
      pinning: 0,
      asOf: '2026-11-18T02:00:00.000Z',
    });
    expect(rememberedPinning(emptyMemory(), live, 'deals', 'dv_9')).toBeUndefined();
  });

  it('says the last known count and its date in text, markdown and JSON', () => {
    const withMemory = plan(memoryOf(REMEMBERED));
    expect(withMemory.changes.find((change) => change.action === 'delete')).toMatchObject({
      pinLists: { read: 3, unread: 4, remembered: { lists: 3, pinning: 2, asOf: '2026-11-20T02:00:00.000Z' } },
    });
    const said =
      'pinned by 3 of the 3 deals lists read; of the 4 not read, 2 pinned it when last read (as of 2026-11-20); 1 was never read (it may pin it)';
    expect(renderText(withMemory, { color: false })).toContain(`"Old pipeline" (dv_9), owner max@acme.com, ${said}\n`);
    expect(renderMarkdown(withMemory, { color: false })).toContain(
      `(dv\\_9, owner max@acme.com, ${said}) | prune: not declared |`,
    );
  });

  it('drops "never read" when the memory knows every list not read, and says "none" when none held it', () => {
    const all = plan(
      memoryOf([
        ...REMEMBERED.map(([email, at]): [string, string, boolean] => [email, at, false]),
        ['dan@acme.com', '2026-11-21T02:00:00.000Z', false],
      ]),
    );
    expect(renderText(all, { color: false })).toContain(
      ', pinned by 3 of the 3 deals lists read; of the 4 not read, none pinned it when last read (as of 2026-11-18)\n',
    );
  });

  it('says what it said before without a memory, or with one that read none of the lists not read', () => {
    for (const memory of [undefined, emptyMemory()]) {
      const without = plan(memory);
      expect(without.changes.find((change) => change.action === 'delete')).toMatchObject({
        pinLists: { read: 3, unread: 4 },
      });
      expect(without.changes.find((change) => change.action === 'delete')).not.toHaveProperty('pinLists.remembered');
      expect(renderText(without, { color: false })).toContain(
        'pinned by 3 of the 3 deals lists read; 4 lists not read (they may pin it too)\n',
      );
    }
  });
});

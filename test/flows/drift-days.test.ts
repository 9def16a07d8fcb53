import { describe, expect, it } from 'vitest';
import type { Desired, DesiredPinGroup } from '../../src/domain/desired.js';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import type { EmulatorData } from '../../src/emulator/model.js';
import { startEmulator } from '../../src/emulator/server.js';
import { planWorkspace } from '../../src/flows/plan-workspace.js';
import type { Plan } from '../../src/plan/types.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { renderText } from '../../src/render/text.js';
import { createServiceClient } from '../../src/service/client.js';
import { emptyMemory, type SweepMemory } from '../../src/state/sweep-memory.js';
import { pinsKey } from '../../src/state/types.js';
import { at, declared, emptyDesired, pinsOf } from '../plan/fixtures.js';

/**
 * A few simulated days of a report-only nightly sweep (`plan --budget N`) against the
 * emulator, with a moving clock and a sweep memory kept by hand as the ledger keeps it
 * (the lists read and what they held, the members seen, the last applied commit): drift
 * made in the app is found, labelled `outside`, dated by the night before, grouped by
 * cause, and, since nothing applies a report, found again the next night as "already
 * so"; a joiner a group reaches is `membership`, pending; the same nights without the
 * memory are hedged and undated.
 */

const HEAD = 'c0ffee1'.padEnd(40, '0');
const night = (day: number): string => `2026-11-${String(19 + day).padStart(2, '0')}T02:00:00.000Z`;

function manifests(): Desired {
  const desired = emptyDesired({ workspaceId: 'ws_acme', creatorEmail: 'adam.reyes@acme.test' });
  desired.views = [declared('deals', 'Big renewals', {}, { viewId: 'dv_big_renewals' })];
  desired.pins = ['mia.chen', 'lena.fischer', 'sam.okafor'].map((name) =>
    pinsOf(`${name}@acme.test`, 'deals', [{ name: 'Pipeline review' }, { name: 'Big renewals' }]),
  );
  const group: DesiredPinGroup = {
    group: { name: 'New starters', source: at('pins/new.yaml') },
    users: [{ pattern: 'new.*@acme.test', isGlob: true, source: at('pins/new.yaml', 3) }],
    roles: [],
    domain: 'deals',
    refs: [{ name: 'Pipeline review' }, { name: 'Big renewals' }],
    unpinPrivate: false,
    source: at('pins/new.yaml', 5),
    refSources: [at('pins/new.yaml', 6), at('pins/new.yaml', 7)],
  };
  desired.pinGroups = [group];
  return desired;
}

/** Day 0: the workspace as the last apply left it. */
function applied(): EmulatorData {
  const data = demoWorkspace();
  for (const id of ['u_mia', 'u_lena', 'u_sam']) data.pinned.deals[id] = ['dv_pipeline_review', 'dv_big_renewals'];
  return data;
}

/** What people did in the app on `day` (they never touch the manifests). */
function dayInTheApp(data: EmulatorData, day: number): void {
  if (day === 2) {
    data.pinned.deals.u_mia = ['dv_big_renewals', 'dv_pipeline_review'];
    data.pinned.deals.u_lena = ['dv_pipeline_review', 'dv_big_renewals', 'dv_stalled_emea'];
    const big = data.views.deals.find((view) => view.viewId === 'dv_big_renewals');
    if (big !== undefined) big.name = 'Big renewals FY27';
  }
  if (day === 3)
    data.users.push({
      id: 'u_ana',
      email: 'new.ana@acme.test',
      name: 'Ana',
      license: 'Full',
      role: 'Member',
      state: 'Active',
      isDesktopAppInstalled: false,
      isMobileAppInstalled: false,
    });
}

/** observe is what the ledger records after a night: the lists read and what they held, the public views seen, the members. */
function observe(memory: SweepMemory, plan: Plan, data: EmulatorData, at: string): SweepMemory {
  const next = structuredClone(memory);
  const emails = new Map(data.users.map((entry) => [entry.id, entry.email]));
  const read = [
    ...['u_mia', 'u_lena', 'u_sam'],
    ...data.users.filter((entry) => entry.email.startsWith('new.')).map((entry) => entry.id),
  ];
  for (const id of read) {
    next.lists[pinsKey('deals', emails.get(id) ?? '')] = {
      lastRead: at,
      viewIds: data.pinned.deals[id] ?? ['dv_default_all', 'dv_default_open'],
    };
  }
  for (const view of data.views.deals.filter((entry) => entry.visibility === 'Public' && !entry.isDefault)) {
    next.views[`view:deals:id:${view.viewId}`] = { domain: 'deals', id: view.viewId, name: view.name, lastSeen: at };
  }
  for (const entry of data.users) next.members[entry.email] = { role: entry.role, state: entry.state, lastSeen: at };
  expect(plan.scope?.unread ?? 0).toBe(0);
  return next;
}

interface Night {
  plan: Plan;
  text: string;
  markdown: string;
}

/** sweepNights runs nights 1..4 of a report-only sweep, with the memory (kept by hand) or without. */
async function sweepNights(remember: boolean): Promise<Night[]> {
  let data = applied();
  let memory: SweepMemory = { ...emptyMemory(), workspaceId: 'ws_acme', lastApplied: { commit: HEAD, at: night(0) } };
  for (const entry of data.users)
    memory.members[entry.email] = { role: entry.role, state: entry.state, lastSeen: night(0) };
  const nights: Night[] = [];
  for (let day = 1; day <= 4; day += 1) {
    dayInTheApp(data, day);
    const now = Date.parse(night(day));
    const emulator = await startEmulator({ data, port: 0, rate: 1000, burst: 1000, quota: 1_000_000, now: () => now });
    try {
      const client = createServiceClient({ baseUrl: emulator.url, apiKey: emulator.apiKey, rate: 1000, burst: 1000 });
      const { plan } = await planWorkspace(manifests(), client, {
        scope: { budget: 200 },
        clock: { now: () => now },
        ...(remember ? { memory, applied: { state: 'current' as const, commit: HEAD } } : {}),
      });
      nights.push({ plan, text: renderText(plan, { color: false }), markdown: renderMarkdown(plan, { color: false }) });
      // A report-only night writes nothing: the workspace stays as people left it.
      data = emulator.snapshot();
      expect(emulator.stats().writes).toBe(0);
      memory = observe(memory, plan, data, night(day));
    } finally {
      await emulator.close();
    }
  }
  return nights;
}

const labels = (plan: Plan): string[] =>
  plan.changes.map(
    (change) =>
      `${change.action} ${change.name} ${change.origin ?? 'own'}${change.since === undefined ? '' : ` ${change.since}`}${change.already === true ? ' already' : ''}`,
  );

describe('a report-only nightly sweep over four days, with the sweep memory', () => {
  it('names drift made in the app by cause, who and when; reports it again as "already so"; lists a joiner as pending', async () => {
    const [first, second, third, fourth] = await sweepNights(true);
    // Night 1: nothing happened in the app.
    expect(first?.plan.changes).toEqual([]);
    expect(first?.plan.drifted).toEqual({ changes: 0, lastApplied: { commit: HEAD, at: night(0) } });

    // Night 2: Mia re-ordered, Lena added a tab, an admin renamed a declared view; each dated by night 1.
    expect(labels(second?.plan as Plan)).toEqual([
      `update Big renewals outside ${night(1)}`,
      `pin lena.fischer@acme.test outside ${night(1)}`,
      `pin mia.chen@acme.test outside ${night(1)}`,
    ]);
    expect(second?.plan.drifted?.changes).toBe(3);
    expect(second?.text).toContain(
      [
        '  ! drift   1 member re-ordered their deals tabs in the app  pins/mia.chen.yaml:1',
        '      mia.chen@acme.test',
        '      changed between 2026-11-20 02:00 UTC (last read) and now',
        '      apply --budget repairs, viewctl pull keeps',
        '  ! drift   1 member added deals tabs in the app  pins/lena.fischer.yaml:1',
        '      lena.fischer@acme.test',
      ].join('\n'),
    );
    expect(second?.text).toContain(
      '  ! drift   1 DealView renamed in the app  views/deals/big-renewals.yaml:1\n      "Big renewals" (dv_big_renewals, owner adam.reyes@acme.test)\n      changed between 2026-11-20 02:00 UTC (last seen) and now\n',
    );
    expect(second?.text).toContain('; 3 of them drift (1 update, 2 pin lists).');
    expect(second?.markdown).toContain('· 3 of them drift (1 update, 2 pin lists)**');

    // Night 3: nothing repaired them (a report only): found again, already so when last read; Ana joined, reached by the group's glob.
    expect(labels(third?.plan as Plan)).toEqual([
      `update Big renewals outside ${night(2)} already`,
      `pin lena.fischer@acme.test outside ${night(2)} already`,
      `pin mia.chen@acme.test outside ${night(2)} already`,
      'pin new.ana@acme.test membership',
    ]);
    expect(third?.text).toContain(
      '      already so when last read 2026-11-21 02:00 UTC: changed before, not repaired since\n',
    );
    expect(third?.text).toContain(
      '  ! drift   1 member newly reached by group "New starters" (joined, or a role changed); their deals tabs are pending  pins/new.yaml:5\n      new.ana@acme.test\n      since the members were last seen\n      apply --budget writes them, or the next apply\n',
    );

    // Night 4: the memory has seen Ana now; her list, still not written, is outside like the others.
    expect(labels(fourth?.plan as Plan).at(-1)).toBe(`pin new.ana@acme.test outside ${night(3)} already`);
  });
});

describe('the same nights without the memory', () => {
  it('labels every difference hedged, undated, and the joiner too (a joiner looks like an edit in the app)', async () => {
    const nights = await sweepNights(false);
    const third = nights[2];
    expect(labels(third?.plan as Plan)).toEqual([
      'update Big renewals unapplied-or-outside',
      'pin lena.fischer@acme.test unapplied-or-outside',
      'pin mia.chen@acme.test unapplied-or-outside',
      'pin new.ana@acme.test unapplied-or-outside',
    ]);
    expect(third?.text).toContain(
      'Not applied or changed outside viewctl since the last apply (no memory of it): applying sets them to the manifests',
    );
    expect(third?.text).toContain('      changed since it was last applied or read (no memory)\n');
    expect(third?.text).not.toContain('Changed outside viewctl');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiView } from '../../src/domain/api-types.js';
import type { Domain } from '../../src/domain/domains.js';
import type { Desired, DesiredPins, PinRef } from '../../src/domain/desired.js';
import { keyedPins, pinsValue } from '../../src/plan/desired-values.js';
import { planWorkspace } from '../../src/flows/plan-workspace.js';
import { PlanRefusedError } from '../../src/plan/refusal.js';
import { namesTouchedView } from '../../src/plan/scope.js';
import { touchedViews } from '../../src/kinds/views-after-plan.js';
import type { Change, Plan } from '../../src/plan/types.js';
import { pinsKey, type Live } from '../../src/state/types.js';
import { DEAL_DEFAULTS, RECORDING_DEFAULTS, at, declared, emptyDesired, emptyLive, view } from './fixtures.js';
import { liveClient } from './live-client.js';

/**
 * The law of `--base` plans, on random manifests now and at REF and random live states,
 * in memory: every pinned list the scoped plan reads gets the same change as in the full
 * plan (so do the views and automations, always read), and every list it skips asks for
 * the same at REF and now and names no view the plan creates, renames or deletes.
 */

const DOMAINS_USED: Domain[] = ['recordings', 'deals'];
const NAMES = ['Calls', 'Demos', 'Wins', 'Risks'];
/** Names every live state has. */
const LIVE_NAMES = NAMES.slice(0, 2);
const USERS = ['ana', 'bob', 'cy', 'dee', 'eve'].map((name) => `${name}@acme.com`);
const DEFAULTS: Record<string, ApiView[]> = { recordings: RECORDING_DEFAULTS, deals: DEAL_DEFAULTS };
const prefix = (domain: Domain): string => (domain === 'recordings' ? 'rv' : 'dv');

/** A view document's attributes: one of a few icons, so REF and now often agree. */
const icon = fc.constantFrom('phone', 'tv', 'star');

const viewsOf = (domain: Domain) =>
  fc
    .array(fc.record({ name: fc.constantFrom(...NAMES), icon, bind: fc.boolean() }), { maxLength: 3 })
    .map((docs) => docs.filter((doc, index) => docs.findIndex((other) => other.name === doc.name) === index))
    // Only views that always exist live are bound by id, so a binding is never refused.
    .map((docs) =>
      docs.map((doc) =>
        declared(
          domain,
          doc.name,
          { icon: doc.icon },
          doc.bind && LIVE_NAMES.includes(doc.name) ? { viewId: `${prefix(domain)}_${doc.name}` } : {},
        ),
      ),
    );

const refsOf = (domain: Domain): fc.Arbitrary<PinRef[]> =>
  fc.uniqueArray(
    fc.constantFrom<PinRef>(
      { name: 'Calls' },
      { name: 'Wins' },
      { name: DEFAULTS[domain]?.[0]?.name ?? '' },
      { viewId: `${prefix(domain)}_Demos` },
    ),
    {
      minLength: 1,
      maxLength: 3,
      selector: (ref) => JSON.stringify(ref),
    },
  );

function pinsDoc(userEmail: string, domain: Domain, refs: PinRef[]): DesiredPins {
  const file = `pins/${userEmail}-${domain}.yaml`;
  return {
    userEmail,
    domain,
    refs,
    unpinPrivate: false,
    source: at(file),
    refSources: refs.map((_, index) => at(file, index + 3)),
  };
}

const pinsLists = fc
  .array(fc.record({ user: fc.constantFrom(...USERS), domain: fc.constantFrom(...DOMAINS_USED) }), { maxLength: 8 })
  .chain((slots) => {
    const unique = slots.filter(
      (slot, index) => slots.findIndex((other) => other.user === slot.user && other.domain === slot.domain) === index,
    );
    return fc.tuple(...unique.map((slot) => refsOf(slot.domain).map((refs) => pinsDoc(slot.user, slot.domain, refs))));
  });

const manifests: fc.Arbitrary<Desired> = fc
  .record({
    recordings: viewsOf('recordings'),
    deals: viewsOf('deals'),
    pins: pinsLists,
    prune: fc.boolean().chain((on) => (on ? fc.boolean() : fc.constant(false))),
    color: fc.constantFrom('red', 'blue'),
  })
  .map(({ recordings, deals, pins, prune, color }) => {
    const desired = emptyDesired({ prune });
    desired.views = [...recordings, ...deals];
    desired.pins = pins;
    desired.automations = {
      source: at('automations.yaml'),
      automations: [{ name: 'Record', color, source: at('automations.yaml', 3) }],
    };
    return desired;
  });

/** REF's manifests: now's, each document kept, edited or dropped, plus now's random others. */
const baseOf = (now: Desired): fc.Arbitrary<Desired> =>
  fc
    .record({
      keepViews: fc.array(fc.boolean(), { minLength: now.views.length, maxLength: now.views.length }),
      keepPins: fc.array(fc.constantFrom('same', 'edited', 'absent'), {
        minLength: now.pins.length,
        maxLength: now.pins.length,
      }),
      other: manifests,
      samePrune: fc.boolean(),
    })
    .map(({ keepViews, keepPins, other, samePrune }) => {
      const base = structuredClone(now);
      base.views = now.views.map((doc, index) =>
        keepViews[index] === true ? doc : { ...doc, managed: { icon: 'edited' } },
      );
      base.pins = now.pins.flatMap((doc, index) => {
        const keep = keepPins[index];
        if (keep === 'absent') return [];
        return [
          keep === 'same'
            ? { ...doc, source: at('moved.yaml', 99) }
            : { ...doc, refs: [...doc.refs].reverse(), unpinPrivate: !doc.unpinPrivate },
        ];
      });
      if (!samePrune) base.workspace.prune = other.workspace.prune;
      if (other.automations !== undefined) base.automations = other.automations;
      return base;
    });

const liveState: fc.Arbitrary<Live> = fc
  .record({
    // Most names exist live, so most random lists resolve and plans are compared rather than refused.
    recordings: fc.subarray(NAMES.slice(2)).map((names) => [...LIVE_NAMES, ...names]),
    deals: fc.subarray(NAMES.slice(2)).map((names) => [...LIVE_NAMES, ...names]),
    icons: fc.array(icon, { minLength: 8, maxLength: 8 }),
    pins: fc.array(
      fc.tuple(
        fc.constantFrom(...USERS),
        fc.constantFrom(...DOMAINS_USED),
        fc.array(fc.nat(5), { minLength: 1, maxLength: 3 }),
      ),
    ),
    color: fc.constantFrom('red', 'blue'),
  })
  .map(({ recordings, deals, icons, pins, color }) => {
    const live = emptyLive();
    const viewsFor = (domain: Domain, names: string[]): ApiView[] => [
      ...names.map((name, index) => view(`${prefix(domain)}_${name}`, name, { icon: icons[index] ?? 'phone' })),
      ...(DEFAULTS[domain] ?? []),
    ];
    live.views = { recordings: viewsFor('recordings', recordings), deals: viewsFor('deals', deals) };
    for (const [user, domain, picks] of pins) {
      const listing = live.views[domain] ?? [];
      const tabs = [
        ...new Set(
          picks.map((pick) => listing[pick % listing.length]).filter((tab): tab is ApiView => tab !== undefined),
        ),
      ];
      live.pins[pinsKey(domain, user)] = tabs;
    }
    live.automations = [
      { adminAutomationId: 'aa_1', name: 'Record', color, disallowUserOverride: true, filters: [], actions: {} },
    ];
    return live;
  });

type Outcome = { plan: Plan; read: string[] } | { refused: PlanRefusedError };

async function planOf(desired: Desired, live: Live, base?: Desired): Promise<Outcome> {
  const { client, pinReads } = liveClient(live);
  try {
    const { plan } = await planWorkspace(
      desired,
      client,
      base === undefined ? {} : { scope: { base: { ref: 'main', commit: '0'.repeat(40), desired: base } } },
    );
    return { plan, read: pinReads };
  } catch (error) {
    if (error instanceof PlanRefusedError) return { refused: error };
    throw error;
  }
}

/** comparable is a change as both plans must agree on it: without the outside label and what drift adds (since when, an edited view's owner), and deletions without the pinners (only the lists read are known). */
function comparable(change: Change): unknown {
  const { origin: _origin, since: _since, ...rest } = change;
  if (rest.action === 'update') {
    const { ownerId: _id, ownerEmail: _email, ...update } = rest;
    return update;
  }
  return rest.action === 'delete' ? { ...rest, pinnedBy: [] } : rest;
}

describe('--base plans on random manifests, REF and live states', () => {
  it("read lists get the full plan's change; skipped lists are unchanged since REF and name no touched view", async () => {
    const tally = { compared: 0, refused: 0, skipped: 0 };
    await fc.assert(
      fc.asyncProperty(
        manifests.chain((now) => fc.tuple(fc.constant(now), baseOf(now), liveState)),
        async ([now, base, live]) => {
          const full = await planOf(now, live);
          const scoped = await planOf(now, live, base);
          const skippedFiles = new Set<string>();
          if ('plan' in scoped) {
            const read = new Set(scoped.read);
            const before = new Map(keyedPins(base).map((entry) => [entry.key, pinsValue(entry.pins)]));
            const touched = touchedViews(scoped.plan.changes);
            for (const entry of keyedPins(now)) {
              if (read.has(entry.key)) continue;
              tally.skipped += 1;
              skippedFiles.add(entry.pins.source.file);
              expect(before.get(entry.key)).toBe(pinsValue(entry.pins));
              expect(namesTouchedView(entry.pins, touched)).toBe(false);
            }
            expect(scoped.plan.scope?.unread).toBe(now.pins.length - read.size);
          }
          if ('refused' in full) {
            tally.refused += 1;
            // The scoped plan may miss only the refusals of lists it did not read.
            if ('plan' in scoped) {
              for (const reason of full.refused.reasons) expect(skippedFiles.has(reason.source?.file ?? '')).toBe(true);
            }
            return;
          }
          expect('plan' in scoped).toBe(true);
          if (!('plan' in scoped)) return;
          const read = new Set(scoped.read.map((key) => `pins:${key}`));
          const fullByTarget = new Map(full.plan.changes.map((change) => [change.target, change]));
          const scopedTargets = new Set(scoped.plan.changes.map((change) => change.target));
          for (const change of full.plan.changes) {
            if (change.action === 'pin' && !read.has(change.target)) continue;
            expect(scopedTargets.has(change.target)).toBe(true);
          }
          for (const change of scoped.plan.changes) {
            expect(comparable(change)).toEqual(comparable(fullByTarget.get(change.target) ?? ({} as Change)));
            expect(scoped.plan.liveHashes[change.target]).toBe(full.plan.liveHashes[change.target]);
          }
          tally.compared += 1;
        },
      ),
      { numRuns: 300, seed: 20_261_123 },
    );
    // The generators reach every branch: compared plans, refused ones, and skipped lists.
    expect(tally.compared).toBeGreaterThan(50);
    expect(tally.refused).toBeGreaterThan(5);
    expect(tally.skipped).toBeGreaterThan(50);
  });
});

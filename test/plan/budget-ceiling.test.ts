import { describe, expect, it } from 'vitest';
import type { Desired } from '../../src/domain/desired.js';
import { ServiceError, ViewctlError } from '../../src/errors.js';
import { planWorkspace } from '../../src/flows/plan-workspace.js';
import type { ScopeRequest } from '../../src/plan/scope-reads.js';
import { scopeText } from '../../src/render/format.js';
import { at, emptyDesired, emptyLive, pinsOf } from './fixtures.js';
import { liveClient } from './live-client.js';

/**
 * The ceiling of a plan's reads (README, "Scoped and budgeted plans"): at most
 * `--budget N`, never more than what the service says is left today less `--reserve`;
 * refused after the first request when not even the fixed reads fit; the least a
 * refusal prints is one that then works.
 */

const DAY = { now: () => Date.parse('2026-03-02T12:00:00Z') };

function members(count: number): Desired {
  const desired = emptyDesired();
  desired.pins = Array.from({ length: count }, (_, index) =>
    pinsOf(`m${String(index).padStart(3, '0')}@acme.com`, 'recordings', [{ name: 'All recordings' }]),
  );
  return desired;
}

/** aGroup is one group document for every member of the fixture workspace: the plan must read the users. */
function aGroup(): Desired {
  const desired = emptyDesired();
  const refs = [{ name: 'All recordings' }];
  desired.pinGroups = [
    {
      group: { name: 'Everyone', source: at('pins/everyone.yaml') },
      users: [{ pattern: '*@acme.com', isGlob: true, source: at('pins/everyone.yaml', 3) }],
      roles: [],
      domain: 'recordings',
      refs,
      unpinPrivate: false,
      source: at('pins/everyone.yaml', 4),
      refSources: [at('pins/everyone.yaml', 5)],
    },
  ];
  return desired;
}

async function refusal(promise: Promise<unknown>): Promise<ViewctlError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ViewctlError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

/** leastOf reads the budget a refusal advises. */
function leastOf(error: ViewctlError): number {
  const match = /at least ([\d,]+)/.exec(error.hint ?? '');
  if (match === null) throw new Error(`no least in ${error.hint ?? '(no hint)'}`);
  return Number((match[1] ?? '').replace(/,/g, ''));
}

describe('planWorkspace under a ceiling', () => {
  it('lowers a budget to what is left today less the reserve, says so, and never dips into the reserve', async () => {
    // 310 left: the ceiling is 10 of the budget's 1,000; the workspace and the listing leave 8 lists of 10.
    const { client, routes, pinReads } = liveClient(emptyLive(), 310);
    const { plan } = await planWorkspace(members(10), client, { scope: { budget: 1000, reserve: 300 }, clock: DAY });
    expect(routes).toHaveLength(10);
    expect(pinReads).toHaveLength(8);
    expect(client.stats().dailyRemaining).toBe(300);
    expect(plan.requests.ceiling).toEqual({ most: 10, left: 310, reserve: 300 });
    expect(plan.scope).toMatchObject({ budget: 1000, lists: 10, unread: 2, coverage: { order: 'rotation', due: 2 } });
    expect(scopeText(plan)).toBe(
      "Scope: read 8 of 10 pinned lists (--budget 1,000 lowered to 10, the 310 left today less --reserve 300; this night's share of a 2-night rotation by a hash of each list's key, and the lists due soonest after it; 2 due within 1 night; every list is read within 2 nights at this budget); the 2 unread lists were not checked for drift.",
    );
  });

  it('keeps the budget, and says nothing of a ceiling, when what is left less the reserve pays for it', async () => {
    const { client, routes } = liveClient(emptyLive(), 2981);
    const { plan } = await planWorkspace(members(10), client, { scope: { budget: 6, reserve: 300 }, clock: DAY });
    expect(routes).toHaveLength(6);
    expect(plan.requests.ceiling).toBeUndefined();
    expect(scopeText(plan)).toContain("(--budget 6: this night's share of a");
  });

  it('refuses after the first request, with the figures and the ways out, when what is left less the reserve cannot pay the fixed reads', async () => {
    const { client, routes, pinReads } = liveClient(emptyLive(), 302);
    const error = await refusal(
      planWorkspace(members(10), client, { scope: { budget: 1000, reserve: 300 }, clock: DAY }),
    );
    expect(error.code).toBe('plan.exceeds-daily-quota');
    expect(error.message).toBe(
      'the plan reads at least 3 requests (the workspace, the 1 view listing and a pinned list), but the service says 302 are left today and --reserve keeps 300 of them for the other integrations that share the quota; only the workspace was read',
    );
    expect(error.hint).toMatch(/wait until requests free up.*lower --reserve.*--reserve 0.*--base REF/);
    expect(routes).toEqual(['/v1/workspaces/mine']);
    expect(pinReads).toEqual([]);
  });

  it('with --reserve 0, spends down to what is left', async () => {
    const { client, pinReads } = liveClient(emptyLive(), 12);
    const { plan } = await planWorkspace(members(10), client, { scope: { budget: 1000, reserve: 0 }, clock: DAY });
    expect(pinReads).toHaveLength(10);
    expect(client.stats().dailyRemaining).toBe(0);
    expect(plan.requests.ceiling).toEqual({ most: 12, left: 12, reserve: 0 });
    expect(scopeText(plan)).toContain('(--budget 1,000 lowered to 12, the 12 left today)');
  });

  it('without a budget, keeps the reserve too: lists that would dip into it are refused before the first is read', async () => {
    const reserve = (value: number): ScopeRequest => ({ reserve: value });
    const short = liveClient(emptyLive(), 310);
    const error = await refusal(planWorkspace(members(10), short.client, { scope: reserve(300) }));
    expect(error.code).toBe('plan.exceeds-daily-quota');
    expect(error.message).toContain(
      'the plan needs 10 requests to read every pinned list, but the service says 308 are left today and --reserve keeps 300 of them',
    );
    expect(short.pinReads).toEqual([]);
    const spent = liveClient(emptyLive(), 310);
    await planWorkspace(members(10), spent.client, { scope: reserve(0) });
    expect(spent.pinReads).toHaveLength(10);
  });

  it('prints, for --budget 0, a least that counts the users and then works', async () => {
    const first = liveClient(emptyLive());
    const error = await refusal(planWorkspace(aGroup(), first.client, { scope: { budget: 0 }, clock: DAY }));
    expect(first.routes).toEqual([]);
    expect(error.code).toBe('usage.budget-too-small');
    expect(error.message).toContain('the users');
    const least = leastOf(error);
    // The workspace, the recordings listing, one page of users and one pinned list.
    expect(least).toBe(4);
    const works = liveClient(emptyLive());
    const { plan } = await planWorkspace(aGroup(), works.client, { scope: { budget: least }, clock: DAY });
    expect(works.routes.length).toBeLessThanOrEqual(least);
    expect(works.pinReads).toHaveLength(1);
    expect(plan.scope).toMatchObject({ budget: least, unread: 3 });
    await expect(
      planWorkspace(aGroup(), liveClient(emptyLive()).client, { scope: { budget: least - 1 }, clock: DAY }),
    ).rejects.toMatchObject({ code: 'usage.budget-too-small' });
  });

  it("counts the users by the workspace's member count, read in the first request, and that least then works", async () => {
    const live = emptyLive();
    live.workspace.membersCount = 250;
    const first = liveClient(live);
    const error = await refusal(planWorkspace(aGroup(), first.client, { scope: { budget: 3 }, clock: DAY }));
    expect(first.routes).toEqual(['/v1/workspaces/mine']);
    expect(error.message).toContain('the users (3 requests for 250 members)');
    expect(error.message).toContain('only the workspace was read');
    const least = leastOf(error);
    expect(least).toBe(6);
    const works = liveClient(live);
    await planWorkspace(aGroup(), works.client, { scope: { budget: least }, clock: DAY });
    expect(works.routes.length).toBeLessThanOrEqual(least);
    expect(works.pinReads.length).toBeGreaterThan(0);
  });
});

describe('a budgeted plan whose list read fails past its retries', () => {
  const unavailable = new ServiceError('service.unavailable', 'the service answered 503 after 5 attempts', {
    endpoint: 'GET /v1/deals/views/pinned',
    status: 503,
  });
  const twoDomains = (): Desired => {
    const desired = members(3);
    desired.pins.push(pinsOf('m000@acme.com', 'deals', [{ name: 'All deals' }]));
    return desired;
  };

  it('leaves that list for a later night and plans the others, saying so', async () => {
    const { client } = liveClient(emptyLive(), null, new Map([['/v1/deals/views/pinned', unavailable]]));
    const { plan } = await planWorkspace(twoDomains(), client, { scope: { budget: 100, reserve: 0 }, clock: DAY });
    expect(plan.scope?.crowdedOut?.lists).toBe(1);
    expect(scopeText(plan)).toMatch(/1 list more was left unread: the service failed requests/);
  });

  it('without a budget fails: a reviewer sees every list or none', async () => {
    const { client } = liveClient(emptyLive(), null, new Map([['/v1/deals/views/pinned', unavailable]]));
    const error = await refusal(planWorkspace(twoDomains(), client, {}));
    expect(error.code).toBe('service.unavailable');
  });
});

import { describe, expect, it } from 'vitest';
import { chooseMemberPinReads, deletedDomains, memberReadsNotice } from '../../src/plan/member-pin-reads.js';
import { computePlan } from '../../src/plan/diff.js';
import type { Change } from '../../src/plan/types.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { renderText } from '../../src/render/text.js';
import { mixedScenario } from './fixtures.js';

/** `plan --pinned-by`: which members' lists are read to count who pins a deleted view, and what the deletion then says. */

const users = [
  { email: 'zoe@acme.com', state: 'Active' as const },
  { email: 'ann@acme.com', state: 'Active' as const },
  { email: 'gone@acme.com', state: 'Deactivated' as const },
  { email: 'max@acme.com', state: 'Active' as const },
];

describe('chooseMemberPinReads', () => {
  it("reads every active member's list of each deleted domain that the plan did not read, in domain then email order", () => {
    const chosen = chooseMemberPinReads(['deals', 'recordings'], users, new Set(['deals:max@acme.com']), 100);
    expect(chosen.read.map((list) => list.key)).toEqual([
      'deals:ann@acme.com',
      'deals:zoe@acme.com',
      'recordings:ann@acme.com',
      'recordings:max@acme.com',
      'recordings:zoe@acme.com',
    ]);
    expect(chosen.byDomain).toEqual({ deals: { lists: 3, unread: 0 }, recordings: { lists: 3, unread: 0 } });
  });

  it('reads only what the room pays for and counts the rest as unread, per domain', () => {
    const chosen = chooseMemberPinReads(['deals', 'recordings'], users, new Set(), 4);
    expect(chosen.read).toHaveLength(4);
    expect(chosen.byDomain).toEqual({ deals: { lists: 3, unread: 0 }, recordings: { lists: 3, unread: 2 } });
    expect(chooseMemberPinReads(['deals'], users, new Set(), 0).byDomain).toEqual({ deals: { lists: 3, unread: 3 } });
  });

  it('says the cost before the reads, and how many do not fit', () => {
    const chosen = chooseMemberPinReads(['deals', 'recordings'], users, new Set(), 4);
    expect(memberReadsNotice(chosen, ['deals', 'recordings'], '--budget 50')).toBe(
      '--pinned-by: reading 4 more pinned lists (4 requests) to count who pins the views this plan deletes in deals, recordings; 2 not read (--budget 50 has no room for them)',
    );
  });

  it('looks only at the domains whose views the plan deletes', () => {
    const changes = [
      { action: 'delete', domain: 'recordings' },
      { action: 'create', domain: 'deals' },
      { action: 'delete', domain: 'deals' },
    ] as unknown as Change[];
    expect(deletedDomains(changes)).toEqual(['deals', 'recordings']);
  });
});

describe("a deletion counted over every active member's list", () => {
  // mixedScenario deletes Old pipeline (dv_9, a deal view), pinned by Max, Mia and Zoe.
  it('says how many members pin it, read today, in text and markdown', () => {
    const { desired, live } = mixedScenario();
    const { plan } = computePlan(desired, live, { memberLists: { deals: { lists: 32, unread: 0 } } });
    expect(plan.changes.find((change) => change.action === 'delete')).toMatchObject({
      pinLists: { read: 32, unread: 0, members: true },
    });
    expect(renderText(plan, { color: false })).toContain(
      '"Old pipeline" (dv_9), owner max@acme.com, pinned by 3 members (read today)\n',
    );
    expect(renderMarkdown(plan, { color: false })).toContain('pinned by 3 members (read today)) |');
  });

  it('says how many lists the room left unread', () => {
    const { desired, live } = mixedScenario();
    const { plan } = computePlan(desired, live, { memberLists: { deals: { lists: 32, unread: 12 } } });
    expect(renderText(plan, { color: false })).toContain(
      "pinned by 3 of the 20 members' deals lists read today; 12 lists not read (no room left; they may pin it too)\n",
    );
  });
});

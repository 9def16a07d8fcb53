import { describe, expect, it } from 'vitest';
import { checkRepairBase, chooseRepairs, repairReadBudget, type ManifestsCommit } from '../../src/apply/repair.js';
import { repairSection } from '../../src/apply/repair-report.js';
import { repairLines } from '../../src/render/apply-report.js';
import { EXIT } from '../../src/errors.js';
import { planWorkspace } from '../../src/flows/plan-workspace.js';
import type { Plan } from '../../src/plan/types.js';
import type { LastApplied, SweepMemory } from '../../src/state/sweep-memory.js';
import { mixedScenario } from '../plan/fixtures.js';
import { liveClient } from '../plan/live-client.js';
import { viewctlErrorOf } from '../support/errors.js';

const HEAD = 'abc1234'.padEnd(40, '0');
const OLDER = 'def5678'.padEnd(40, '0');

const DIGEST = 'd'.repeat(64);

/** memoryOf is a sweep memory by hand, its last applied commit `commit` (none when undefined), of DIGEST at `manifests`. */
function memoryOf(commit: string | undefined, recorded: Partial<LastApplied> = {}): SweepMemory {
  return {
    formatVersion: 1,
    lists: {},
    views: {},
    members: {},
    ...(commit === undefined
      ? {}
      : { lastApplied: { commit, at: '2026-11-20T02:00:00Z', digest: DIGEST, paths: ['manifests'], ...recorded } }),
  };
}

/** at is what self-heal found of the manifests it loaded: `manifests`, of DIGEST, every file tracked, unless told. */
function at(found: Pick<ManifestsCommit, 'commit' | 'clean'> & Partial<ManifestsCommit>): ManifestsCommit {
  return { paths: ['manifests'], digest: DIGEST, untracked: [], ...found };
}

describe('checkRepairBase: self-heal runs only on the manifests last applied', () => {
  it('lets a clean HEAD that is the last applied commit through', () => {
    expect(viewctlErrorOf(() => checkRepairBase(memoryOf(HEAD), at({ commit: HEAD, clean: true })))).toBeUndefined();
  });

  it('refuses (exit 3) manifests at another commit, naming both and the way out', () => {
    const error = viewctlErrorOf(() => checkRepairBase(memoryOf(OLDER), at({ commit: HEAD, clean: true })));
    expect([error?.code, error?.exitCode]).toEqual(['apply.review-due', EXIT.refused]);
    expect(error?.message).toBe(
      'a reviewed apply is due: the manifests at HEAD (abc1234) are not the last applied (def5678), or the checkout lacks that commit to compare them; nothing was read or written',
    );
    expect(error?.hint).toContain('viewctl apply --plan plan.json --ledger FILE');
    expect(error?.hint).toContain('viewctl plan --budget N');
  });

  it("lets HEAD through when git found its manifests the same as the last applied commit's (only other files changed since)", () => {
    expect(
      viewctlErrorOf(() => checkRepairBase(memoryOf(OLDER), at({ commit: HEAD, clean: true, sameManifestsAs: OLDER }))),
    ).toBeUndefined();
    expect(
      viewctlErrorOf(() =>
        checkRepairBase(memoryOf(OLDER), at({ commit: HEAD, clean: true, sameManifestsAs: 'f'.repeat(40) })),
      )?.code,
    ).toBe('apply.review-due');
    expect(
      viewctlErrorOf(() => checkRepairBase(memoryOf(OLDER), at({ commit: HEAD, clean: false, sameManifestsAs: OLDER })))
        ?.message,
    ).toContain('uncommitted edits');
  });

  it('says to fetch the history when the checkout lacks the last applied commit (a shallow clone), rather than that a merge is not applied', () => {
    const error = viewctlErrorOf(() =>
      checkRepairBase(memoryOf(OLDER), at({ commit: HEAD, clean: true, lacks: OLDER })),
    );
    expect([error?.code, error?.exitCode]).toEqual(['apply.review-due', EXIT.refused]);
    expect(error?.message).toBe(
      'self-heal cannot tell whether a reviewed apply is due: the checkout lacks the last applied commit (def5678), so git cannot tell whether the manifests at HEAD (abc1234) are the same (a shallow clone); nothing was read or written',
    );
    expect(error?.hint).toContain('fetch-depth: 0');
    expect(error?.hint).toContain('git fetch --unshallow');
  });

  it('refuses uncommitted edits, manifests outside git and a memory that records no apply', () => {
    expect(
      viewctlErrorOf(() => checkRepairBase(memoryOf(HEAD), at({ commit: HEAD, clean: false })))?.message,
    ).toContain('uncommitted edits since HEAD (abc1234)');
    expect(viewctlErrorOf(() => checkRepairBase(memoryOf(HEAD), undefined))?.message).toContain(
      'not in a git repository',
    );
    const none = viewctlErrorOf(() => checkRepairBase(memoryOf(undefined), at({ commit: HEAD, clean: true })));
    expect([none?.code, none?.exitCode]).toEqual(['apply.review-due', EXIT.refused]);
    expect(none?.message).toContain('records no apply yet');
  });

  it('refuses the last applied commit when it is not HEAD nor an ancestor of HEAD (another branch, another repository)', () => {
    const error = viewctlErrorOf(() =>
      checkRepairBase(memoryOf(OLDER), at({ commit: HEAD, clean: true, offHistory: OLDER })),
    );
    expect([error?.code, error?.exitCode]).toEqual(['apply.review-due', EXIT.refused]);
    expect(error?.message).toContain('HEAD (abc1234) is not the last applied (def5678) nor a commit after it');
  });

  it('refuses files git does not track at HEAD, whatever the memory says', () => {
    const untracked = ['m/a.local.yaml is not a file git tracks at HEAD (git ignores it)'];
    const error = viewctlErrorOf(() => checkRepairBase(memoryOf(HEAD), at({ commit: HEAD, clean: true, untracked })));
    expect([error?.code, error?.exitCode]).toEqual(['apply.review-due', EXIT.refused]);
    expect(error?.message).toBe(
      'a reviewed apply is due: m/a.local.yaml is not a file git tracks at HEAD (git ignores it): only what git tracks was reviewed; nothing was read or written',
    );
  });

  it('refuses other paths, another desired state, and a record without its digest (an earlier memory)', () => {
    expect(
      viewctlErrorOf(() => checkRepairBase(memoryOf(HEAD), at({ commit: HEAD, clean: true, paths: ['draft'] })))
        ?.message,
    ).toContain('self-heal loaded the manifests at draft, but the last reviewed apply carried out those at manifests');
    expect(
      viewctlErrorOf(() => checkRepairBase(memoryOf(HEAD), at({ commit: HEAD, clean: true, digest: 'e'.repeat(64) })))
        ?.message,
    ).toContain('the desired state loaded now is not the one the last reviewed apply carried out');
    const old = memoryOf(HEAD);
    if (old.lastApplied !== undefined) old.lastApplied = { commit: HEAD, at: old.lastApplied.at };
    const error = viewctlErrorOf(() => checkRepairBase(old, at({ commit: HEAD, clean: true })));
    expect([error?.code, error?.exitCode]).toEqual(['apply.review-due', EXIT.refused]);
    expect(error?.message).toContain('does not record which desired state was applied');
    expect(error?.message).toContain('a full reviewed apply records it');
  });

  it('without any memory says --ledger FILE is needed (a usage error, exit 1)', () => {
    const error = viewctlErrorOf(() => checkRepairBase(undefined, at({ commit: HEAD, clean: true })));
    expect([error?.code, error?.exitCode]).toEqual(['usage.budget-without-ledger', EXIT.error]);
    expect(error?.hint).toContain('--ledger FILE');
  });
});

describe('repairReadBudget', () => {
  it('keeps a fifth of the budget, rounded up, for the writes and their verification', () => {
    expect([repairReadBudget(1000), repairReadBudget(12), repairReadBudget(1)]).toEqual([800, 9, 0]);
  });
});

/** mixedPlan is a plan of one of each action: a create, an update, a prune deletion, a pinned list naming the new view, automation drift. */
async function mixedPlan(): Promise<Plan> {
  const { desired, live } = mixedScenario();
  return (await planWorkspace(desired, liveClient(live).client)).plan;
}

const actions = (plan: Plan, indexes: readonly number[]): string[] =>
  indexes.map((index) => `${plan.changes[index]?.action} ${plan.changes[index]?.name}`);

describe('chooseRepairs: what the kinds call repairable, within the room left', () => {
  it('repairs creates, updates and pinned lists, and leaves the prune deletion (and drift, never applied) out', async () => {
    const plan = await mixedPlan();
    const choice = chooseRepairs(plan, 100, { given: 100, reads: 80 });
    expect(actions(plan, choice.repaired)).toEqual([
      'create Team calls',
      'update Zoom and Meet calls',
      'pin mia@acme.com',
    ]);
    expect(actions(plan, choice.leftForReview)).toEqual(['delete Old pipeline']);
    expect(choice.leftForNextNight).toEqual([]);
    // Three writes and one recordings listing that verifies the create and the update.
    expect(choice.requests).toBe(4);
  });

  it('leaves for a reviewed apply the changes of targets the last apply held: no reviewer saw them', async () => {
    const plan = await mixedPlan();
    const create = plan.changes.find((change) => change.action === 'create');
    const pins = plan.changes.find((change) => change.action === 'pin');
    const choice = chooseRepairs(
      plan,
      100,
      { given: 100, reads: 80 },
      new Set([create?.target ?? '', pins?.target ?? '']),
    );
    expect(actions(plan, choice.heldWhenApplied)).toEqual(['create Team calls', 'pin mia@acme.com']);
    expect(actions(plan, choice.repaired)).toEqual(['update Zoom and Meet calls']);
    expect(repairLines(repairSection(plan, choice, new Set(choice.repaired)))).toContain(
      'Left for a reviewed apply (held when the manifests were last applied, so no reviewer saw these changes): 1 view ("Team calls"), 1 pin list (member mia@acme.com).',
    );
  });

  it('says why a pinned list naming a held create is left: it waits for that reviewed apply, not for the next night', async () => {
    const plan = await mixedPlan();
    const create = plan.changes.find((change) => change.action === 'create');
    const choice = chooseRepairs(plan, 100, { given: 100, reads: 80 }, new Set([create?.target ?? '']));
    expect(actions(plan, choice.heldWhenApplied)).toEqual(['create Team calls']);
    expect(actions(plan, choice.waitingForReview)).toEqual(['pin mia@acme.com']);
    expect(choice.leftForNextNight).toEqual([]);
    const lines = repairLines(repairSection(plan, choice, new Set(choice.repaired)));
    expect(lines).toContain(
      'Left for a reviewed apply (they name a view left for one): 1 pin list (member mia@acme.com).',
    );
    expect(lines.some((line) => line.startsWith('Left for the next night'))).toBe(false);
  });

  it("leaves a held view's manifest whichever key the change names it by: a held create is keyed by name, a bound id held as not found by id", async () => {
    const plan = await mixedPlan();
    const create = plan.changes.find((change) => change.action === 'create');
    const update = plan.changes.find((change) => change.action === 'update');
    if (create?.action !== 'create' || update?.action !== 'update')
      throw new Error('the mixed plan has a create and an update');
    // The create held (its creator left) comes back as an update of the view of that name someone created in the app since.
    const byName = chooseRepairs(
      plan,
      100,
      { given: 100, reads: 80 },
      new Set([`view:${update.domain}:name:${update.name}`]),
    );
    expect(actions(plan, byName.heldWhenApplied)).toEqual(['update Zoom and Meet calls']);
    // The re-create of a view deleted in the app is its bound id's manifest: while that id
    // is still held (`holdsNow`: a cause not known to be the view's deletion), it is left too.
    Object.assign(create, { deletedOutside: { id: 'v_gone', lastSeen: '2026-11-20T02:00:00Z' } });
    const byId = chooseRepairs(plan, 100, { given: 100, reads: 80 }, new Set([`view:${create.domain}:id:v_gone`]));
    expect(actions(plan, byId.heldWhenApplied)).toEqual(['create Team calls']);
    // Once its hold ended (held for the view's deletion, now known), the re-create is an ordinary repair.
    const ended = chooseRepairs(plan, 100, { given: 100, reads: 80 }, new Set());
    expect(actions(plan, ended.repaired)).toContain('create Team calls');
    // Held by name (its creator had left), it is still left for a reviewed apply.
    const creatorHeld = chooseRepairs(plan, 100, { given: 100, reads: 80 }, new Set([create.target]));
    expect(actions(plan, creatorHeld.heldWhenApplied)).toEqual(['create Team calls']);
  });

  it('cuts what does not fit for the next night, and a pinned list naming a view goes only with its create', async () => {
    const plan = await mixedPlan();
    const three = chooseRepairs(plan, 3, { given: 100, reads: 80 });
    expect(actions(plan, three.repaired)).toEqual(['create Team calls', 'update Zoom and Meet calls']);
    expect(actions(plan, three.leftForNextNight)).toEqual(['pin mia@acme.com']);
    // One request would pay for the pinned list's write, but it names "Team calls", which is not created.
    const one = chooseRepairs(plan, 1, { given: 100, reads: 80 });
    expect(one.repaired).toEqual([]);
    expect(actions(plan, one.leftForNextNight)).toEqual(['create Team calls', 'update Zoom and Meet calls']);
    // Its real reason is the create it names, not room of its own: it says so on a line of its own.
    expect(actions(plan, one.waitingForCreate)).toEqual(['pin mia@acme.com']);
    expect(repairLines(repairSection(plan, one, new Set()))).toContain(
      'Left for the next night (they name a view whose create is left for it, and go with it): 1 pin list (member mia@acme.com).',
    );
  });
});

describe('repairLines: what a self-heal run says it did', () => {
  it('groups what landed as the kinds count it, with what was left for a review and for the next night', async () => {
    const plan = await mixedPlan();
    const choice = chooseRepairs(plan, 3, { given: 100, reads: 80 });
    const section = repairSection(plan, choice, new Set(choice.repaired));
    expect(section.repaired).toEqual([
      { what: 'view re-created', count: 1, names: ['Team calls'] },
      { what: "view's attributes", count: 1, names: ['Zoom and Meet calls'] },
    ]);
    expect(repairLines(section)).toEqual([
      'Repaired: 1 view re-created ("Team calls"), 1 view\'s attributes ("Zoom and Meet calls").',
      'Left for a reviewed apply (self-heal never carries them out): 1 deletion ("Old pipeline").',
      'Left for the next night (--budget 100 had no room left for their writes and verification after reads of at most 80): 1 pin list (member mia@acme.com).',
      'Shown, never applied (fix them in the workspace settings): 1 automation drift ("Record external meetings").',
    ]);
    expect(repairLines({ ...section, held: 2 }).at(-1)).toBe(
      'Held, neither planned nor repaired (the plan above says why): 2 targets.',
    );
  });

  it('counts only the repairs that landed, and names a member once across domains', () => {
    const pin = (userEmail: string, domain: 'deals' | 'recordings') => ({
      action: 'pin',
      target: `pins:${domain}:${userEmail}`,
      kind: 'PinnedViews',
      name: `${userEmail} ${domain}`,
      userEmail,
      domain,
      before: [],
      after: [],
    });
    const plan = {
      changes: [pin('a@x.test', 'deals'), pin('a@x.test', 'recordings'), pin('b@x.test', 'deals')],
    } as unknown as Plan;
    const choice = {
      repaired: [0, 1, 2],
      leftForReview: [],
      heldWhenApplied: [],
      waitingForReview: [],
      waitingForCreate: [],
      leftForNextNight: [],
      requests: 3,
      budget: { given: 10, reads: 8 },
    };
    expect(repairLines(repairSection(plan, choice, new Set([0, 1])))).toEqual([
      'Repaired: 2 pin lists (member a@x.test).',
    ]);
    expect(repairLines(repairSection(plan, choice, new Set()))).toEqual(['Repaired: nothing.']);
  });
});

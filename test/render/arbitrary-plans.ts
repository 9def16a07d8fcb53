import fc from 'fast-check';
import type { Domain, ViewKind } from '../../src/domain/domains.js';
import {
  PLAN_FORMAT_VERSION,
  type Change,
  type CreateChange,
  type DeleteChange,
  type DriftChange,
  type PinChange,
  type PinnedTab,
  type Plan,
  type PlanWarning,
  type UpdateChange,
  type ViewSnapshot,
} from '../../src/plan/types.js';
import { at } from '../plan/fixtures.js';

/**
 * Random plans at the scale a comment has to survive, built as data (the renderers read
 * nothing else): many groups and members, hundreds of creates, updates and deletions,
 * drift, changes of every origin and warnings, with names in several scripts and
 * markdown punctuation. The deletions and the outside changes stay within what one
 * comment can name (at most 250 deletions and 150 outside changes, names of at most 30
 * characters): beyond that the comment names as many as fit and says how many it could not.
 */

const RECORDINGS = { kind: 'RecordingView', domain: 'recordings', prefix: 'rv' } as const satisfies {
  kind: ViewKind;
  domain: Domain;
  prefix: string;
};
const DEALS = { kind: 'DealView', domain: 'deals', prefix: 'dv' } as const satisfies {
  kind: ViewKind;
  domain: Domain;
  prefix: string;
};
/** kindAt alternates the two view domains. */
const kindAt = (index: number): typeof RECORDINGS | typeof DEALS => (index % 2 === 0 ? RECORDINGS : DEALS);

/** A name: words from several scripts, markdown punctuation included, at most 30 characters. */
const name = fc
  .array(
    fc.constantFrom(
      'Calls',
      'Deals',
      'Ünïcode',
      '日本語',
      'a|b',
      '*bold*',
      '`code`',
      '<img>',
      '👩‍💻',
      'x_y',
      'www.x.io',
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((words) => words.join(' ').slice(0, 24));
// Lengths spread up to each array's maxLength (`size: 'max'`): fast-check's default keeps arrays short.

const labels = fc.array(fc.constantFrom('lbl_a', 'lbl_b', 'lbl_c', 'lbl_d', 'lbl_e', 'lbl_f'), {
  maxLength: 6,
  size: 'max',
});
const folder = fc.constantFrom('views/recordings/', 'views/deals/', 'team/', 'legacy/views/');

/** GenPlanShape is what a generated plan holds, before the names are made unique. */
interface GenPlanShape {
  groups: Array<{ name: string; domain: Domain; members: number; privates: number; unpin: boolean; outside: boolean }>;
  pins: Array<{ outside: boolean }>;
  creates: Array<{ name: string; folder: string; labels: string[]; outside: boolean }>;
  updates: Array<{ name: string; folder: string; labels: string[]; outside: boolean }>;
  deletes: Array<{ name: string; owner: string; pinnedBy: number; labels: string[]; outside: boolean }>;
  drifts: Array<{ name: string; outside: boolean }>;
  warnings: PlanWarning[];
}

const outside = fc.nat(9).map((roll) => roll === 0);

const shape: fc.Arbitrary<GenPlanShape> = fc.record({
  groups: fc.array(
    fc.record({
      name,
      domain: fc.constantFrom<Domain>('recordings', 'deals'),
      members: fc.integer({ min: 1, max: 400 }),
      privates: fc.nat(20),
      unpin: fc.boolean(),
      outside: fc.nat(19).map((roll) => roll === 0),
    }),
    { maxLength: 6, size: 'max' },
  ),
  // Each in a folder of its own among many: rows one by one, more than a comment holds.
  pins: fc.array(fc.record({ outside }), { maxLength: 1500, size: 'max' }),
  creates: fc.array(fc.record({ name, folder, labels, outside }), { maxLength: 1500, size: 'max' }),
  updates: fc.array(fc.record({ name, folder, labels, outside }), { maxLength: 300, size: 'max' }),
  deletes: fc.array(
    fc.record({
      name,
      owner: fc.constantFrom('ops@acme.com', 'max@acme.com', 'u_gone'),
      pinnedBy: fc.nat(30),
      labels,
      outside,
    }),
    { maxLength: 250, size: 'max' },
  ),
  drifts: fc.array(fc.record({ name, outside }), { maxLength: 20, size: 'max' }),
  // Warnings of up to 60 codes, each once or many times: one entry per code, or per warning with --show-warnings.
  warnings: fc.array(
    fc.record({ text: name, code: fc.nat(59), line: fc.option(fc.nat(200)) }).map(
      ({ text, code, line }): PlanWarning => ({
        code: `test.w${code}`,
        message: `ignore "${text}" keeps a view from prune`,
        ...(line === null ? {} : { source: at(`views/w${code}.yaml`, line + 1) }),
      }),
    ),
    { maxLength: 300, size: 'max' },
  ),
});

/** arbitraryPlan is a random large plan, its outside changes kept to at most 150. */
export const arbitraryPlan: fc.Arbitrary<Plan> = shape.map(buildPlan);

function view(viewName: string, labelIds: readonly string[], source: string[]): ViewSnapshot {
  return {
    name: viewName,
    icon: null,
    columns: [{ type: 'Default', columnId: 'title' }],
    filters: { labelIdIn: [...labelIds], sourceIn: source },
    sort: [],
  } as unknown as ViewSnapshot;
}

function tab(viewId: string, tabName: string, visibility: 'Public' | 'Private' = 'Public'): PinnedTab {
  return { viewId, name: tabName, visibility, isDefault: false };
}

function buildPlan(generated: GenPlanShape): Plan {
  const changes: Change[] = [];
  let outsideLeft = 150;
  // Changes the pull request did not ask for alternate between the two origins a reviewer must see.
  const origin = (wanted: boolean, count = 1): Pick<Change, 'origin'> => {
    if (!wanted || outsideLeft < count) return {};
    outsideLeft -= count;
    return { origin: outsideLeft % 2 === 0 ? 'outside' : 'unapplied-or-outside' };
  };
  generated.creates.forEach((create, index) => {
    const { kind, domain } = kindAt(index);
    const viewName = `${create.name} ${index}`;
    changes.push({
      action: 'create',
      target: `${domain}:new:${viewName}`,
      kind,
      domain,
      name: viewName,
      source: at(`${create.folder}c${index}.yaml`),
      before: null,
      after: view(viewName, create.labels, ['Zoom']),
      ...origin(create.outside),
    } satisfies CreateChange);
  });
  generated.updates.forEach((update, index) => {
    const { kind, domain, prefix } = kindAt(index);
    const viewName = `${update.name} ${index}`;
    const before = view(viewName, update.labels, ['Zoom']);
    const after = view(viewName, [...update.labels, 'lbl_new'], ['Zoom', 'MsTeams']);
    changes.push({
      action: 'update',
      target: `${domain}:${prefix}_u${index}`,
      kind,
      domain,
      id: `${prefix}_u${index}`,
      name: viewName,
      source: at(`${update.folder}u${index}.yaml`),
      before,
      after,
      patch: [{ op: 'replace', path: '/filters', value: after.filters as never }],
      ...origin(update.outside),
    } satisfies UpdateChange);
  });
  generated.deletes.forEach((deletion, index) => {
    const { kind, domain, prefix } = kindAt(index);
    const viewName = `${deletion.name} ${index}`;
    const owner = deletion.owner.includes('@') ? { ownerEmail: deletion.owner } : {};
    changes.push({
      action: 'delete',
      target: `${domain}:${prefix}_d${index}`,
      kind,
      domain,
      id: `${prefix}_d${index}`,
      name: viewName,
      before: view(viewName, deletion.labels, ['Zoom']),
      after: null,
      reason: 'prune',
      ownerId: `u_${deletion.owner}`,
      ...owner,
      pinnedBy: Array.from({ length: deletion.pinnedBy }, (_, n) => `pinner${n}@acme.com`),
      ...origin(deletion.outside),
    } satisfies DeleteChange);
  });
  let member = 0;
  generated.groups.forEach((group, groupIndex) => {
    // A group whose members changed is labelled `membership`: seen, but not named whatever the budget.
    const groupOrigin =
      group.members % 5 === 0 ? { origin: 'membership' as const } : origin(group.outside, group.members);
    for (let index = 0; index < group.members; index += 1) {
      member += 1;
      const email = `m${member}@acme.com`;
      const own = index < group.privates ? [tab(`p${member}`, `Mine ${member}`, 'Private')] : [];
      changes.push({
        action: 'pin',
        target: `pins:${group.domain}:${email}`,
        kind: 'PinnedViews',
        name: email,
        domain: group.domain,
        userEmail: email,
        group: group.name,
        source: at(`pins/group${groupIndex}.yaml`, 4, 3),
        before: [...own, tab('v1', 'All'), tab('v2', 'Pipeline')],
        after: [...(group.unpin ? [] : own), tab('v2', 'Pipeline'), tab('v3', 'At risk')],
        ...(group.unpin && own.length > 0 ? { unpinPrivate: true as const } : {}),
        ...groupOrigin,
      } satisfies PinChange);
    }
  });
  generated.pins.forEach((pin, index) => {
    member += 1;
    const email = `solo${member}@acme.com`;
    changes.push({
      action: 'pin',
      target: `pins:deals:${email}`,
      kind: 'PinnedViews',
      name: email,
      domain: 'deals',
      userEmail: email,
      source: at(`pins/team${index % 150}/solo${index}.yaml`),
      before: [tab('v1', 'All')],
      after: [tab('v3', 'At risk'), tab('v1', 'All')],
      ...origin(pin.outside),
    } satisfies PinChange);
  });
  generated.drifts.forEach((drift, index) => {
    const driftName = `${drift.name} ${index}`;
    changes.push({
      action: 'drift',
      target: `automations:${driftName}`,
      kind: 'AdminAutomation',
      name: driftName,
      id: `aa_${index}`,
      source: at('automations.yaml', index + 3),
      before: { name: driftName, color: 'blue' },
      after: { name: driftName, color: 'red' },
      differences: [{ pointer: '/color', expected: 'red', actual: 'blue' }],
      ...origin(drift.outside),
    } satisfies DriftChange);
  });
  const summary = { create: 0, update: 0, delete: 0, pin: 0, drift: 0 };
  for (const change of changes) summary[change.action] += 1;
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    workspace: { id: 'ws_123', name: 'Acme *Sales*' },
    creatorEmail: 'ops@acme.com',
    changes,
    steps: [],
    summary,
    requests: { used: 12, applyNeeds: changes.length, dailyRemaining: 2500 },
    liveHashes: {},
    scope: { base: { ref: 'origin/main', commit: 'a'.repeat(40) }, lists: 4000, unread: 3000 },
    warnings: generated.warnings,
    digest: 'd'.repeat(64),
  };
}

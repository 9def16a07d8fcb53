import { describe, expect, it } from 'vitest';
import { ViewctlError } from '../../src/errors.js';
import { selectMemberLists } from '../../src/kinds/pin-second-reads.js';
import { parseTargetSelector, selectTargets } from '../../src/plan/targets-selection.js';
import { computePlan } from '../../src/plan/diff.js';
import { parsePlanFile } from '../../src/plan/plan-file.js';
import { renderJson } from '../../src/render/json.js';
import { mixedScenario } from './fixtures.js';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof ViewctlError) return `${error.code}: ${error.message}`;
    throw error;
  }
  return undefined;
}

describe('parseTargetSelector', () => {
  it('parses the three forms; a view name may hold a slash', () => {
    expect(parseTargetSelector('RecordingView/Customer calls')).toEqual({
      type: 'view',
      kind: 'RecordingView',
      name: 'Customer calls',
    });
    expect(parseTargetSelector('ContactView/A/B')).toEqual({ type: 'view', kind: 'ContactView', name: 'A/B' });
    expect(parseTargetSelector('pins/Mia@acme.com')).toEqual({ type: 'pins', userEmail: 'Mia@acme.com' });
    expect(parseTargetSelector('automations')).toEqual({ type: 'automations' });
  });

  it('refuses anything else with usage.bad-target, naming the forms and a near-miss kind', () => {
    expect(codeOf(() => parseTargetSelector('Recordingview/Customer calls'))).toMatch(
      /^usage\.bad-target: .*did you mean "RecordingView\/Customer calls"\?/,
    );
    expect(codeOf(() => parseTargetSelector('pin/mia@acme.com'))).toMatch(/did you mean "pins\/mia@acme.com"\?/);
    expect(codeOf(() => parseTargetSelector('automation'))).toMatch(/did you mean "automations"\?/);
    expect(codeOf(() => parseTargetSelector('DealView/'))).toMatch(/^usage\.bad-target: .*names no view after the \//);
    expect(codeOf(() => parseTargetSelector('Customer calls'))).toMatch(
      /^usage\.bad-target: .*not one of the accepted forms$/,
    );
  });
});

describe('selectTargets', () => {
  it('keeps the Workspace guard, narrows to the selected targets, turns prune off and records the selectors', () => {
    const { desired } = mixedScenario();
    const selected = selectTargets(desired, [
      parseTargetSelector('DealView/Pipeline review'),
      parseTargetSelector('pins/MIA@acme.com'),
    ]);
    expect(selected.workspace).toEqual({ ...desired.workspace, prune: false });
    // Mia's recordings tabs name both declared recording views: they come along.
    expect(selected.views.map((view) => view.name)).toEqual(['Team calls', 'Zoom and Meet calls', 'Pipeline review']);
    expect(selected.pins).toEqual(desired.pins);
    expect(selected.automations).toBeUndefined();
    expect(selected.targets).toEqual(['DealView/Pipeline review', 'pins/mia@acme.com']);
  });

  it('plans only the selection: no prune delete, no drift, and the plan says it is targeted', () => {
    const { desired, live } = mixedScenario();
    const { plan } = computePlan(
      selectTargets(desired, [parseTargetSelector('RecordingView/Zoom and Meet calls')]),
      live,
    );
    expect(plan.changes.map((change) => `${change.action} ${change.name}`)).toEqual(['update Zoom and Meet calls']);
    expect(plan.targets).toEqual(['RecordingView/Zoom and Meet calls']);
    expect(plan.warnings).toEqual([]);
  });

  it('writes a plan file that fits the plan schema and reads back whole, targets included', () => {
    const { desired, live } = mixedScenario();
    const { plan } = computePlan(
      selectTargets(desired, [parseTargetSelector('RecordingView/Zoom and Meet calls')]),
      live,
    );
    expect(parsePlanFile(renderJson(plan))).toEqual(plan);
  });

  it('--target automations plans the automation drift alone: no view, no pinned list, no prune', () => {
    const { desired, live } = mixedScenario();
    const selected = selectTargets(desired, [parseTargetSelector('automations')]);
    expect(selected.automations).toBe(desired.automations);
    expect([selected.views, selected.pins]).toEqual([[], []]);
    expect(computePlan(selected, live).plan.changes.map((change) => change.action)).toEqual(['drift']);
  });

  it('refuses, all at once, targets no manifest declares (target.unknown), with a "did you mean"', () => {
    const { desired } = mixedScenario();
    const { automations: _, ...withoutAutomations } = desired;
    const message = codeOf(() =>
      selectTargets(
        withoutAutomations,
        ['RecordingView/Team cals', 'DealView/Team calls', 'pins/nobody@example.test', 'automations'].map(
          parseTargetSelector,
        ),
      ),
    );
    expect(message).toMatch(/^target\.unknown: /);
    expect(message).toContain('RecordingView/Team cals (did you mean "RecordingView/Team calls"?)');
    expect(message).toContain('DealView/Team calls, pins/nobody@example.test, automations');
  });
});

describe('selectMemberLists', () => {
  const lists = [
    { userEmail: 'Mia@acme.com', domain: 'recordings' },
    { userEmail: 'ana@acme.com', domain: 'recordings' },
    { userEmail: 'ana@acme.com', domain: 'deals' },
  ];

  it("keeps every list without pins/EMAIL, and only the named members' lists (any case) with it", () => {
    expect(selectMemberLists({}, lists)).toEqual(lists);
    expect(selectMemberLists({ pinMembers: ['ana@acme.com'] }, lists)).toEqual(lists.slice(1));
    expect(selectMemberLists({ pinMembers: ['mia@acme.com'] }, lists)).toEqual(lists.slice(0, 1));
  });

  it('refuses a named member no document reaches once the groups are expanded, before any pinned read', () => {
    expect(codeOf(() => selectMemberLists({ pinMembers: ['ana@acme.com', 'zoe@acme.com'] }, lists))).toMatch(
      /^target\.unknown: .*pins\/zoe@acme\.com; no pinned list was read$/,
    );
  });

  it('leaves a member of a group document to be found after the users are read, with the views the group names', () => {
    const { desired } = mixedScenario();
    const [own] = desired.pins;
    if (own === undefined) throw new Error('the fixture has a pin document');
    const group = {
      group: { name: 'Sales', source: own.source },
      users: [],
      roles: ['Member' as const],
      domain: own.domain,
      refs: own.refs,
      unpinPrivate: false,
      source: own.source,
      refSources: own.refSources,
    };
    const selected = selectTargets({ ...desired, pinGroups: [group] }, [parseTargetSelector('pins/someone@acme.com')]);
    expect(selected.pinMembers).toEqual(['someone@acme.com']);
    expect(selected.pinGroups).toEqual([group]);
    const named = new Set(own.refs.flatMap((ref) => ('name' in ref ? [ref.name] : [])));
    expect(selected.views.map((view) => view.name).filter((name) => named.has(name))).toEqual(
      selected.views.map((view) => view.name),
    );
    expect(selectTargets(desired, [parseTargetSelector('DealView/Pipeline review')]).pinGroups).toBeUndefined();
  });
});

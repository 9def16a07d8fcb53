import { describe, expect, it } from 'vitest';
import type { Execution } from '../../src/apply/execute.js';
import { buildOperations } from '../../src/plan/operations.js';
import { buildReport, reportExitCode } from '../../src/apply/report.js';
import { renderReportJson, renderReportText } from '../../src/render/apply-report.js';
import type { Change } from '../../src/plan/types.js';
import { handPlan, snapshot } from './plan-fixtures.js';

const changes: Change[] = [
  {
    action: 'create',
    target: 'view:recordings:name:Team',
    kind: 'RecordingView',
    name: 'Team',
    domain: 'recordings',
    before: null,
    after: snapshot('Team'),
  },
  {
    action: 'update',
    target: 'view:deals:id:dv_1',
    kind: 'DealView',
    name: 'Pipeline',
    domain: 'deals',
    id: 'dv_1',
    before: snapshot('Pipeline'),
    after: snapshot('Pipeline', { icon: 'star' }),
    patch: [],
  },
  {
    action: 'pin',
    target: 'pins:recordings:mia@acme.test',
    kind: 'PinnedViews',
    name: 'mia',
    domain: 'recordings',
    userEmail: 'mia@acme.test',
    before: [],
    after: [{ viewId: null, name: 'Team', visibility: 'Public', isDefault: false }],
  },
];
const plan = handPlan(changes);
const [create, update, pin] = buildOperations(plan);
if (create === undefined || update === undefined || pin === undefined) throw new Error('expected three operations');

describe('apply report', () => {
  it('summarises a clean run in one line, exit 0', () => {
    const execution: Execution = {
      stopped: null,
      outcomes: [
        { status: 'landed', operation: create, viewId: 'rv_5' },
        { status: 'landed', operation: update, viewId: 'dv_1' },
        { status: 'landed', operation: pin, pinned: [] },
      ],
    };
    const report = buildReport(
      plan,
      execution,
      { problems: [], domainsRead: ['recordings', 'deals'] },
      { requests: 5, elapsedMs: 1234, fromPlanFile: false },
    );
    expect(renderReportText(report, { color: false })).toBe(
      'Applied: 1 created, 1 updated, 1 pin list, 0 deleted (5 requests in 1.2 s).\n',
    );
    expect(reportExitCode(report)).toBe(0);
  });

  it('lists landed, failed and not attempted after a failure, exit 4, the same in JSON', () => {
    const execution: Execution = {
      stopped: 'failure',
      outcomes: [
        { status: 'landed', operation: create, viewId: 'rv_5', note: 'adopted' },
        {
          status: 'failed',
          operation: update,
          error: {
            code: 'service.validation',
            message: 'icon is not an emoji',
            status: 400,
            errorType: 'validation_error',
            path: 'icon',
          },
        },
        { status: 'not-attempted', operation: pin },
      ],
    };
    const report = buildReport(plan, execution, null, { requests: 3, elapsedMs: 400, fromPlanFile: false });
    expect(renderReportText(report, { color: false })).toBe(
      [
        'Apply failed part-way: 1 created, 0 updated, 0 pin lists, 0 deleted (3 requests in 0.4 s).',
        'Landed:',
        '  create  RecordingView  "Team"  rv_5  (its answer was lost; the only new view of that name was taken as this run\'s)',
        'Failed:',
        '  update  DealView  "Pipeline"  dv_1  400 validation_error: icon is not an emoji (path: icon)',
        'Not attempted:',
        '  pin     PinnedViews  "mia@acme.test recordings"  -',
        'The service refused a write: fix what the error says (in the manifests or the workspace), then run the same command again.',
        '',
      ].join('\n'),
    );
    expect(reportExitCode(report)).toBe(4);
    const json = JSON.parse(renderReportJson(report)) as typeof report;
    expect(json.landed).toEqual([
      { action: 'create', kind: 'RecordingView', name: 'Team', domain: 'recordings', id: 'rv_5', note: 'adopted' },
    ]);
    expect(json.failed[0]?.error).toMatchObject({ errorType: 'validation_error', path: 'icon' });
    expect(json.notAttempted[0]).toMatchObject({ action: 'pin', userEmail: 'mia@acme.test' });
  });

  it('reports a verification difference as partial even when every write landed', () => {
    const execution: Execution = { stopped: null, outcomes: [{ status: 'landed', operation: update, viewId: 'dv_1' }] };
    const report = buildReport(
      handPlan([changes[1] as Change]),
      execution,
      {
        problems: [
          {
            changeIndex: 0,
            kind: 'DealView',
            name: 'Pipeline',
            id: 'dv_1',
            message: 'after apply, icon differs from the plan',
          },
        ],
        domainsRead: ['deals'],
      },
      { requests: 2, elapsedMs: 100, fromPlanFile: true },
    );
    expect(reportExitCode(report)).toBe(4);
    const text = renderReportText(report, { color: false });
    expect(text).toContain(
      'Verification found 1 difference after apply:\n  DealView  "Pipeline"  dv_1  after apply, icon differs from the plan\n',
    );
    expect(text.startsWith('Applied, but the result differs from the plan: 0 created, 1 updated')).toBe(true);
    expect(text).toContain('Run viewctl plan again and apply the new plan to converge.');
  });

  it('exits 1 when nothing landed and nothing may have: the workspace is as it was', () => {
    const refusedFirst: Execution = {
      stopped: 'failure',
      outcomes: [
        {
          status: 'failed',
          operation: update,
          error: { code: 'service.validation', message: 'bad icon', status: 400, errorType: 'validation_error' },
        },
        { status: 'not-attempted', operation: pin },
      ],
    };
    expect(
      reportExitCode(buildReport(plan, refusedFirst, null, { requests: 1, elapsedMs: 10, fromPlanFile: false })),
    ).toBe(1);
  });

  it('exits 4 and lists apart every write that may have landed, though none is known to have', () => {
    const unknown: Execution = {
      stopped: 'failure',
      outcomes: [
        {
          status: 'failed',
          operation: pin,
          error: {
            code: 'service.unavailable',
            message: 'the service failed on PUT (500)',
            status: 500,
            mayHaveLanded: true,
          },
        },
        {
          status: 'failed',
          operation: update,
          error: { code: 'service.validation', message: 'bad icon', status: 400 },
        },
      ],
    };
    const report = buildReport(plan, unknown, null, { requests: 2, elapsedMs: 10, fromPlanFile: false });
    expect(reportExitCode(report)).toBe(4);
    expect(report.mayHaveLanded.map((entry) => entry.action)).toEqual(['pin']);
    expect(report.failed.map((entry) => entry.action)).toEqual(['update']);
    expect(renderReportText(report, { color: false })).toContain(
      'Landed:\n  (none)\nMay have landed (the next plan shows whether it did):\n  pin ',
    );
  });

  it('exits 1 when interrupted before the first write: nothing changed', () => {
    const execution: Execution = { stopped: 'aborted', outcomes: [{ status: 'not-attempted', operation: create }] };
    const report = buildReport(handPlan([changes[0] as Change]), execution, null, {
      requests: 0,
      elapsedMs: 0,
      fromPlanFile: false,
    });
    expect(reportExitCode(report)).toBe(1);
    expect(renderReportText(report, { color: false })).toMatch(/^Apply interrupted: 0 created/);
    expect(renderReportText(report, { color: false })).toContain(
      'Not attempted:\n  create  RecordingView  "Team"  -\nNothing was written: the workspace is as it was.\n',
    );
  });

  it('says nothing was written only when no write landed or may have', () => {
    const interrupted = (outcomes: Execution['outcomes']): string =>
      renderReportText(
        buildReport(plan, { stopped: 'aborted', outcomes }, null, { requests: 1, elapsedMs: 0, fromPlanFile: false }),
        { color: false },
      );
    const refused = { code: 'service.validation', message: 'bad icon', status: 400 };
    expect(
      interrupted([
        { status: 'failed', operation: update, error: refused },
        { status: 'not-attempted', operation: pin },
      ]),
    ).toContain('Nothing was written');
    expect(
      interrupted([
        { status: 'landed', operation: create, viewId: 'rv_5' },
        { status: 'not-attempted', operation: pin },
      ]),
    ).not.toContain('Nothing was written');
    expect(
      interrupted([{ status: 'failed', operation: update, error: { ...refused, status: 500, mayHaveLanded: true } }]),
    ).not.toContain('Nothing was written');
  });

  it('still notes, after a clean run, a create taken from a listing and a delete that found nothing', () => {
    const gone: Change = {
      action: 'delete',
      target: 'view:deals:id:dv_9',
      kind: 'DealView',
      name: 'Old',
      domain: 'deals',
      id: 'dv_9',
      before: snapshot('Old'),
      after: null,
      reason: 'prune',
      ownerId: 'u_ops',
      pinnedBy: [],
    };
    const both = handPlan([changes[0] as Change, gone]);
    const [created, deleted] = buildOperations(both);
    if (created === undefined || deleted === undefined) throw new Error('expected two operations');
    const execution: Execution = {
      stopped: null,
      outcomes: [
        { status: 'landed', operation: created, viewId: 'rv_5', note: 'adopted' },
        { status: 'landed', operation: deleted, viewId: 'dv_9', note: 'already-gone' },
      ],
    };
    const report = buildReport(
      both,
      execution,
      { problems: [], domainsRead: ['recordings', 'deals'] },
      { requests: 3, elapsedMs: 100, fromPlanFile: false },
    );
    expect(reportExitCode(report)).toBe(0);
    expect(renderReportText(report, { color: false }).split('\n').slice(1, 3)).toEqual([
      '  note: create  RecordingView  "Team"  rv_5  (its answer was lost; the only new view of that name was taken as this run\'s)',
      '  note: delete  DealView  "Old"  dv_9  (already gone)',
    ]);
  });
});

describe('apply report of a saved plan with held targets', () => {
  const held = [
    {
      target: 'view:recordings:name:Team',
      code: 'apply.stale-target' as const,
      change: 'create RecordingView "Team"',
      reason:
        'changed since the plan was reviewed (in the app, or by another apply): a public view named "Team" exists now (rv_9); the plan expected none, and creates one',
      dependents: ['pins:recordings:mia@acme.test'],
    },
    {
      target: 'pins:recordings:mia@acme.test',
      code: 'apply.held-dependent' as const,
      change: 'pinned recordings tabs of mia@acme.test',
      reason: 'depends on create RecordingView "Team", which is held: it names "Team", which the held create makes',
      dependsOn: 'view:recordings:name:Team',
    },
  ];
  const next = 'The 2 held targets need a new reviewed plan: …';

  it('names each held target, why, and what waits with it, after what was carried out; exit 0', () => {
    const report = {
      ...buildReport(
        plan,
        { stopped: null, outcomes: [{ status: 'landed', operation: update, viewId: 'dv_1' }] },
        { problems: [], domainsRead: ['deals'] },
        { requests: 2, elapsedMs: 0, fromPlanFile: true },
      ),
      held: { targets: held, next },
    };
    expect(reportExitCode(report)).toBe(0);
    expect(renderReportText(report, { color: false })).toBe(
      [
        'Applied: 0 created, 1 updated, 0 pin lists, 0 deleted (2 requests in 0.0 s).',
        'Held, not written: 1 target changed since the plan was reviewed, and 1 change depending on it (the rest of the plan was carried out, as reviewed):',
        '  ⏸ held  create RecordingView "Team"  [apply.stale-target] (1 held with it)',
        '            changed since the plan was reviewed (in the app, or by another apply): a public view named "Team" exists now (rv_9); the plan expected none, and creates one',
        '  ⏸ held  pinned recordings tabs of mia@acme.test  [apply.held-dependent]',
        '            depends on create RecordingView "Team", which is held: it names "Team", which the held create makes',
        next,
        '',
      ].join('\n'),
    );
    expect(JSON.parse(renderReportJson(report)).held).toEqual({ targets: held, next });
  });
});

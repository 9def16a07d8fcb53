import { describe, expect, it } from 'vitest';
import { DOMAINS, RECORDING_SOURCES, RECORDING_STATES } from '../../../src/domain/domains.js';
import { demoWorkspace } from '../../../src/emulator/demo/demo-workspace.js';
import { GLOBAL_OWNER } from '../../../src/emulator/model.js';
import { matchesCompanyFilters } from '../../../src/emulator/records/filters/company-filters.js';
import { matchesContactFilters } from '../../../src/emulator/records/filters/contact-filters.js';
import { matchesDealFilters } from '../../../src/emulator/records/filters/deal-filters.js';
import { filterEnv } from '../../../src/emulator/records/filters/env.js';
import { matchesRecordingFilters } from '../../../src/emulator/records/filters/recording-filters.js';
import { listRecords } from '../../../src/emulator/records/list.js';
import { viewAttributeValidator } from '../../../src/manifest/schema-registry.js';

const data = demoWorkspace();
const NOW = Date.parse('2026-11-01T00:00:00Z');
const ctx = { now: NOW, fullAccess: true, baseUrl: 'http://127.0.0.1:4010', mediaSecret: 'test-media-secret' };

describe('demoWorkspace', () => {
  it('is deterministic', () => {
    expect(demoWorkspace()).toEqual(data);
    expect(JSON.stringify(demoWorkspace())).toBe(JSON.stringify(data));
  });

  it('is the Acme Sales workspace with users in every role and state', () => {
    expect(data.workspace).toMatchObject({ id: 'ws_acme', name: 'Acme Sales' });
    expect(data.users.filter((user) => user.role === 'Owner' && user.state === 'Active')).toHaveLength(1);
    expect(data.users.filter((user) => user.role === 'Admin' && user.state === 'Active')).toHaveLength(1);
    expect(
      data.users.filter((user) => user.role === 'Member' && user.state === 'Active').length,
    ).toBeGreaterThanOrEqual(4);
    expect(data.users.some((user) => user.state === 'Deactivated')).toBe(true);
    expect(data.users.some((user) => user.state === 'Invited')).toBe(true);
    for (const user of data.users) {
      expect(user.id).toMatch(/^u_/);
      expect(user.email).toMatch(/^[a-z.]+@acme\.test$/);
    }
    expect(new Set(data.users.map((user) => user.email)).size).toBe(data.users.length);
  });

  it('has teams and groups of known users, labels, channels and topics', () => {
    const userIds = new Set(data.users.map((user) => user.id));
    for (const group of [...data.teams, ...data.userGroups]) {
      expect(group.memberIds.length).toBeGreaterThan(0);
      for (const id of group.memberIds) expect(userIds.has(id)).toBe(true);
    }
    expect(data.labels.length).toBeGreaterThanOrEqual(3);
    expect(data.channels.length).toBeGreaterThanOrEqual(2);
    expect(data.topics.length).toBeGreaterThanOrEqual(3);
  });

  it.each(DOMAINS)('has defaults, public saved views and a pinned private view for %s', (domain) => {
    const views = data.views[domain];
    const prefix = { recordings: 'rv_', deals: 'dv_', companies: 'cv_', contacts: 'kv_' }[domain];
    for (const view of views) expect(view.viewId.startsWith(prefix)).toBe(true);
    const defaults = views.filter((view) => view.isDefault);
    expect(defaults.length).toBeGreaterThanOrEqual(2);
    for (const view of defaults) expect(view).toMatchObject({ ownerId: GLOBAL_OWNER, visibility: 'Public' });
    expect(views.filter((view) => !view.isDefault && view.visibility === 'Public').length).toBeGreaterThanOrEqual(3);
    const privates = views.filter((view) => view.visibility === 'Private');
    expect(privates.length).toBeGreaterThanOrEqual(1);
    for (const view of privates) {
      const owner = data.users.find((user) => user.id === view.ownerId);
      expect(owner).toMatchObject({ role: 'Member', state: 'Active' });
      expect(data.pinned[domain][view.ownerId]).toContain(view.viewId);
    }
    expect(new Set(views.map((view) => view.viewId)).size).toBe(views.length);
    expect(
      new Set(views.filter((view) => !view.isDefault && view.visibility === 'Public').map((view) => view.name)).size,
    ).toBe(views.filter((view) => !view.isDefault && view.visibility === 'Public').length);
  });

  it('pins only existing views, without duplicates, for active users who can access them', () => {
    let customTabs = 0;
    for (const domain of DOMAINS) {
      for (const [userId, viewIds] of Object.entries(data.pinned[domain])) {
        const user = data.users.find((candidate) => candidate.id === userId);
        expect(user?.state).toBe('Active');
        expect(new Set(viewIds).size).toBe(viewIds.length);
        for (const viewId of viewIds) {
          const view = data.views[domain].find((candidate) => candidate.viewId === viewId);
          expect(view).toBeDefined();
          if (view?.visibility === 'Private') expect(view.ownerId === userId || user?.role !== 'Member').toBe(true);
        }
        if (
          !viewIds.some((viewId) => data.views[domain].find((view) => view.viewId === viewId)?.visibility === 'Private')
        )
          customTabs += 1;
      }
    }
    expect(customTabs).toBeGreaterThanOrEqual(2);
  });

  it('has 60+ recordings over all sources and states, several recorders, linked to known records', () => {
    expect(data.recordings.length).toBeGreaterThanOrEqual(60);
    expect(new Set(data.recordings.map((recording) => recording.source))).toEqual(new Set(RECORDING_SOURCES));
    expect(new Set(data.recordings.map((recording) => recording.state))).toEqual(new Set(RECORDING_STATES));
    expect(new Set(data.recordings.map((recording) => recording.recorderId)).size).toBeGreaterThanOrEqual(4);
    expect(data.recordings.some((recording) => recording.isPrivate)).toBe(true);
    const ids = (items: { id: string }[]): Set<string> => new Set(items.map((item) => item.id));
    const [deals, companies, labels, channels, topics, users] = [
      ids(data.deals),
      ids(data.companies),
      ids(data.labels),
      ids(data.channels),
      ids(data.topics),
      ids(data.users),
    ];
    for (const recording of data.recordings) {
      expect(users.has(recording.recorderId)).toBe(true);
      if (recording.dealId !== null) expect(deals.has(recording.dealId)).toBe(true);
      for (const id of recording.companyIds) expect(companies.has(id)).toBe(true);
      for (const id of recording.labelIds) expect(labels.has(id)).toBe(true);
      for (const id of recording.topicIds) expect(topics.has(id)).toBe(true);
      if (recording.channelId !== null) expect(channels.has(recording.channelId)).toBe(true);
      expect(recording.analytics === null || recording.state === 'Ready').toBe(true);
    }
    const kinds = new Set(
      data.recordings.flatMap((recording) =>
        recording.insights.filter((insight) => insight.value !== null).map((insight) => insight.kind),
      ),
    );
    expect(kinds).toEqual(new Set(['boolean', 'date', 'number', 'select', 'string']));
    const participants = data.recordings.flatMap((recording) => recording.meeting?.participants ?? []);
    expect(participants.some((participant) => participant.id !== undefined)).toBe(true);
    expect(participants.some((participant) => participant.id === undefined)).toBe(true);
  });

  it('has 20+ deals, 12+ companies and 30+ contacts with consistent links', () => {
    expect(data.deals.length).toBeGreaterThanOrEqual(20);
    expect(data.companies.length).toBeGreaterThanOrEqual(12);
    expect(data.contacts.length).toBeGreaterThanOrEqual(30);
    expect(new Set(data.deals.map((deal) => deal.status))).toEqual(new Set(['Open', 'Won', 'Lost']));
    expect(
      new Set(data.deals.flatMap((deal) => (deal.amount === null ? [] : [deal.amount.currency]))).size,
    ).toBeGreaterThanOrEqual(2);
    expect(new Set(data.deals.map((deal) => deal.pipelineId)).size).toBeGreaterThanOrEqual(2);
    expect(new Set(data.deals.map((deal) => deal.ownerEmail)).size).toBeGreaterThanOrEqual(3);
    for (const company of data.companies) {
      for (const dealId of company.dealIds)
        expect(data.deals.find((deal) => deal.id === dealId)?.companyId).toBe(company.id);
      for (const contactId of company.contactIds)
        expect(data.contacts.find((contact) => contact.id === contactId)?.companyId).toBe(company.id);
    }
  });

  it('has two admin automations in the documented shape and one webhook', () => {
    expect(data.automations).toHaveLength(2);
    for (const automation of data.automations) {
      expect(Object.keys(automation).sort()).toEqual([
        'actions',
        'adminAutomationId',
        'color',
        'disallowUserOverride',
        'filters',
        'name',
      ]);
      for (const filter of automation.filters)
        expect(Object.keys(filter).sort()).toEqual(['combineWith', 'meetingType', 'not', 'type']);
    }
    expect(data.webhooks).toHaveLength(1);
  });

  it.each(DOMAINS)('evaluates every %s view without throwing, and most views find records', (domain) => {
    let nonEmpty = 0;
    for (const view of data.views[domain]) {
      if (view.visibility === 'Private') continue;
      const result = listRecords(data, domain, new URLSearchParams({ viewId: view.viewId, limit: '100' }), ctx);
      expect(result.status, view.name).toBe(200);
      const body = result.status === 200 ? (result.result as { pagination: { totalCount: number } }) : undefined;
      if ((body?.pagination.totalCount ?? 0) > 0) nonEmpty += 1;
    }
    expect(nonEmpty).toBeGreaterThanOrEqual(
      data.views[domain].filter((view) => view.visibility === 'Public').length - 1,
    );
  });

  it.each(DOMAINS)('evaluates the filters of private %s views too', (domain) => {
    const env = filterEnv(data, NOW);
    for (const view of data.views[domain].filter((candidate) => candidate.visibility === 'Private')) {
      const count = {
        recordings: () => data.recordings.filter((record) => matchesRecordingFilters(view.filters, record, env)).length,
        deals: () => data.deals.filter((record) => matchesDealFilters(view.filters, record, env)).length,
        companies: () => data.companies.filter((record) => matchesCompanyFilters(view.filters, record, env)).length,
        contacts: () => data.contacts.filter((record) => matchesContactFilters(view.filters, record)).length,
      }[domain]();
      expect(count, view.name).toBeGreaterThan(0);
    }
  });

  it.each(DOMAINS)('gives every %s view columns, filters and sort the API accepts (schemas/)', (domain) => {
    for (const view of data.views[domain]) {
      // dealAgeRange is response-only: the API returns it but never accepts it.
      const { dealAgeRange: _responseOnly, ...filters } = view.filters;
      for (const [attribute, value] of [
        ['columns', view.columns],
        ['filters', filters],
        ['sort', view.sort],
      ] as const) {
        const validate = viewAttributeValidator(domain, attribute);
        expect(validate(value) ? [] : validate.errors, `${view.name} ${attribute}`).toEqual([]);
      }
    }
  });
});

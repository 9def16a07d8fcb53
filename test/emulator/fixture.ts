import type { ApiUser, ApiView } from '../../src/domain/api-types.js';
import { DOMAINS, type Domain } from '../../src/domain/domains.js';
import type { EmulatorData } from '../../src/emulator/model.js';
import type { StoredRecording } from '../../src/emulator/records/types.js';

/**
 * A small workspace of the tests' own, so they do not depend on the demo: an Owner,
 * an Admin, two Members, a Deactivated and an Invited user; per domain 2 defaults,
 * 3 public views and 1 private view pinned by its member owner; 2 automations; a
 * webhook; a few records.
 */

const user = (id: string, email: string, role: ApiUser['role'], state: ApiUser['state'] = 'Active'): ApiUser => ({
  id,
  email,
  name: id,
  license: role === 'Member' ? 'Lite' : 'Full',
  role,
  state,
  isDesktopAppInstalled: false,
  isMobileAppInstalled: false,
});

/** USERS of the fixture, by role. */
export const USERS = {
  owner: user('u_owner', 'owner@acme.test', 'Owner'),
  admin: user('u_admin', 'admin@acme.test', 'Admin'),
  member: user('u_member', 'member@acme.test', 'Member'),
  other: user('u_other', 'other@acme.test', 'Member'),
  gone: user('u_gone', 'gone@acme.test', 'Member', 'Deactivated'),
  invited: user('u_invited', 'invited@acme.test', 'Member', 'Invited'),
} as const;

/** PREFIX gives each domain's fixture view ids a short, readable prefix. */
export const PREFIX: Record<Domain, string> = { recordings: 'r', deals: 'd', companies: 'c', contacts: 't' };

/** ids of the fixture views of a domain: `<p>_default1`, `<p>_pub1`, `<p>_private`... */
export function ids(domain: Domain): { defaults: string[]; publics: string[]; private: string } {
  const p = PREFIX[domain];
  return {
    defaults: [`${p}_default1`, `${p}_default2`],
    publics: [`${p}_pub1`, `${p}_pub2`, `${p}_pub3`],
    private: `${p}_private`,
  };
}

const COLUMNS: Record<Domain, ApiView['columns']> = {
  recordings: [
    { type: 'Default', columnId: 'title' },
    { type: 'AiSection', fieldId: 'f1', title: 'Next steps' },
  ],
  deals: [{ type: 'Default', columnId: 'name', width: 200 }],
  companies: [{ type: 'Default', columnId: 'name' }],
  contacts: [{ type: 'Default', columnId: 'name', isHidden: false }],
};

const FILTERS: Record<Domain, ApiView['filters']> = {
  recordings: { sourceIn: ['Zoom'] },
  deals: { statusIn: ['Open'], dealAgeRange: 'LessThan30Days' },
  companies: { hasInteraction: true },
  contacts: { companyIdIn: ['co_1'] },
};

const SORT: Record<Domain, ApiView['sort']> = {
  recordings: [{ field: 'CreatedAt', order: 'Desc' }],
  deals: [{ field: 'AmountCurrency', order: 'Asc' }],
  companies: [{ field: 'ContactName', order: 'Asc' }],
  contacts: [{ field: 'Name', order: 'Asc' }],
};

function domainViews(domain: Domain): ApiView[] {
  const { defaults, publics, private: privateId } = ids(domain);
  const base = { columns: COLUMNS[domain], filters: FILTERS[domain], sort: SORT[domain] };
  return [
    {
      viewId: publics[0] as string,
      name: 'Pipeline',
      visibility: 'Public',
      icon: 'rocket',
      isDefault: false,
      ownerId: USERS.owner.id,
      ...base,
    },
    {
      viewId: privateId,
      name: 'My private',
      visibility: 'Private',
      isDefault: false,
      ownerId: USERS.member.id,
      ...base,
    },
    {
      viewId: publics[1] as string,
      name: 'Team',
      visibility: 'Public',
      isDefault: false,
      ownerId: USERS.member.id,
      ...base,
    },
    {
      viewId: publics[2] as string,
      name: 'Archive',
      visibility: 'Public',
      isDefault: false,
      ownerId: USERS.admin.id,
      ...base,
    },
    ...defaults.map(
      (viewId, index): ApiView => ({
        viewId,
        name: `Default ${index + 1}`,
        visibility: 'Public',
        isDefault: true,
        ownerId: '#global',
        columns: [],
        filters: {},
        sort: [],
      }),
    ),
  ];
}

function recording(id: string, overrides: Partial<StoredRecording> = {}): StoredRecording {
  return {
    id,
    createdAt: '2026-11-01T10:00:00.000Z',
    durationSeconds: 1800,
    state: 'Ready',
    title: `Call ${id}`,
    transcriptOnly: false,
    labelIds: ['l_1'],
    recorderId: USERS.member.id,
    recorderAttended: true,
    channelId: 'ch_1',
    companyIds: ['co_1'],
    dealId: 'de_1',
    topicIds: [],
    langIso2: 'en',
    source: 'Zoom',
    recordingType: 'Meeting',
    isPrivate: false,
    meeting: null,
    analytics: null,
    insights: [],
    actionItems: [],
    keyTakeaways: [],
    outlines: [],
    crm: null,
    ...overrides,
  };
}

/** fixture builds a fresh copy of the test workspace. */
export function fixture(): EmulatorData {
  const views = Object.fromEntries(DOMAINS.map((domain) => [domain, domainViews(domain)])) as Record<Domain, ApiView[]>;
  const pinned = Object.fromEntries(
    DOMAINS.map((domain) => {
      const { defaults, publics, private: privateId } = ids(domain);
      return [domain, { [USERS.member.id]: [privateId, publics[0] as string, defaults[0] as string] }];
    }),
  ) as Record<Domain, Record<string, string[]>>;
  return {
    workspace: { id: 'ws_test', name: 'Acme Test', createdAt: '2025-01-01T00:00:00.000Z' },
    users: Object.values(USERS),
    teams: [{ id: 'tm_1', name: 'Sales', memberIds: [USERS.member.id] }],
    userGroups: [],
    labels: [{ id: 'l_1', name: 'Demo' }],
    channels: [{ id: 'ch_1', name: 'Sales calls' }],
    topics: [],
    views,
    pinned,
    automations: [
      {
        adminAutomationId: 'aa_first',
        name: 'Record everything',
        color: 'blue',
        disallowUserOverride: false,
        filters: [],
        actions: { autoRecord: { onlyHosted: false, toBeRecorded: true } },
      },
      {
        adminAutomationId: 'aa_second',
        name: 'Share internal',
        color: 'green',
        disallowUserOverride: true,
        filters: [{ type: 'MeetingType', meetingType: 'Internal', combineWith: 'And', not: false }],
        actions: {},
      },
    ],
    recordings: [
      recording('rec_1'),
      recording('rec_2', { createdAt: '2026-11-02T10:00:00.000Z', source: 'Aircall' }),
      recording('rec_secret', { isPrivate: true }),
    ],
    deals: [
      {
        id: 'de_1',
        name: 'Big deal',
        status: 'Open',
        aiStatus: 'OnTrack',
        stage: 'Demo',
        pipelineId: 'p_1',
        type: 'New',
        ownerEmail: USERS.member.email,
        ownerName: USERS.member.name,
        amount: { value: 1000, currency: 'EUR' },
        openedAt: '2026-10-01T00:00:00.000Z',
        closedAt: null,
        companyId: 'co_1',
        contactIds: ['ct_1'],
        hasInteraction: true,
        lastActivityAt: null,
      },
    ],
    companies: [
      {
        id: 'co_1',
        name: 'Globex',
        domain: 'globex.test',
        contactIds: ['ct_1'],
        dealIds: ['de_1'],
        hasInteraction: true,
        lastActivityAt: null,
      },
    ],
    contacts: [
      {
        id: 'ct_1',
        name: 'Hank',
        email: 'hank@globex.test',
        companyId: 'co_1',
        externalities: [],
        lastActivityAt: null,
      },
    ],
    webhooks: [{ id: 'wh_1', secret: 'whsec_test', url: 'http://127.0.0.1:9/unused' }],
    nextIds: {},
  };
}

import type { ApiAdminAutomation, ApiUser, ApiView, JsonObject } from '../../src/domain/api-types.js';
import type { ExportInput } from '../../src/export/export-files.js';
import { pinsKey } from '../../src/state/types.js';

/** view builds a listed view with empty columns, filters and sort unless given. */
export function view(viewId: string, name: string, extra: Partial<ApiView> = {}): ApiView {
  return {
    viewId,
    name,
    visibility: 'Public',
    isDefault: false,
    ownerId: 'u_1',
    columns: [],
    filters: {},
    sort: [],
    ...extra,
  };
}

/** defaultView builds a built-in default view. */
export function defaultView(viewId: string, name: string): ApiView {
  return view(viewId, name, { isDefault: true, ownerId: '#global' });
}

/** user builds an active member. */
export function user(id: string, email: string, name: string, extra: Partial<ApiUser> = {}): ApiUser {
  return {
    id,
    email,
    name,
    license: 'Full',
    role: 'Member',
    state: 'Active',
    isDesktopAppInstalled: false,
    isMobileAppInstalled: false,
    ...extra,
  };
}

const mia = user('u_mia', 'mia@acme.test', 'Mia');

const customerCalls = view('rv_1', 'Customer calls', {
  icon: 'telephone_receiver',
  columns: [
    { type: 'Default', columnId: 'title', isHidden: false },
    { type: 'AiSection', fieldId: 'fld_next', title: 'Next steps', width: 240 },
  ],
  filters: { sourceIn: ['Zoom', 'Call', 'Aircall'], createdAfterRelative: 30, labelIdIn: [] },
  sort: [{ field: 'CreatedAt', order: 'Desc', insight: { fieldId: 'ignored' } }],
});
const pipelineA = view('dv_1', 'Pipeline', { filters: { statusIn: ['Won', 'Open'], dealAgeRange: 'OneDay' } });
const pipelineB = view('dv_2', 'Pipeline!', { filters: {} });
const privateCalls = view('rv_p', "Mia's calls", { visibility: 'Private', ownerId: 'u_mia' });
const allRecordings = defaultView('rv_d1', 'All recordings');
const allDeals = defaultView('dv_d1', 'All deals');

const automations: ApiAdminAutomation[] = [
  {
    adminAutomationId: 'aa_1',
    name: 'Record external meetings',
    color: 'blue',
    disallowUserOverride: true,
    filters: [{ not: true, combineWith: 'And', meetingType: 'Internal', type: 'MeetingType' } as JsonObject],
    actions: { autoRecord: { toBeRecorded: true, onlyHosted: false } },
  },
];

/** smallWorkspace is a live state with one of each thing export must handle. */
export function smallWorkspace(): ExportInput {
  return {
    live: {
      workspace: { id: 'ws_1', name: 'Acme', createdAt: '2026-01-01T00:00:00Z', membersCount: 2, recordingsCount: 0 },
      views: {
        recordings: [customerCalls, allRecordings],
        deals: [pipelineA, pipelineB, allDeals],
        companies: [defaultView('cv_d1', 'All companies')],
        contacts: [defaultView('ctv_d1', 'All contacts')],
      },
      pins: {
        [pinsKey('recordings', mia.email)]: [privateCalls, customerCalls, allRecordings],
        [pinsKey('deals', mia.email)]: [pipelineB, allDeals],
        [pinsKey('companies', mia.email)]: [],
        [pinsKey('contacts', mia.email)]: [defaultView('ctv_d1', 'All contacts')],
      },
      automations,
    },
    pinUsers: [mia],
    schemas: new Map(),
    // One document per member, every list in it: what these fixtures check (pin-groups.test.ts checks groups).
    pinLayout: 'per-member',
  };
}

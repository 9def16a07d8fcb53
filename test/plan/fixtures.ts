import type { ApiAdminAutomation, ApiUser, ApiView, JsonObject } from '../../src/domain/api-types.js';
import type { Domain } from '../../src/domain/domains.js';
import type { SourcePosition } from '../../src/manifest/types.js';
import type { Desired, DesiredPins, DesiredView, Live, PinRef } from '../../src/state/types.js';
import { pinsKey } from '../../src/state/types.js';

/** In-memory Desired and Live builders, and the scenarios the golden files render. */

export function at(file: string, line = 1, column = 1): SourcePosition {
  return { file, line, column };
}

export function view(viewId: string, name: string, extra: Partial<ApiView> = {}): ApiView {
  return {
    viewId,
    name,
    visibility: 'Public',
    isDefault: false,
    ownerId: 'u_ops',
    columns: [],
    filters: {},
    sort: [],
    ...extra,
  };
}

export function defaultView(viewId: string, name: string): ApiView {
  return view(viewId, name, { isDefault: true, ownerId: '#global', columns: [{ type: 'Default', columnId: 'title' }] });
}

export function privateView(viewId: string, name: string, ownerId = 'u_mia'): ApiView {
  return view(viewId, name, { visibility: 'Private', ownerId });
}

export function declared(
  domain: Domain,
  name: string,
  managed: DesiredView['managed'] = {},
  extra: Partial<DesiredView> = {},
): DesiredView {
  return {
    domain,
    name,
    managed,
    source: at(`views/${domain}/${name.toLowerCase().replace(/\W+/g, '-')}.yaml`),
    ...extra,
  };
}

export function pinsOf(
  userEmail: string,
  domain: Domain,
  refs: PinRef[],
  extra: Partial<DesiredPins> = {},
): DesiredPins {
  const file = `pins/${userEmail.split('@')[0] ?? 'user'}.yaml`;
  return {
    userEmail,
    domain,
    refs,
    unpinPrivate: false,
    source: at(file),
    refSources: refs.map((_, index) => at(file, 3, 16 + index * 10)),
    ...extra,
  };
}

export function user(id: string, email: string, state: ApiUser['state'] = 'Active'): ApiUser {
  return {
    id,
    email,
    name: email.split('@')[0] ?? id,
    license: 'Full',
    role: 'Member',
    state,
    isDesktopAppInstalled: false,
    isMobileAppInstalled: false,
  };
}

export function automation(id: string, name: string, extra: Partial<ApiAdminAutomation> = {}): ApiAdminAutomation {
  return {
    adminAutomationId: id,
    name,
    color: 'blue',
    disallowUserOverride: true,
    filters: [{ type: 'MeetingType', meetingType: 'Internal', combineWith: 'And', not: true }],
    actions: { autoRecord: { onlyHosted: false, toBeRecorded: true } },
    ...extra,
  };
}

export const RECORDING_DEFAULTS = [defaultView('rv_all', 'All recordings'), defaultView('rv_mine', 'My recordings')];
export const DEAL_DEFAULTS = [defaultView('dv_all', 'All deals')];

export function emptyDesired(extra: Partial<Desired['workspace']> = {}): Desired {
  return {
    workspace: { prune: false, ignore: [], creatorEmail: 'ops@acme.com', source: at('workspace.yaml'), ...extra },
    views: [],
    pins: [],
  };
}

export function emptyLive(): Live {
  return {
    workspace: {
      id: 'ws_123',
      name: 'Acme Sales',
      createdAt: '2026-01-05T09:00:00.000Z',
      membersCount: 4,
      recordingsCount: 120,
    },
    views: { recordings: [...RECORDING_DEFAULTS], deals: [...DEAL_DEFAULTS], companies: [], contacts: [] },
    pins: {},
    users: [
      user('u_ops', 'ops@acme.com'),
      user('u_mia', 'mia@acme.com'),
      user('u_max', 'max@acme.com'),
      user('u_zoe', 'zoe@acme.com'),
    ],
    requests: { used: 6, dailyRemaining: 2981 },
  };
}

const ZOOM_COLUMNS: JsonObject[] = [
  { type: 'Default', columnId: 'title' },
  { type: 'Default', columnId: 'createdAt', width: 140 },
  { type: 'AiSection', fieldId: 'fld_next_steps', title: 'Next steps' },
];

/** mixedScenario is one of each action, as a reviewer would see them all. */
export function mixedScenario(): { desired: Desired; live: Live } {
  const live = emptyLive();
  const zoom = view('rv_1', 'Zoom and Meet calls', {
    columns: ZOOM_COLUMNS,
    filters: { sourceIn: ['Zoom', 'GoogleMeet'], createdAfterRelative: 30 },
    sort: [{ field: 'CreatedAt', order: 'Desc' }],
  });
  const miasCalls = privateView('rv_private_7', "Mia's calls");
  live.views.recordings = [zoom, ...RECORDING_DEFAULTS];
  live.views.deals = [
    view('dv_1', 'Pipeline review', { filters: { statusIn: ['Open'], dealAgeRange: 'LessThan30Days' } }),
    view('dv_9', 'Old pipeline', { ownerId: 'u_max' }),
    view('dv_12', 'Scratch deals'),
    ...DEAL_DEFAULTS,
  ];
  live.pins = {
    [pinsKey('recordings', 'mia@acme.com')]: [miasCalls, zoom, defaultView('rv_all', 'All recordings')],
    [pinsKey('deals', 'mia@acme.com')]: [
      view('dv_9', 'Old pipeline', { ownerId: 'u_max' }),
      view('dv_1', 'Pipeline review'),
    ],
    [pinsKey('deals', 'max@acme.com')]: [view('dv_9', 'Old pipeline', { ownerId: 'u_max' })],
    [pinsKey('deals', 'zoe@acme.com')]: [
      view('dv_9', 'Old pipeline', { ownerId: 'u_max' }),
      defaultView('dv_all', 'All deals'),
    ],
  };
  live.automations = [automation('aa_1', 'Record external meetings')];
  const desired = emptyDesired({ workspaceId: 'ws_123', prune: true, ignore: ['Scratch *'] });
  desired.views = [
    declared('recordings', 'Team calls', { icon: 'busts_in_silhouette', filters: { teamIdIn: ['team_sales'] } }),
    declared(
      'recordings',
      'Zoom and Meet calls',
      { filters: { sourceIn: ['Zoom', 'MsTeams', 'GoogleMeet'], createdAfterRelative: 30 } },
      { source: at('views/recordings/zoom.yaml') },
    ),
    declared('deals', 'Pipeline review', { filters: { statusIn: ['Open'] } }),
  ];
  desired.pins = [
    pinsOf('mia@acme.com', 'recordings', [
      { name: 'Team calls' },
      { name: 'Zoom and Meet calls' },
      { viewId: 'rv_private_7' },
    ]),
  ];
  desired.automations = {
    source: at('automations.yaml'),
    automations: [
      {
        name: 'Record external meetings',
        color: 'red',
        disallowUserOverride: true,
        source: at('automations.yaml', 3, 5),
      },
    ],
  };
  return { desired, live };
}

/** noChangeScenario declares exactly what is live. */
export function noChangeScenario(): { desired: Desired; live: Live } {
  const { desired, live } = mixedScenario();
  live.views.recordings = [
    view('rv_1', 'Zoom and Meet calls', {
      filters: { sourceIn: ['MsTeams', 'Zoom', 'GoogleMeet'], createdAfterRelative: 30 },
    }),
    view('rv_2', 'Team calls', { icon: 'busts_in_silhouette', filters: { teamIdIn: ['team_sales'] } }),
    ...RECORDING_DEFAULTS,
  ];
  live.views.deals = [
    view('dv_1', 'Pipeline review', { filters: { statusIn: ['Open'] } }),
    view('dv_12', 'Scratch deals'),
    ...DEAL_DEFAULTS,
  ];
  live.pins = {
    [pinsKey('recordings', 'mia@acme.com')]: [
      live.views.recordings[1] as ApiView,
      live.views.recordings[0] as ApiView,
      privateView('rv_private_7', "Mia's calls"),
    ],
  };
  live.automations = [automation('aa_1', 'Record external meetings', { color: 'red' })];
  return { desired, live };
}

/** largeScenario has `count` changed recording views (half updates, a quarter creates, a quarter deletes). */
export function largeScenario(count = 600): { desired: Desired; live: Live } {
  const live = emptyLive();
  const desired = emptyDesired({ prune: true });
  const liveViews: ApiView[] = [];
  for (let index = 0; index < count; index += 1) {
    const name = `Team ${String(index).padStart(4, '0')} calls`;
    const kind = index % 4;
    const labels = Array.from({ length: 12 }, (_, n) => `label_${index}_${n}`);
    if (kind !== 1)
      liveViews.push(
        view(`rv_${index}`, name, { columns: ZOOM_COLUMNS, filters: { labelIdIn: labels, sourceIn: ['Zoom'] } }),
      );
    if (kind === 3) continue;
    desired.views.push(
      declared('recordings', name, {
        columns: [...ZOOM_COLUMNS, { type: 'Default', columnId: 'duration' }],
        filters: { labelIdIn: [...labels, `label_${index}_new`], sourceIn: ['Zoom', 'MsTeams'] },
      }),
    );
  }
  live.views.recordings = [...liveViews, ...RECORDING_DEFAULTS];
  return { desired, live };
}

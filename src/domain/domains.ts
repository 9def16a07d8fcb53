/**
 * DOMAINS lists the four view domains of the service, each with its own endpoint set
 * (`/v1/<domain>/views`), because columns, filters and sort fields differ by domain.
 */
export const DOMAINS = ['recordings', 'deals', 'companies', 'contacts'] as const;

/** Domain is one of the four view domains. */
export type Domain = (typeof DOMAINS)[number];

/** VIEW_KINDS maps a domain to the manifest `kind` that declares its views. */
export const VIEW_KINDS = {
  recordings: 'RecordingView',
  deals: 'DealView',
  companies: 'CompanyView',
  contacts: 'ContactView',
} as const satisfies Record<Domain, string>;

/** ViewKind is the manifest kind of a view document. */
export type ViewKind = (typeof VIEW_KINDS)[Domain];

/** ResourceKind is every kind a plan change can target. */
export type ResourceKind = ViewKind | 'PinnedViews' | 'AdminAutomation';

/** domainOfKind returns the domain a view kind belongs to. */
export function domainOfKind(kind: ViewKind): Domain {
  for (const domain of DOMAINS) if (VIEW_KINDS[domain] === kind) return domain;
  throw new Error(`not a view kind: ${String(kind)}`);
}

/** isDomain tells whether a string names a view domain. */
export function isDomain(value: unknown): value is Domain {
  return typeof value === 'string' && (DOMAINS as readonly string[]).includes(value);
}

/**
 * RECORDING_SOURCES are the twelve recording sources, generic first
 * (the service's "Recording sources").
 */
export const RECORDING_SOURCES = [
  'Api', 'Call', 'MobileApp', 'Uploaded',
  'Aircall', 'Allo', 'LemlistVoip', 'Ringover',
  'GoogleMeet', 'MsTeams', 'Zoom',
  'Loom',
] as const;

/** RecordingSource is one of the twelve recording sources. */
export type RecordingSource = (typeof RECORDING_SOURCES)[number];

/** RECORDING_STATES are the states a recording can be in. */
export const RECORDING_STATES = ['Empty', 'Uploaded', 'Ready', 'Failed'] as const;

/** DEAL_STATUSES are the deal status values used in view filters. */
export const DEAL_STATUSES = ['Open', 'Won', 'Lost'] as const;

/** DEAL_AI_STATUSES are the deal AI status values used in view filters. */
export const DEAL_AI_STATUSES = ['Active', 'AtRisk', 'Lost', 'NeedsAction', 'OnTrack', 'Stalled', 'Won'] as const;

/** USER_ROLES, USER_STATES and USER_LICENSES are the settled user enums. */
export const USER_ROLES = ['Owner', 'Admin', 'Member'] as const;
export const USER_STATES = ['Active', 'Invited', 'Deactivated'] as const;
export const USER_LICENSES = ['None', 'Lite', 'Full'] as const;

/** DAILY_QUOTA is the service's request budget per workspace per rolling 24 hours. */
export const DAILY_QUOTA = 3000;

/** DEFAULT_RATE is the service's steady rate per endpoint, in requests per second. */
export const DEFAULT_RATE = 3;

/** VIEW_CAP is the number of saved views the service keeps per domain per workspace. */
export const VIEW_CAP = 500;

/**
 * ViewDomain is what one view domain of the service differs in, as data. Each domain
 * has its own endpoint set (`/v1/<domain>/views`), because columns, filters and sort
 * fields differ by domain; what the engine does with a view is the same for all.
 */
export interface ViewDomain {
  /** The manifest `kind` that declares its views. */
  kind: string;
  /** How a message names one of its views. */
  label: string;
  /** Its manifest schema, a file of `schemas/`. */
  schema: string;
  /** Filter attributes whose array value is a set, beyond the `...In` / `...NotIn` rule. */
  setAttributes: readonly string[];
  /** Filter attributes the service returns but never accepts: never compared, never sent. */
  responseOnlyFilters?: readonly string[];
  /** Set filters whose entries hold sets too: attribute, then entry member, then that member's set-valued keys. */
  nestedSets?: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
}

/**
 * VIEW_DOMAINS is the one table of the view domains, in the order plans, exports and
 * messages list them: a fifth domain is one entry here (README, "Adding a kind").
 * Set and response-only filters follow each domain's filter reference in the schemas.
 */
export const VIEW_DOMAINS = {
  /**
   * `insights` is a set: "all entries must match", so order carries no meaning; inside a
   * `select` insight filter, `in` and `notIn` are sets of options. `dealAgeRange` is a
   * real filter here (unlike deal views, where it is response-only).
   */
  recordings: {
    kind: 'RecordingView',
    label: 'recording view',
    schema: 'recording-view.schema.json',
    setAttributes: ['insights'],
    nestedSets: { insights: { selectFilter: ['in', 'notIn'] } },
  },
  /** `dealAgeRange` appears in responses only and the service rejects it in a PATCH, so it is never compared and never sent. */
  deals: {
    kind: 'DealView',
    label: 'deal view',
    schema: 'deal-view.schema.json',
    setAttributes: [],
    responseOnlyFilters: ['dealAgeRange'],
  },
  companies: {
    kind: 'CompanyView',
    label: 'company view',
    schema: 'company-view.schema.json',
    setAttributes: [],
  },
  /** `externalities` is a set although its name has no `In` suffix. */
  contacts: {
    kind: 'ContactView',
    label: 'contact view',
    schema: 'contact-view.schema.json',
    setAttributes: ['externalities'],
  },
} as const satisfies Record<string, ViewDomain>;

export type Domain = keyof typeof VIEW_DOMAINS;

/** DOMAINS lists the view domains, in table order. */
export const DOMAINS = Object.keys(VIEW_DOMAINS) as readonly Domain[];

export type ViewKind = (typeof VIEW_DOMAINS)[Domain]['kind'];

/** VIEW_KINDS maps a domain to the manifest `kind` that declares its views. */
export const VIEW_KINDS = Object.fromEntries(DOMAINS.map((domain) => [domain, VIEW_DOMAINS[domain].kind])) as Readonly<
  Record<Domain, ViewKind>
>;

/** ResourceKind is every kind a plan change can target. */
export type ResourceKind = ViewKind | 'PinnedViews' | 'AdminAutomation';

/** domainOfKind returns the domain whose views a manifest kind declares, or undefined for a kind of no domain. */
export function domainOfKind(kind: string): Domain | undefined {
  return DOMAINS.find((domain) => VIEW_DOMAINS[domain].kind === kind);
}

export function isDomain(value: unknown): value is Domain {
  return typeof value === 'string' && (DOMAINS as readonly string[]).includes(value);
}

/**
 * RECORDING_SOURCES are the twelve recording sources, generic first
 * (the service's "Recording sources").
 */
export const RECORDING_SOURCES = [
  'Api',
  'Call',
  'MobileApp',
  'Uploaded',
  'Aircall',
  'Allo',
  'LemlistVoip',
  'Ringover',
  'GoogleMeet',
  'MsTeams',
  'Zoom',
  'Loom',
] as const;

export type RecordingSource = (typeof RECORDING_SOURCES)[number];

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

/** DEFAULT_RESERVE is what `--reserve` keeps of what is left today for the other integrations unless told otherwise. */
export const DEFAULT_RESERVE = 300;

/** DEFAULT_RATE is the service's steady rate per endpoint, in requests per second. */
export const DEFAULT_RATE = 3;

/** VIEW_CAP is the number of saved views the service keeps per domain per workspace. */
export const VIEW_CAP = 500;

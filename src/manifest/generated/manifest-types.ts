/**
 * Generated from schemas/*.schema.json by `npm run schemas:types`. Do not edit:
 * change the schema and regenerate (a test fails when this file is out of date).
 */

/**
 * Any viewctl manifest document, dispatched on `kind`.
 */
export type Manifest = {
  /**
   * Document kind.
   */
  kind:
    | 'Workspace'
    | 'RecordingView'
    | 'DealView'
    | 'CompanyView'
    | 'ContactView'
    | 'PinnedViews'
    | 'AdminAutomations';
} & (Workspace | RecordingView | DealView | CompanyView | ContactView | PinnedViews | AdminAutomations);
/**
 * A list of strings.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.stringList".
 */
export type StringList = string[];
/**
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.nonEmptyString".
 */
export type NonEmptyString = string;
/**
 * An email address.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.email".
 */
export type Email = string;
/**
 * A date that exists: an RFC 3339 full-date (`2026-01-31`, midnight UTC) or date-time with seconds and an offset (`2026-01-31T09:00:00Z`). `2026-02-30` and `25:00` do not exist and are refused, never adjusted.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.isoDate".
 */
export type IsoDate = CommonIsoDate & CommonIsoDate1;
export type CommonIsoDate = {
  [k: string]: unknown | undefined;
};
export type CommonIsoDate1 = string;
/**
 * Sort direction.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.sortOrder".
 */
export type SortOrder = 'Asc' | 'Desc';
/**
 * A sort field name in PascalCase. The service shows only examples of these fields, so any PascalCase name is accepted and the service has the last word.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.pascalCaseField".
 */
export type PascalCaseField = string;
/**
 * One of the twelve recording sources.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.recordingSource".
 */
export type RecordingSource =
  | 'Api'
  | 'Call'
  | 'MobileApp'
  | 'Uploaded'
  | 'Aircall'
  | 'Allo'
  | 'LemlistVoip'
  | 'Ringover'
  | 'GoogleMeet'
  | 'MsTeams'
  | 'Zoom'
  | 'Loom';
/**
 * A recording state.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.recordingState".
 */
export type RecordingState = 'Empty' | 'Uploaded' | 'Ready' | 'Failed';
/**
 * A deal status.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.dealStatus".
 */
export type DealStatus = 'Open' | 'Won' | 'Lost';
/**
 * A deal AI status.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.dealAiStatus".
 */
export type DealAiStatus = 'Active' | 'AtRisk' | 'Lost' | 'NeedsAction' | 'OnTrack' | 'Stalled' | 'Won';
/**
 * Age bucket of the linked deal.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.dealAgeRange".
 */
export type DealAgeRange =
  | 'ZeroDay'
  | 'OneDay'
  | 'LessThan7Days'
  | 'LessThan15Days'
  | 'LessThan30Days'
  | 'LessThan90Days'
  | 'LessThan180Days'
  | 'MoreThan180Days';
/**
 * ViewAuthorFilter: a workspace user, or `Me` (whoever views the table).
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.authorFilter".
 */
export type AuthorFilter = AuthorUser | AuthorMe;
/**
 * ViewPeopleFilter: a workspace user, a CRM contact, or `Me`.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.peopleFilter".
 */
export type PeopleFilter = PeopleUser | PeopleContact | PeopleMe;
/**
 * RecordingViewInsightFilter, discriminated by `type`; each has `type` and `fieldId`.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.insightFilter".
 */
export type InsightFilter =
  | InsightBooleanFilter
  | InsightDateFilter
  | InsightExistsFilter
  | InsightNumberFilter
  | InsightSelectFilter
  | InsightStringFilter;
/**
 * Column width in pixels.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.width".
 */
export type ColumnWidth = number;
export type AiColumn = DefaultColumn | AiSectionColumn;
/**
 * Recording and deal view columns: `Default` or `AiSection`, in table order.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.aiColumns".
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "deal-view.columns".
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "recording-view.columns".
 */
export type AiColumns = AiColumn[];
/**
 * Company and contact view columns (type `Default` only), in table order.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.defaultColumns".
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "company-view.columns".
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "contact-view.columns".
 */
export type DefaultColumns = DefaultColumn[];
/**
 * Sort entries of company and contact views, first key first. `field` is PascalCase (the service shows only examples: `ContactName`, `Name`).
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.plainSort".
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "company-view.sort".
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "contact-view.sort".
 */
export type PlainSort = PlainSortDimension[];
/**
 * The view name: its identity within the domain. Not blank.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.viewName".
 */
export type ViewName = string;
/**
 * Binds the manifest to this live view, so that a rename is an update.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.viewId".
 */
export type ViewId = string;
/**
 * An emoji short code (not empty); `null` removes the icon.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.icon".
 */
export type ViewIcon = string | null;
/**
 * View attributes left to the app: written when viewctl creates the view (if the document gives them), then never compared, repaired or pulled. `name` is identity and never left to the app.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.appOwns".
 */
export type AppOwns = ('columns' | 'filters' | 'sort' | 'icon')[];
/**
 * Deal owners: email addresses, or `{type: Me}` (whoever views the table; rule 7 of the service: for API reads it matches every member, and excluding it lists nothing).
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.ownerList".
 */
export type OwnerList = (string | AuthorMe)[];
/**
 * Sort entries, first key first. `field` is PascalCase: the service shows only an example (`AmountCurrency`).
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "deal-view.sort".
 */
export type DealViewSort = DealSortDimension[];
/**
 * A view name (resolved against manifests, live public views, then built-in defaults), or `{viewId}`.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "pinned-views.pinRef".
 */
export type PinRef = string | PinById;
/**
 * A recording type.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "recording-view.recordingType".
 */
export type RecordingType = 'Clip' | 'Meeting';
/**
 * A recording sort field.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "recording-view.sortField".
 */
export type RecordingSortField =
  | 'Author'
  | 'Company'
  | 'CreatedAt'
  | 'DealAge'
  | 'DealAmount'
  | 'DealAmountCurrency'
  | 'DealAmountValue'
  | 'DealClosedAt'
  | 'DealOpenedAt'
  | 'DealOwnerName'
  | 'DealStage'
  | 'DealStatus'
  | 'DealTitle'
  | 'DealType'
  | 'Insight'
  | 'InteractivityScore'
  | 'Label'
  | 'LastActivityAt'
  | 'LongestCustomerStory'
  | 'LongestMonologue'
  | 'Manual'
  | 'Patience'
  | 'People'
  | 'QuestionsPerHour'
  | 'TalkingRatio'
  | 'Title'
  | 'Topic'
  | 'VideoDurationSec';
/**
 * Sort entries, first key first.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "recording-view.sort".
 */
export type RecordingViewSort = RecordingSortDimension[];

/**
 * One automation; omitted attributes are not compared.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "admin-automations.automation".
 */
export interface ExpectedAutomationEntry {
  /**
   * Automation name: its identity.
   */
  name: string;
  /**
   * Colour, e.g. `blue`.
   */
  color?: string;
  /**
   * Users cannot override it.
   */
  disallowUserOverride?: boolean;
  /**
   * Meeting filters.
   */
  filters?: AutomationFilter[];
  actions?: AutomationActions;
}
/**
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "admin-automations.automationFilter".
 */
export interface AutomationFilter {
  /**
   * Filter type, e.g. `MeetingType`.
   */
  type: string;
  /**
   * Meeting type, e.g. `Internal`.
   */
  meetingType?: string;
  /**
   * How it combines with the previous filter, e.g. `And`.
   */
  combineWith?: string;
  /**
   * Negates the filter.
   */
  not?: boolean;
  [k: string]: unknown | undefined;
}
/**
 * What the automation does.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "admin-automations.actions".
 */
export interface AutomationActions {
  autoRecord?: AutoRecordAction;
  autoShare?: AutoShareAction;
  moveToFolder?: MoveToFolderAction;
  updateOverview?: UpdateOverviewAction;
  [k: string]: unknown | undefined;
}
export interface AutoRecordAction {
  onlyHosted?: boolean;
  toBeRecorded?: boolean;
}
export interface AutoShareAction {
  /**
   * e.g. `AllParticipants`.
   */
  autoShare?: string;
  /**
   * e.g. `None`.
   */
  publicLayout?: string;
  publicLinkEnabled?: boolean;
  /**
   * e.g. `InviteOnly`.
   */
  publish?: string;
}
export interface MoveToFolderAction {
  /**
   * Folder identifier.
   */
  folderId?: string;
}
export interface UpdateOverviewAction {
  sectionIds?: StringList;
}
/**
 * The expected admin automations, highest priority first; the list is complete. Read-only: checked for drift, never written. Values beyond those the service shows are accepted as strings.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "admin-automations".
 */
export interface AdminAutomations {
  /**
   * Document kind.
   */
  kind: 'AdminAutomations';
  /**
   * Every admin automation, highest priority first.
   */
  automations: ExpectedAutomationEntry[];
}
/**
 * ViewNumericFilter: combine `gte` and `lte` for a range.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.numericFilter".
 */
export interface NumericFilter {
  /**
   * true matches set values, false matches missing ones.
   */
  exists?: boolean;
  /**
   * Greater than or equal to.
   */
  gte?: number;
  /**
   * Equal to.
   */
  is?: number;
  /**
   * Not equal to.
   */
  isNot?: number;
  /**
   * Less than or equal to.
   */
  lte?: number;
}
/**
 * ViewNumericBetweenFilter: at least one of `gte` and `lte` must be set.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.betweenFilter".
 */
export interface NumericBetweenFilter {
  /**
   * Lower bound, inclusive.
   */
  gte?: number;
  /**
   * Upper bound, inclusive.
   */
  lte?: number;
}
/**
 * ViewStringFilter.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.stringFilter".
 */
export interface StringFilter {
  /**
   * Contains this text.
   */
  contains?: string;
  /**
   * Does not contain this text.
   */
  containsNot?: string;
  /**
   * Equals this text.
   */
  is?: string;
  /**
   * Differs from this text.
   */
  isNot?: string;
  /**
   * true matches set values, false matches missing ones.
   */
  exists?: boolean;
}
/**
 * A workspace user.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.authorUser".
 */
export interface AuthorUser {
  type: 'User';
  /**
   * User identifier.
   */
  userId: string;
}
/**
 * Whoever views the table; for API listings, any workspace member.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.authorMe".
 */
export interface AuthorMe {
  type: 'Me';
}
/**
 * A workspace user taking part.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.peopleUser".
 */
export interface PeopleUser {
  type: 'User';
  /**
   * User identifier.
   */
  userId: string;
  /**
   * Display name.
   */
  name: string;
  /**
   * Email address.
   */
  email?: string;
}
/**
 * A CRM contact taking part.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.peopleContact".
 */
export interface PeopleContact {
  type: 'Contact';
  /**
   * Display name.
   */
  name: string;
  /**
   * Email address.
   */
  email?: string;
}
/**
 * Whoever views the table; for API listings, any workspace member.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.peopleMe".
 */
export interface PeopleMe {
  type: 'Me';
}
/**
 * Matches a yes/no insight.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.insightBooleanFilter".
 */
export interface InsightBooleanFilter {
  type: 'boolean';
  /**
   * AI field identifier.
   */
  fieldId: string;
  boolFilter: {
    is: boolean;
  };
}
/**
 * Matches a date insight within a timestamp range.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.insightDateFilter".
 */
export interface InsightDateFilter {
  type: 'date';
  /**
   * AI field identifier.
   */
  fieldId: string;
  dateFilter: NumericBetweenFilter;
}
/**
 * Matches whether the insight has a value.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.insightExistsFilter".
 */
export interface InsightExistsFilter {
  type: 'exists';
  /**
   * AI field identifier.
   */
  fieldId: string;
  existsFilter: boolean;
}
/**
 * Matches a numeric insight.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.insightNumberFilter".
 */
export interface InsightNumberFilter {
  type: 'number';
  /**
   * AI field identifier.
   */
  fieldId: string;
  numFilter: NumericFilter;
}
/**
 * Matches the options of a select insight.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.insightSelectFilter".
 */
export interface InsightSelectFilter {
  type: 'select';
  /**
   * AI field identifier.
   */
  fieldId: string;
  selectFilter: {
    in?: StringList;
    notIn?: StringList;
  };
}
/**
 * Matches a text insight.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.insightStringFilter".
 */
export interface InsightStringFilter {
  type: 'string';
  /**
   * AI field identifier.
   */
  fieldId: string;
  strFilter: StringFilter;
}
/**
 * A built-in column.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.defaultColumn".
 */
export interface DefaultColumn {
  type: 'Default';
  /**
   * Built-in column identifier.
   */
  columnId: string;
  /**
   * Hidden in the table.
   */
  isHidden?: boolean;
  width?: ColumnWidth;
}
/**
 * A column showing an AI insight.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "common.aiSectionColumn".
 */
export interface AiSectionColumn {
  type: 'AiSection';
  /**
   * AI field (insight) identifier.
   */
  fieldId: string;
  /**
   * Column title.
   */
  title: string;
  /**
   * The insight is generated for new recordings.
   */
  hasAutogen?: boolean;
  /**
   * Section configuration is complete.
   */
  isConfigured?: boolean;
  /**
   * Hidden in the table.
   */
  isHidden?: boolean;
  width?: ColumnWidth;
}
export interface PlainSortDimension {
  field: PascalCaseField;
  order: SortOrder;
}
/**
 * Company view filters: all set filters must match.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "company-view.filters".
 */
export interface CompanyViewFilters {
  /**
   * Contact identifiers: include matching.
   */
  contactIdIn?: StringList;
  /**
   * Contact identifiers: exclude matching.
   */
  contactIdNotIn?: StringList;
  /**
   * Deal identifiers: include matching.
   */
  dealIdIn?: StringList;
  /**
   * Deal identifiers: exclude matching.
   */
  dealIdNotIn?: StringList;
  /**
   * Deal statuses: include matching.
   */
  dealStatusIn?: DealStatus[];
  /**
   * Deal statuses: exclude matching.
   */
  dealStatusNotIn?: DealStatus[];
  /**
   * The company has recorded interactions.
   */
  hasInteraction?: boolean;
}
/**
 * A saved view of the companies table (`/v1/companies/views`).
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "company-view".
 */
export interface CompanyView {
  /**
   * Document kind.
   */
  kind: 'CompanyView';
  name: ViewName;
  viewId?: ViewId;
  icon?: ViewIcon;
  columns?: DefaultColumns;
  filters?: CompanyViewFilters;
  sort?: PlainSort;
  /**
   * Attributes of this view left to the app (replaces the Workspace's `appOwns`): written on create, then never compared, repaired or pulled.
   */
  appOwns?: AppOwns;
}
/**
 * Contact view filters: all set filters must match.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "contact-view.filters".
 */
export interface ContactViewFilters {
  /**
   * Company identifiers: include matching.
   */
  companyIdIn?: StringList;
  /**
   * Company identifiers: exclude matching.
   */
  companyIdNotIn?: StringList;
  /**
   * Externality values (the service does not show them; strings are passed through).
   */
  externalities?: StringList;
}
/**
 * A saved view of the contacts table (`/v1/contacts/views`).
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "contact-view".
 */
export interface ContactView {
  /**
   * Document kind.
   */
  kind: 'ContactView';
  name: ViewName;
  viewId?: ViewId;
  icon?: ViewIcon;
  columns?: DefaultColumns;
  filters?: ContactViewFilters;
  sort?: PlainSort;
  /**
   * Attributes of this view left to the app (replaces the Workspace's `appOwns`): written on create, then never compared, repaired or pulled.
   */
  appOwns?: AppOwns;
}
/**
 * Deal view filters: all set filters must match. `dealAgeRange` is refused: the service shows it in responses only and rejects it in a request.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "deal-view.filters".
 */
export interface DealViewFilters {
  /**
   * AI status: include matching.
   */
  aiStatusIn?: DealAiStatus[];
  /**
   * AI status: exclude matching.
   */
  aiStatusNotIn?: DealAiStatus[];
  /**
   * Amount currencies: include matching.
   */
  amountCurrencyIn?: StringList;
  /**
   * Amount currencies: exclude matching.
   */
  amountCurrencyNotIn?: StringList;
  /**
   * Deal amount.
   */
  amountValue?: NumericFilter;
  /**
   * Closed within the last N days.
   */
  closedAfterRelative?: number;
  /**
   * Closed more than N days ago.
   */
  closedBeforeRelative?: number;
  /**
   * Company identifiers: include matching.
   */
  companyIdIn?: StringList;
  /**
   * Company identifiers: exclude matching.
   */
  companyIdNotIn?: StringList;
  /**
   * Contact identifiers: include matching.
   */
  contactIdIn?: StringList;
  /**
   * The deal has recorded interactions.
   */
  hasInteraction?: boolean;
  /**
   * Opened within the last N days.
   */
  openedAfterRelative?: number;
  /**
   * Opened more than N days ago.
   */
  openedBeforeRelative?: number;
  /**
   * Owner email addresses: include matching.
   */
  ownerEmailIn?: OwnerList;
  /**
   * Owner email addresses: exclude matching.
   */
  ownerEmailNotIn?: OwnerList;
  /**
   * Pipeline identifiers: include matching.
   */
  pipelineIdIn?: StringList;
  /**
   * Pipeline identifiers: exclude matching.
   */
  pipelineIdNotIn?: StringList;
  /**
   * Stages: include matching.
   */
  stageIn?: StringList;
  /**
   * Stages: exclude matching.
   */
  stageNotIn?: StringList;
  /**
   * Statuses: include matching.
   */
  statusIn?: DealStatus[];
  /**
   * Statuses: exclude matching.
   */
  statusNotIn?: DealStatus[];
  /**
   * Deal types: include matching.
   */
  typeIn?: StringList;
  /**
   * Deal types: exclude matching.
   */
  typeNotIn?: StringList;
  /**
   * Owner is a member of one of the user groups: include matching.
   */
  userGroupIn?: StringList;
  /**
   * Owner is a member of one of the user groups: exclude matching.
   */
  userGroupNotIn?: StringList;
}
export interface DealSortDimension {
  field: PascalCaseField;
  /**
   * The AI field to sort by; required when `field` is `Insight`.
   */
  insight?: {
    /**
     * AI field identifier.
     */
    fieldId: string;
  };
  order: SortOrder;
}
/**
 * A saved view of the deals table (`/v1/deals/views`).
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "deal-view".
 */
export interface DealView {
  /**
   * Document kind.
   */
  kind: 'DealView';
  name: ViewName;
  viewId?: ViewId;
  icon?: ViewIcon;
  columns?: AiColumns;
  filters?: DealViewFilters;
  sort?: DealViewSort;
  /**
   * Attributes of this view left to the app (replaces the Workspace's `appOwns`): written on create, then never compared, repaired or pulled.
   */
  appOwns?: AppOwns;
}
export interface PinById {
  /**
   * The id of the view to pin (needed for private views).
   */
  viewId: string;
}
/**
 * The pinned view tabs of one member (`userEmail`), or of a group of members (`users` and/or `roles`, with a `name`), for the domains listed. Private tabs stay the member's unless `unpinPrivate: true`. With `mode: include` the listed tabs must be pinned and the member keeps their other tabs and their order.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "pinned-views".
 */
export interface PinnedViews {
  /**
   * Document kind.
   */
  kind: 'PinnedViews';
  /**
   * The group's name, shown in the plan; required with `users` or `roles`, unique among group documents.
   */
  name?: string;
  /**
   * The active workspace member whose tabs these are. A document has `userEmail`, or `users` and/or `roles`, not both.
   */
  userEmail?: Email;
  /**
   * Group members: emails (each must be an active member) or globs (`*@sales.acme.com`: `*` any run of characters, `?` one; inactive members a glob reaches are skipped).
   *
   * @minItems 1
   */
  users?: [string, ...string[]];
  /**
   * Group members: every active member with one of these roles.
   *
   * @minItems 1
   */
  roles?: ['Owner' | 'Admin' | 'Member', ...('Owner' | 'Admin' | 'Member')[]];
  /**
   * Pinned recording view tabs in order: view names, or `{viewId}` (private views).
   *
   * @minItems 1
   */
  recordings?: [PinRef, ...PinRef[]];
  /**
   * Pinned deal view tabs in order: view names, or `{viewId}` (private views).
   *
   * @minItems 1
   */
  deals?: [PinRef, ...PinRef[]];
  /**
   * Pinned company view tabs in order: view names, or `{viewId}` (private views).
   *
   * @minItems 1
   */
  companies?: [PinRef, ...PinRef[]];
  /**
   * Pinned contact view tabs in order: view names, or `{viewId}` (private views).
   *
   * @minItems 1
   */
  contacts?: [PinRef, ...PinRef[]];
  /**
   * Drop the private views the member pins today that the list does not name as `{viewId}` (default false: they are kept, in their current order).
   */
  unpinPrivate?: boolean;
  /**
   * `exact` (default): the lists are the member's tabs, in order. `include`: the listed tabs must be pinned; the member's other tabs and the order of all tabs stay theirs, and a write adds the missing ones in front, in the listed order.
   */
  mode?: 'exact' | 'include';
  /**
   * With `mode: include` only: names of views to remove from the member's tabs, in every domain the document lists, where they are pinned.
   *
   * @minItems 1
   */
  unpin?: [string, ...string[]];
}
/**
 * RecordingViewFilters: all set filters must match. `In` includes, `NotIn` excludes. `{}` means no filters.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "recording-view.filters".
 */
export interface RecordingViewFilters {
  /**
   * Author: include matching.
   */
  authorIdIn?: AuthorFilter[];
  /**
   * Author: exclude matching.
   */
  authorIdNotIn?: AuthorFilter[];
  /**
   * Linked CRM company identifiers: include matching.
   */
  companyIdIn?: StringList;
  /**
   * Linked CRM company identifiers: exclude matching.
   */
  companyIdNotIn?: StringList;
  /**
   * Created after this date.
   */
  createdAfterAt?: IsoDate;
  /**
   * Created before this date.
   */
  createdBeforeAt?: IsoDate;
  /**
   * Created within the last N days.
   */
  createdAfterRelative?: number;
  /**
   * Not created within the last N days.
   */
  createdBeforeRelative?: number;
  /**
   * Age bucket of the linked deal.
   */
  dealAgeRange?: DealAgeRange;
  /**
   * AI status of the linked deal: include matching.
   */
  dealAiStatusIn?: DealAiStatus[];
  /**
   * AI status of the linked deal: exclude matching.
   */
  dealAiStatusNotIn?: DealAiStatus[];
  /**
   * Currency of the linked deal amount: include matching.
   */
  dealAmountCurrencyIn?: StringList;
  /**
   * Currency of the linked deal amount: exclude matching.
   */
  dealAmountCurrencyNotIn?: StringList;
  /**
   * Amount of the linked deal.
   */
  dealAmountValue?: NumericFilter;
  /**
   * Linked deal closed within the last N days.
   */
  dealClosedAfterRelative?: number;
  /**
   * Linked deal closed more than N days ago.
   */
  dealClosedBeforeRelative?: number;
  /**
   * Linked deal opened within the last N days.
   */
  dealOpenedAfterRelative?: number;
  /**
   * Linked deal opened more than N days ago.
   */
  dealOpenedBeforeRelative?: number;
  /**
   * Linked deal identifiers: include matching.
   */
  dealIdIn?: StringList;
  /**
   * Linked deal identifiers: exclude matching.
   */
  dealIdNotIn?: StringList;
  /**
   * Owner names of the linked deal: include matching.
   */
  dealOwnerNameIn?: StringList;
  /**
   * Owner names of the linked deal: exclude matching.
   */
  dealOwnerNameNotIn?: StringList;
  /**
   * Pipelines of the linked deal: include matching.
   */
  dealPipelineIdIn?: StringList;
  /**
   * Pipelines of the linked deal: exclude matching.
   */
  dealPipelineIdNotIn?: StringList;
  /**
   * Stages of the linked deal: include matching.
   */
  dealStageIn?: StringList;
  /**
   * Stages of the linked deal: exclude matching.
   */
  dealStageNotIn?: StringList;
  /**
   * Status of the linked deal: include matching.
   */
  dealStatusIn?: DealStatus[];
  /**
   * Status of the linked deal: exclude matching.
   */
  dealStatusNotIn?: DealStatus[];
  /**
   * Types of the linked deal: include matching.
   */
  dealTypeIn?: StringList;
  /**
   * Types of the linked deal: exclude matching.
   */
  dealTypeNotIn?: StringList;
  /**
   * AI field filters; all entries must match.
   */
  insights?: InsightFilter[];
  /**
   * Interactivity score.
   */
  interactivityScore?: NumericFilter;
  /**
   * Label identifiers: include matching.
   */
  labelIdIn?: StringList;
  /**
   * Label identifiers: exclude matching.
   */
  labelIdNotIn?: StringList;
  /**
   * ISO 639-1 language codes: include matching.
   */
  langIso2In?: StringList;
  /**
   * ISO 639-1 language codes: exclude matching.
   */
  langIso2NotIn?: StringList;
  /**
   * Longest customer story, seconds.
   */
  longestCustomerStorySeconds?: NumericFilter;
  /**
   * Longest monologue, seconds.
   */
  longestMonologueSeconds?: NumericFilter;
  /**
   * Patience, seconds.
   */
  patienceSeconds?: NumericFilter;
  /**
   * Participants: include matching.
   */
  peopleIn?: PeopleFilter[];
  /**
   * Participants: exclude matching.
   */
  peopleNotIn?: PeopleFilter[];
  /**
   * Questions per hour.
   */
  questionsPerHour?: NumericFilter;
  /**
   * Recording identifiers: include matching.
   */
  recordingIdIn?: StringList;
  /**
   * Recording identifiers: exclude matching.
   */
  recordingIdNotIn?: StringList;
  /**
   * Recording types to include.
   */
  recordingTypeIn?: RecordingType[];
  /**
   * Recording sources: include matching.
   */
  sourceIn?: RecordingSource[];
  /**
   * Recording sources: exclude matching.
   */
  sourceNotIn?: RecordingSource[];
  /**
   * Recording states to include.
   */
  stateIn?: RecordingState[];
  /**
   * Talking ratio.
   */
  talkingRatio?: NumericFilter;
  /**
   * Owner is a member of one of the teams: include matching.
   */
  teamIdIn?: StringList;
  /**
   * Owner is a member of one of the teams: exclude matching.
   */
  teamIdNotIn?: StringList;
  /**
   * Recording title.
   */
  title?: StringFilter;
  /**
   * Topic identifiers: include matching.
   */
  topicIdIn?: StringList;
  /**
   * Topic identifiers: exclude matching.
   */
  topicIdNotIn?: StringList;
  /**
   * Owner is a member of one of the user groups: include matching.
   */
  userGroupIn?: StringList;
  /**
   * Owner is a member of one of the user groups: exclude matching.
   */
  userGroupNotIn?: StringList;
  /**
   * Duration in seconds.
   */
  videoDurationSecBetween?: NumericBetweenFilter;
}
export interface RecordingSortDimension {
  field: RecordingSortField;
  /**
   * The AI field to sort by; required when `field` is `Insight`.
   */
  insight?: {
    /**
     * AI field identifier.
     */
    fieldId: string;
  };
  order: SortOrder;
}
/**
 * A saved view of the recordings table (`/v1/recordings/views`).
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "recording-view".
 */
export interface RecordingView {
  /**
   * Document kind.
   */
  kind: 'RecordingView';
  name: ViewName;
  viewId?: ViewId;
  icon?: ViewIcon;
  columns?: AiColumns;
  filters?: RecordingViewFilters;
  sort?: RecordingViewSort;
  /**
   * Attributes of this view left to the app (replaces the Workspace's `appOwns`): written on create, then never compared, repaired or pulled.
   */
  appOwns?: AppOwns;
}
/**
 * Settings of the workspace the manifests describe; at most one document.
 *
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "workspace".
 */
export interface Workspace {
  /**
   * Document kind.
   */
  kind: 'Workspace';
  /**
   * Refuse to plan or apply against any other workspace.
   */
  workspaceId?: string;
  /**
   * Owner of the views that apply creates; required when any view is created.
   */
  creatorEmail?: Email;
  /**
   * Delete public saved views of a declared domain that no manifest declares: `true` every such view, `owned` only those owned by `creatorEmail` (views people create in the app are never pruned), `false` none (default).
   */
  prune?: true | false | 'owned';
  /**
   * Name globs (`*`, `?`) that prune and drift leave alone (default none).
   */
  ignore?: string[];
  /**
   * Attributes left to the app for every view document that gives no `appOwns` of its own (default none).
   */
  appOwns?: AppOwns;
}

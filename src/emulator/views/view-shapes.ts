import {
  DEAL_AI_STATUSES,
  DEAL_STATUSES,
  RECORDING_SOURCES,
  RECORDING_STATES,
  type Domain,
} from '../../domain/domains.js';
import {
  AUTHOR,
  BETWEEN,
  DAYS,
  enumList,
  INSIGHT,
  inNotIn,
  NUMERIC,
  OWNER,
  PERSON,
  TEXT_FILTER,
} from './filter-shapes.js';
import { BOOLEAN, DATE, listOf, number, object, oneOf, STRINGS, tagged, text, type Shape } from './shape.js';

/**
 * The emulator's own rules for the domain-specific attributes of a view body
 * (`columns`, `filters`, `sort`), one table per domain, written from the service's
 * description of its resources ("Recording view", "RecordingViewColumn",
 * "RecordingViewSortDimension", "Recording view filters", "Deal view", "Company view
 * filters", "Contact view filters") and nothing of viewctl's own schemas: the emulator
 * is a second implementation of the service, so a mistake in the manifests' schemas
 * shows as a request it refuses. Where the service shows only examples, the choice
 * made is said beside it.
 */

/** VIEW_ATTRIBUTES are the view attributes whose shape depends on the domain. */
export const VIEW_ATTRIBUTES = ['columns', 'filters', 'sort'] as const;

/** ViewAttribute is one of VIEW_ATTRIBUTES. */
export type ViewAttribute = (typeof VIEW_ATTRIBUTES)[number];

/** DEAL_AGE_RANGES are the values of `dealAgeRange`. */
export const DEAL_AGE_RANGES = [
  'ZeroDay',
  'OneDay',
  'LessThan7Days',
  'LessThan15Days',
  'LessThan30Days',
  'LessThan90Days',
  'LessThan180Days',
  'MoreThan180Days',
] as const;

/** DealAgeRange is one of DEAL_AGE_RANGES. */
export type DealAgeRange = (typeof DEAL_AGE_RANGES)[number];

/** RECORDING_SORT_FIELDS are the `field` values of a recording view's sort entry. */
export const RECORDING_SORT_FIELDS = [
  'Author',
  'Company',
  'CreatedAt',
  'DealAge',
  'DealAmount',
  'DealAmountCurrency',
  'DealAmountValue',
  'DealClosedAt',
  'DealOpenedAt',
  'DealOwnerName',
  'DealStage',
  'DealStatus',
  'DealTitle',
  'DealType',
  'Insight',
  'InteractivityScore',
  'Label',
  'LastActivityAt',
  'LongestCustomerStory',
  'LongestMonologue',
  'Manual',
  'Patience',
  'People',
  'QuestionsPerHour',
  'TalkingRatio',
  'Title',
  'Topic',
  'VideoDurationSec',
] as const;

/** Column width in pixels; a negative width is refused. */
const WIDTH = number(0);

const DEFAULT_COLUMN = object({ columnId: text(), isHidden: BOOLEAN, width: WIDTH }, ['columnId']);

const AI_SECTION_COLUMN = object(
  { fieldId: text(), title: text(), hasAutogen: BOOLEAN, isConfigured: BOOLEAN, isHidden: BOOLEAN, width: WIDTH },
  ['fieldId', 'title'],
);

/** Recording and deal views: built-in and AI-section columns; company and contact views: built-in only. */
const AI_COLUMNS = listOf(tagged('type', { Default: DEFAULT_COLUMN, AiSection: AI_SECTION_COLUMN }));
const DEFAULT_COLUMNS = listOf(tagged('type', { Default: DEFAULT_COLUMN }));

const ORDER = oneOf(['Asc', 'Desc']);

/**
 * The service shows only examples of the deal, company and contact sort fields
 * (`AmountCurrency`, `ContactName`, `Name`): any PascalCase name is taken.
 */
const PASCAL_CASE = text({ pattern: /^[A-Z][A-Za-z0-9]*$/ });

/** `insight` is required when `field` is `Insight`, ignored otherwise. */
function sortWithInsight(field: Shape): Shape {
  return listOf(
    object({ field, insight: object({ fieldId: text() }, ['fieldId']), order: ORDER }, ['field', 'order'], {
      requiredWhen: { attribute: 'field', equals: 'Insight', requires: 'insight' },
    }),
  );
}

const PLAIN_SORT = listOf(object({ field: PASCAL_CASE, order: ORDER }, ['field', 'order']));

/** RECORDING_VIEW_FILTERS: every attribute of RecordingViewFilters, all optional. */
const RECORDING_VIEW_FILTERS = object({
  ...inNotIn('authorId', listOf(AUTHOR)),
  ...inNotIn('companyId'),
  createdAfterAt: DATE,
  createdBeforeAt: DATE,
  createdAfterRelative: DAYS,
  createdBeforeRelative: DAYS,
  dealAgeRange: oneOf(DEAL_AGE_RANGES),
  ...inNotIn('dealAiStatus', enumList(DEAL_AI_STATUSES)),
  ...inNotIn('dealAmountCurrency'),
  dealAmountValue: NUMERIC,
  dealClosedAfterRelative: DAYS,
  dealClosedBeforeRelative: DAYS,
  dealOpenedAfterRelative: DAYS,
  dealOpenedBeforeRelative: DAYS,
  ...inNotIn('dealId'),
  ...inNotIn('dealOwnerName'),
  ...inNotIn('dealPipelineId'),
  ...inNotIn('dealStage'),
  ...inNotIn('dealStatus', enumList(DEAL_STATUSES)),
  ...inNotIn('dealType'),
  insights: listOf(INSIGHT),
  interactivityScore: NUMERIC,
  ...inNotIn('labelId'),
  ...inNotIn('langIso2'),
  longestCustomerStorySeconds: NUMERIC,
  longestMonologueSeconds: NUMERIC,
  patienceSeconds: NUMERIC,
  ...inNotIn('people', listOf(PERSON)),
  questionsPerHour: NUMERIC,
  ...inNotIn('recordingId'),
  recordingTypeIn: enumList(['Clip', 'Meeting']),
  ...inNotIn('source', enumList(RECORDING_SOURCES)),
  stateIn: enumList(RECORDING_STATES),
  talkingRatio: NUMERIC,
  ...inNotIn('teamId'),
  title: TEXT_FILTER,
  ...inNotIn('topicId'),
  ...inNotIn('userGroup'),
  videoDurationSecBetween: BETWEEN,
});

/**
 * DEAL_VIEW_FILTERS: the deal view filters, all optional. The service types most of them
 * only as "array": statuses take the deal status and AI status values the recording
 * filters name, identifiers and names are strings, owners are emails or `Me`.
 * `dealAgeRange` is stored and served; a request that sends it is refused before
 * this table is read (body.ts).
 */
const DEAL_VIEW_FILTERS = object({
  ...inNotIn('aiStatus', enumList(DEAL_AI_STATUSES)),
  ...inNotIn('amountCurrency'),
  amountValue: NUMERIC,
  closedAfterRelative: DAYS,
  closedBeforeRelative: DAYS,
  ...inNotIn('companyId'),
  contactIdIn: STRINGS,
  dealAgeRange: oneOf(DEAL_AGE_RANGES),
  hasInteraction: BOOLEAN,
  openedAfterRelative: DAYS,
  openedBeforeRelative: DAYS,
  ...inNotIn('ownerEmail', listOf(OWNER)),
  ...inNotIn('pipelineId'),
  ...inNotIn('stage'),
  ...inNotIn('status', enumList(DEAL_STATUSES)),
  ...inNotIn('type'),
  ...inNotIn('userGroup'),
});

/** COMPANY_VIEW_FILTERS: the company view filters, all optional. */
const COMPANY_VIEW_FILTERS = object({
  ...inNotIn('contactId'),
  ...inNotIn('dealId'),
  ...inNotIn('dealStatus', enumList(DEAL_STATUSES)),
  hasInteraction: BOOLEAN,
});

/** CONTACT_VIEW_FILTERS: the contact view filters, all optional; `externalities` values are not shown, so strings pass. */
const CONTACT_VIEW_FILTERS = object({
  ...inNotIn('companyId'),
  externalities: STRINGS,
});

/** VIEW_SHAPES are the shapes of each domain's `columns`, `filters` and `sort`. */
export const VIEW_SHAPES: Readonly<Record<Domain, Readonly<Record<ViewAttribute, Shape>>>> = {
  recordings: {
    columns: AI_COLUMNS,
    filters: RECORDING_VIEW_FILTERS,
    sort: sortWithInsight(oneOf(RECORDING_SORT_FIELDS)),
  },
  deals: { columns: AI_COLUMNS, filters: DEAL_VIEW_FILTERS, sort: sortWithInsight(PASCAL_CASE) },
  companies: { columns: DEFAULT_COLUMNS, filters: COMPANY_VIEW_FILTERS, sort: PLAIN_SORT },
  contacts: { columns: DEFAULT_COLUMNS, filters: CONTACT_VIEW_FILTERS, sort: PLAIN_SORT },
};

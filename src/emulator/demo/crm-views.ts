import type { ApiView, JsonObject } from '../../domain/api-types.js';
import type { Domain } from '../../domain/domains.js';
import { col, defaultView, savedView } from './recording-views.js';

/**
 * The deal, company and contact views of the demo workspace: two built-in defaults,
 * several public saved views and one private view per domain, each pinned by its
 * member owner.
 */

/** crmCol is a company or contact column: those tables always carry all four attributes. */
const crmCol = (columnId: string, width: number, isHidden = false): JsonObject => ({
  type: 'Default',
  columnId,
  isHidden,
  width,
});

const DEAL_COLUMNS = [
  col('name', 260),
  col('stage', 140),
  col('amount', 140),
  col('owner', 160),
  col('closeDate', 140),
];
const COMPANY_COLUMNS = [
  crmCol('name', 240),
  crmCol('domain', 200),
  crmCol('contacts', 120),
  crmCol('lastActivity', 160),
];
const CONTACT_COLUMNS = [
  crmCol('name', 220),
  crmCol('email', 240),
  crmCol('company', 200),
  crmCol('lastActivity', 160),
];

/** demoDealViews returns the deal views in creation order (defaults first). */
export function demoDealViews(): ApiView[] {
  return [
    defaultView('dv_default_all', 'All deals', DEAL_COLUMNS, {}, [{ field: 'LastActivityAt', order: 'Desc' }]),
    // Not "My deals": owner filters hold emails in the schemas, so no default uses `Me` here.
    defaultView('dv_default_open', 'Open deals', DEAL_COLUMNS, { statusIn: ['Open'] }, [
      { field: 'AmountValue', order: 'Desc' },
    ]),
    savedView('dv_pipeline_review', 'Pipeline review', 'u_olivia', 'bar_chart', {
      columns: [...DEAL_COLUMNS, col('aiStatus', 130)],
      // dealAgeRange is response-only (the service's "Deal view"): manifests cannot
      // set it, and it keeps its stored value on update.
      filters: {
        statusIn: ['Open'],
        pipelineIdIn: ['pl_new_business', 'pl_expansion'],
        dealAgeRange: 'LessThan180Days',
      },
      sort: [
        { field: 'Stage', order: 'Asc' },
        { field: 'AmountValue', order: 'Desc' },
      ],
    }),
    savedView('dv_won_recently', 'Won last 90 days', 'u_adam', 'trophy', {
      columns: DEAL_COLUMNS,
      filters: { statusIn: ['Won'], closedAfterRelative: 90 },
      sort: [{ field: 'ClosedAt', order: 'Desc' }],
    }),
    savedView('dv_stalled_emea', 'Stalled in EMEA', 'u_lena', 'hourglass', {
      columns: [
        ...DEAL_COLUMNS,
        { type: 'AiSection', fieldId: 'fld_next_steps', title: 'Next steps', isConfigured: true },
      ],
      filters: { aiStatusIn: ['AtRisk', 'Stalled'], amountCurrencyIn: ['EUR', 'GBP'], userGroupIn: ['ug_emea'] },
      sort: [
        { field: 'AmountCurrency', order: 'Asc' },
        { field: 'AmountValue', order: 'Desc' },
      ],
    }),
    savedView('dv_big_renewals', 'Big renewals', 'u_adam', 'repeat', {
      columns: DEAL_COLUMNS,
      filters: { typeIn: ['Renewal'], amountValue: { gte: 50000 }, statusNotIn: ['Lost'] },
      sort: [{ field: 'AmountValue', order: 'Desc' }],
    }),
    savedView('dv_noah_focus', "Noah's focus deals", 'u_noah', 'dart', {
      visibility: 'Private',
      columns: DEAL_COLUMNS,
      filters: { ownerEmailIn: ['noah.patel@acme.test'], statusIn: ['Open'] },
      sort: [{ field: 'AmountValue', order: 'Desc' }],
    }),
  ];
}

/** demoCompanyViews returns the company views in creation order (defaults first). */
export function demoCompanyViews(): ApiView[] {
  return [
    defaultView('cv_default_all', 'All companies', COMPANY_COLUMNS, {}, [{ field: 'Name', order: 'Asc' }]),
    defaultView('cv_default_active', 'Companies with interactions', COMPANY_COLUMNS, { hasInteraction: true }, [
      { field: 'LastActivityAt', order: 'Desc' },
    ]),
    savedView('cv_open_opportunities', 'Open opportunities', 'u_olivia', 'briefcase', {
      columns: COMPANY_COLUMNS,
      filters: { dealStatusIn: ['Open'] },
      sort: [{ field: 'LastActivityAt', order: 'Desc' }],
    }),
    savedView('cv_not_contacted', 'Not contacted yet', 'u_sam', 'zzz', {
      columns: [crmCol('name', 240), crmCol('domain', 200), crmCol('lastActivity', 160, true)],
      filters: { hasInteraction: false },
      sort: [{ field: 'Name', order: 'Asc' }],
    }),
    savedView('cv_customers', 'Customers', 'u_adam', 'star', {
      columns: COMPANY_COLUMNS,
      filters: { dealStatusIn: ['Won'], dealStatusNotIn: ['Lost'] },
      sort: [{ field: 'ContactName', order: 'Asc' }],
    }),
    savedView('cv_lena_accounts', "Lena's accounts", 'u_lena', 'seedling', {
      visibility: 'Private',
      columns: COMPANY_COLUMNS,
      filters: { dealIdIn: ['deal_03', 'deal_09', 'deal_15', 'deal_21'] },
      sort: [{ field: 'Name', order: 'Asc' }],
    }),
  ];
}

/** demoContactViews returns the contact views in creation order (defaults first). */
export function demoContactViews(): ApiView[] {
  return [
    defaultView('kv_default_all', 'All contacts', CONTACT_COLUMNS, {}, [{ field: 'Name', order: 'Asc' }]),
    defaultView('kv_default_recent', 'Recently active', CONTACT_COLUMNS, {}, [
      { field: 'LastActivityAt', order: 'Desc' },
    ]),
    savedView('kv_decision_makers', 'Decision makers', 'u_olivia', 'bust_in_silhouette', {
      columns: CONTACT_COLUMNS,
      filters: { externalities: ['decision-maker'] },
      sort: [{ field: 'Name', order: 'Asc' }],
    }),
    savedView('kv_champions', 'Champions', 'u_mia', 'raised_hands', {
      columns: CONTACT_COLUMNS,
      filters: { externalities: ['champion'] },
      sort: [{ field: 'LastActivityAt', order: 'Desc' }],
    }),
    savedView('kv_key_accounts', 'Key account contacts', 'u_adam', 'key', {
      columns: CONTACT_COLUMNS,
      filters: { companyIdIn: ['co_globex', 'co_hooli', 'co_northwind_traders'] },
      sort: [{ field: 'Name', order: 'Asc' }],
    }),
    savedView('kv_sam_prospects', "Sam's prospects", 'u_sam', 'telescope', {
      visibility: 'Private',
      columns: CONTACT_COLUMNS,
      filters: { companyIdNotIn: ['co_globex', 'co_northwind_traders'] },
      sort: [{ field: 'Name', order: 'Asc' }],
    }),
  ];
}

/**
 * DEMO_PINNED are the users who changed their tabs, by domain then user id, in tab
 * order: each private view's owner pins it, and a few others reordered theirs.
 */
export const DEMO_PINNED: Record<Domain, Record<string, string[]>> = {
  recordings: {
    u_mia: ['rv_mia_followups', 'rv_video_meetings', 'rv_default_all'],
    u_adam: ['rv_default_all', 'rv_deals_at_risk', 'rv_customer_calls'],
    u_olivia: ['rv_default_all', 'rv_default_mine', 'rv_budget_confirmed'],
  },
  deals: {
    u_noah: ['dv_noah_focus', 'dv_pipeline_review', 'dv_default_all'],
    u_olivia: ['dv_pipeline_review', 'dv_won_recently', 'dv_default_open'],
  },
  companies: {
    u_lena: ['cv_lena_accounts', 'cv_default_all', 'cv_open_opportunities'],
  },
  contacts: {
    u_sam: ['kv_sam_prospects', 'kv_decision_makers', 'kv_default_all'],
  },
};

import type { ApiView, JsonObject } from '../../domain/api-types.js';
import { GLOBAL_OWNER } from '../model.js';

/**
 * The recording views of the demo workspace: three built-in defaults, six public saved
 * views exercising every kind of filter (sources, relative dates, linked deal, team,
 * analytics, typed insights) and one private view of Mia's that she pins.
 */

/** col is a Default column, with a width when given (deal columns use it too). */
export const col = (columnId: string, width?: number): JsonObject =>
  width === undefined ? { type: 'Default', columnId } : { type: 'Default', columnId, width };

const BASE_COLUMNS: JsonObject[] = [
  col('title', 320),
  col('createdAt', 160),
  col('recorder', 180),
  col('duration', 110),
];

/** defaultView builds a built-in default view (ownerId `#global`, public, not editable). */
export function defaultView(
  viewId: string,
  name: string,
  columns: JsonObject[],
  filters: JsonObject,
  sort: JsonObject[],
): ApiView {
  return { viewId, name, visibility: 'Public', isDefault: true, ownerId: GLOBAL_OWNER, columns, filters, sort };
}

/** SavedViewParts are the parts of a saved view that differ from view to view; visibility defaults to Public. */
type SavedViewParts = {
  columns: JsonObject[];
  filters: JsonObject;
  sort: JsonObject[];
  visibility?: 'Public' | 'Private';
};

/** savedView builds a saved view owned by a user. */
export function savedView(viewId: string, name: string, ownerId: string, icon: string, parts: SavedViewParts): ApiView {
  const { visibility = 'Public', columns, filters, sort } = parts;
  return { viewId, name, visibility, icon, isDefault: false, ownerId, columns, filters, sort };
}

/** demoRecordingViews returns the recording views in creation order (defaults first). */
export function demoRecordingViews(): ApiView[] {
  const newestFirst: JsonObject[] = [{ field: 'CreatedAt', order: 'Desc' }];
  return [
    defaultView('rv_default_all', 'All recordings', [...BASE_COLUMNS, col('source'), col('labels')], {}, newestFirst),
    defaultView(
      'rv_default_mine',
      'My recordings',
      [...BASE_COLUMNS, col('labels')],
      { authorIdIn: [{ type: 'Me' }] },
      newestFirst,
    ),
    defaultView('rv_default_with_me', 'Meetings with me', BASE_COLUMNS, { peopleIn: [{ type: 'Me' }] }, newestFirst),
    savedView('rv_customer_calls', 'Customer calls', 'u_adam', 'telephone_receiver', {
      columns: [...BASE_COLUMNS, col('companies', 200), col('source', 120)],
      filters: {
        sourceIn: ['Aircall', 'Allo', 'Call', 'LemlistVoip', 'Ringover'],
        recordingTypeIn: ['Meeting'],
        stateIn: ['Ready'],
      },
      sort: newestFirst,
    }),
    savedView('rv_video_meetings', 'Zoom and Meet calls', 'u_olivia', 'video_camera', {
      columns: [...BASE_COLUMNS, col('source', 120), { type: 'Default', columnId: 'channel', isHidden: true }],
      filters: { sourceIn: ['GoogleMeet', 'Zoom'], createdAfterRelative: 90 },
      sort: newestFirst,
    }),
    savedView('rv_deals_at_risk', 'Deals at risk', 'u_olivia', 'warning', {
      columns: [
        col('title', 300),
        col('deal', 220),
        col('dealStage', 140),
        col('dealAmount', 140),
        col('createdAt', 160),
      ],
      filters: { dealStatusIn: ['Open'], dealAiStatusIn: ['AtRisk', 'NeedsAction', 'Stalled'] },
      sort: [
        { field: 'DealAmountValue', order: 'Desc' },
        { field: 'CreatedAt', order: 'Desc' },
      ],
    }),
    savedView('rv_sdr_coaching', 'SDR coaching', 'u_adam', 'mortar_board', {
      columns: [...BASE_COLUMNS, col('talkingRatio', 120), col('longestMonologue', 150)],
      filters: { teamIdIn: ['team_sdr'], longestMonologueSeconds: { gte: 120 }, labelIdNotIn: ['lbl_churn_risk'] },
      sort: [{ field: 'LongestMonologue', order: 'Desc' }],
    }),
    savedView('rv_budget_confirmed', 'Budget confirmed', 'u_mia', 'moneybag', {
      columns: [
        col('title', 300),
        col('companies', 200),
        {
          type: 'AiSection',
          fieldId: 'fld_budget_confirmed',
          title: 'Budget confirmed',
          hasAutogen: true,
          isConfigured: true,
          width: 150,
        },
        {
          type: 'AiSection',
          fieldId: 'fld_seats',
          title: 'Seats discussed',
          hasAutogen: true,
          isConfigured: true,
          width: 140,
        },
        { type: 'AiSection', fieldId: 'fld_next_steps', title: 'Next steps', hasAutogen: true, isConfigured: true },
      ],
      filters: {
        insights: [
          { type: 'boolean', fieldId: 'fld_budget_confirmed', boolFilter: { is: true } },
          { type: 'number', fieldId: 'fld_seats', numFilter: { gte: 50 } },
        ],
      },
      sort: [{ field: 'Insight', insight: { fieldId: 'fld_seats' }, order: 'Desc' }],
    }),
    savedView('rv_competitor_mentions', 'Competitor mentions', 'u_noah', 'crossed_swords', {
      columns: [
        col('title', 300),
        col('deal', 200),
        { type: 'AiSection', fieldId: 'fld_competitor', title: 'Competitor mentioned', isConfigured: true, width: 180 },
      ],
      filters: {
        insights: [
          {
            type: 'select',
            fieldId: 'fld_competitor',
            selectFilter: { in: ['Chorusly', 'Globalink', 'Talkwise'], notIn: [] },
          },
        ],
        title: { containsNot: 'stand-up' },
      },
      sort: [
        { field: 'DealTitle', order: 'Asc' },
        { field: 'CreatedAt', order: 'Desc' },
      ],
    }),
    savedView('rv_mia_followups', "Mia's follow-ups", 'u_mia', 'pushpin', {
      visibility: 'Private',
      columns: [...BASE_COLUMNS, col('deal', 200)],
      filters: { authorIdIn: [{ type: 'User', userId: 'u_mia' }], stateIn: ['Ready'], dealStatusIn: ['Open'] },
      sort: [{ field: 'CreatedAt', order: 'Asc' }],
    }),
  ];
}

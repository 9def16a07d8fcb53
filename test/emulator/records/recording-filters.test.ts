import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/domain/api-types.js';
import { filterEnv } from '../../../src/emulator/records/filters/env.js';
import { matchesRecordingFilters, RECORDING_FILTERS } from '../../../src/emulator/records/filters/recording-filters.js';
import type { StoredInsight } from '../../../src/emulator/records/types.js';
import { daysAgo, deal, NOW, recording, workspace } from './fixtures.js';

const insight = (fieldId: string, kind: StoredInsight['kind'], value: StoredInsight['value']): StoredInsight => ({
  fieldId,
  title: fieldId,
  kind,
  value,
});

// r1: Ann, linked to a big EUR deal, rich analytics and insights; r2: Ben, a USD deal;
// r3: Ann, no deal, no analytics, a clip with an external guest only.
const data = workspace({
  deals: [
    deal('d1', {
      status: 'Open',
      aiStatus: 'AtRisk',
      stage: 'Negotiation',
      pipelineId: 'pl_a',
      type: 'NewBusiness',
      amount: { value: 90000, currency: 'EUR' },
      openedAt: daysAgo(200),
      ownerName: 'Ann Lee',
      ownerEmail: 'ann@acme.test',
    }),
    deal('d2', {
      status: 'Won',
      aiStatus: 'Won',
      stage: 'Closed Won',
      pipelineId: 'pl_b',
      type: 'Renewal',
      amount: { value: 5000, currency: 'USD' },
      openedAt: daysAgo(40),
      closedAt: daysAgo(3),
      ownerName: 'Ben Ode',
      ownerEmail: 'ben@acme.test',
    }),
  ],
  recordings: [
    recording('r1', {
      title: 'Pricing call with Globex',
      createdAt: daysAgo(2),
      dealId: 'd1',
      companyIds: ['co_globex'],
      labelIds: ['lbl_x'],
      topicIds: ['top_1'],
      langIso2: 'de',
      source: 'Zoom',
      durationSeconds: 1800,
      analytics: {
        interactivityScore: 8,
        longestCustomerStorySeconds: 200,
        longestMonologueSeconds: 300,
        patienceSeconds: 2.5,
        questionsPerHour: 30,
        talkingRatio: 0.7,
      },
      meeting: {
        startingAt: daysAgo(2),
        endingAt: daysAgo(2),
        type: 'external',
        conferenceUrl: '',
        participants: [
          { attended: true, email: 'ann@acme.test', id: 'u_ann', name: 'Ann Lee' },
          { attended: true, email: 'eve@globex.example', name: 'Eve Stone' },
        ],
      },
      insights: [
        insight('f_bool', 'boolean', true),
        insight('f_date', 'date', '2026-12-01'),
        insight('f_num', 'number', 40),
        insight('f_sel', 'select', ['Rival']),
        insight('f_str', 'string', 'Send the security review'),
      ],
    }),
    recording('r2', {
      title: 'Renewal kick-off',
      createdAt: daysAgo(30),
      recorderId: 'u_ben',
      dealId: 'd2',
      companyIds: ['co_hooli'],
      labelIds: ['lbl_y'],
      topicIds: ['top_2'],
      source: 'Aircall',
      durationSeconds: 300,
      meeting: {
        startingAt: daysAgo(30),
        endingAt: daysAgo(30),
        type: 'internal',
        conferenceUrl: '',
        participants: [{ attended: true, email: 'ben@acme.test', id: 'u_ben', name: 'Ben Ode' }],
      },
      insights: [
        insight('f_bool', 'boolean', false),
        insight('f_num', 'number', 5),
        insight('f_sel', 'select', 'None'),
        insight('f_str', 'string', null),
      ],
    }),
    recording('r3', {
      title: 'Loom walkthrough',
      createdAt: daysAgo(100),
      state: 'Uploaded',
      recordingType: 'Clip',
      source: 'Loom',
      durationSeconds: 90,
      analytics: null,
      meeting: null,
    }),
  ],
});
const env = filterEnv(data, NOW);

function matching(filters: JsonObject): string[] {
  return data.recordings
    .filter((candidate) => matchesRecordingFilters(filters, candidate, env))
    .map((candidate) => candidate.id);
}

describe('recording view filters', () => {
  it('handles every attribute of RecordingViewFilters', () => {
    const attributes = [
      'authorIdIn',
      'authorIdNotIn',
      'companyIdIn',
      'companyIdNotIn',
      'createdAfterAt',
      'createdBeforeAt',
      'createdAfterRelative',
      'createdBeforeRelative',
      'dealAgeRange',
      'dealAiStatusIn',
      'dealAiStatusNotIn',
      'dealAmountCurrencyIn',
      'dealAmountCurrencyNotIn',
      'dealAmountValue',
      'dealClosedAfterRelative',
      'dealClosedBeforeRelative',
      'dealOpenedAfterRelative',
      'dealOpenedBeforeRelative',
      'dealIdIn',
      'dealIdNotIn',
      'dealOwnerNameIn',
      'dealOwnerNameNotIn',
      'dealPipelineIdIn',
      'dealPipelineIdNotIn',
      'dealStageIn',
      'dealStageNotIn',
      'dealStatusIn',
      'dealStatusNotIn',
      'dealTypeIn',
      'dealTypeNotIn',
      'insights',
      'interactivityScore',
      'labelIdIn',
      'labelIdNotIn',
      'langIso2In',
      'langIso2NotIn',
      'longestCustomerStorySeconds',
      'longestMonologueSeconds',
      'patienceSeconds',
      'peopleIn',
      'peopleNotIn',
      'questionsPerHour',
      'recordingIdIn',
      'recordingIdNotIn',
      'recordingTypeIn',
      'sourceIn',
      'sourceNotIn',
      'stateIn',
      'talkingRatio',
      'teamIdIn',
      'teamIdNotIn',
      'title',
      'topicIdIn',
      'topicIdNotIn',
      'userGroupIn',
      'userGroupNotIn',
      'videoDurationSecBetween',
    ];
    expect(Object.keys(RECORDING_FILTERS).sort()).toEqual([...attributes].sort());
  });

  it.each<[string, JsonObject, string[]]>([
    ['no filters', {}, ['r1', 'r2', 'r3']],
    ['authorIdIn User', { authorIdIn: [{ type: 'User', userId: 'u_ben' }] }, ['r2']],
    ['authorIdNotIn User', { authorIdNotIn: [{ type: 'User', userId: 'u_ben' }] }, ['r1', 'r3']],
    ['authorIdIn Me (any member)', { authorIdIn: [{ type: 'Me' }] }, ['r1', 'r2', 'r3']],
    ['authorIdNotIn Me (nothing)', { authorIdNotIn: [{ type: 'Me' }] }, []],
    ['companyIdIn', { companyIdIn: ['co_hooli'] }, ['r2']],
    ['companyIdNotIn', { companyIdNotIn: ['co_hooli'] }, ['r1', 'r3']],
    ['createdAfterAt', { createdAfterAt: daysAgo(31) }, ['r1', 'r2']],
    ['createdBeforeAt', { createdBeforeAt: daysAgo(31) }, ['r3']],
    ['createdAfterRelative', { createdAfterRelative: 7 }, ['r1']],
    ['createdBeforeRelative', { createdBeforeRelative: 7 }, ['r2', 'r3']],
    ['dealAgeRange MoreThan180Days', { dealAgeRange: 'MoreThan180Days' }, ['r1']],
    ['dealAgeRange LessThan90Days (closed deal stops ageing)', { dealAgeRange: 'LessThan90Days' }, ['r2']],
    ['dealAiStatusIn', { dealAiStatusIn: ['AtRisk'] }, ['r1']],
    ['dealAiStatusNotIn', { dealAiStatusNotIn: ['AtRisk'] }, ['r2', 'r3']],
    ['dealAmountCurrencyIn', { dealAmountCurrencyIn: ['EUR'] }, ['r1']],
    ['dealAmountCurrencyNotIn', { dealAmountCurrencyNotIn: ['EUR'] }, ['r2', 'r3']],
    ['dealAmountValue gte', { dealAmountValue: { gte: 10000 } }, ['r1']],
    ['dealAmountValue exists false', { dealAmountValue: { exists: false } }, ['r3']],
    ['dealClosedAfterRelative', { dealClosedAfterRelative: 7 }, ['r2']],
    ['dealClosedBeforeRelative', { dealClosedBeforeRelative: 1 }, ['r2']],
    ['dealOpenedAfterRelative', { dealOpenedAfterRelative: 60 }, ['r2']],
    ['dealOpenedBeforeRelative', { dealOpenedBeforeRelative: 60 }, ['r1']],
    ['dealIdIn', { dealIdIn: ['d1'] }, ['r1']],
    ['dealIdNotIn', { dealIdNotIn: ['d1'] }, ['r2', 'r3']],
    ['dealOwnerNameIn', { dealOwnerNameIn: ['Ben Ode'] }, ['r2']],
    ['dealOwnerNameNotIn', { dealOwnerNameNotIn: ['Ben Ode'] }, ['r1', 'r3']],
    ['dealOwnerNameIn Me', { dealOwnerNameIn: [{ type: 'Me' }] }, ['r1', 'r2']],
    ['dealOwnerNameNotIn Me', { dealOwnerNameNotIn: [{ type: 'Me' }] }, []],
    ['dealPipelineIdIn', { dealPipelineIdIn: ['pl_b'] }, ['r2']],
    ['dealPipelineIdNotIn', { dealPipelineIdNotIn: ['pl_b'] }, ['r1', 'r3']],
    ['dealStageIn', { dealStageIn: ['Negotiation'] }, ['r1']],
    ['dealStageNotIn', { dealStageNotIn: ['Negotiation'] }, ['r2', 'r3']],
    ['dealStatusIn', { dealStatusIn: ['Won', 'Lost'] }, ['r2']],
    ['dealStatusNotIn', { dealStatusNotIn: ['Won'] }, ['r1', 'r3']],
    ['dealTypeIn', { dealTypeIn: ['Renewal'] }, ['r2']],
    ['dealTypeNotIn', { dealTypeNotIn: ['Renewal'] }, ['r1', 'r3']],
    ['interactivityScore', { interactivityScore: { gte: 6 } }, ['r1']],
    ['interactivityScore exists false', { interactivityScore: { exists: false } }, ['r3']],
    ['labelIdIn', { labelIdIn: ['lbl_x'] }, ['r1']],
    ['labelIdNotIn', { labelIdNotIn: ['lbl_x'] }, ['r2', 'r3']],
    ['langIso2In', { langIso2In: ['de'] }, ['r1']],
    ['langIso2NotIn', { langIso2NotIn: ['de'] }, ['r2', 'r3']],
    ['longestCustomerStorySeconds', { longestCustomerStorySeconds: { gte: 100 } }, ['r1']],
    ['longestMonologueSeconds', { longestMonologueSeconds: { lte: 100 } }, ['r2']],
    ['patienceSeconds', { patienceSeconds: { is: 2.5 } }, ['r1']],
    ['questionsPerHour', { questionsPerHour: { isNot: 30 } }, ['r2', 'r3']],
    ['talkingRatio', { talkingRatio: { gte: 0.4, lte: 0.6 } }, ['r2']],
    ['peopleIn User', { peopleIn: [{ type: 'User', userId: 'u_ben', name: 'Ben Ode' }] }, ['r2']],
    [
      'peopleIn Contact by email',
      { peopleIn: [{ type: 'Contact', name: 'Someone', email: 'EVE@globex.example' }] },
      ['r1'],
    ],
    ['peopleIn Contact by name', { peopleIn: [{ type: 'Contact', name: 'eve stone' }] }, ['r1']],
    ['peopleIn recorder of a clip', { peopleIn: [{ type: 'User', userId: 'u_ann', name: 'Ann Lee' }] }, ['r1', 'r3']],
    [
      'peopleNotIn Contact',
      { peopleNotIn: [{ type: 'Contact', name: 'Eve Stone', email: 'eve@globex.example' }] },
      ['r2', 'r3'],
    ],
    ['peopleIn Me (any member)', { peopleIn: [{ type: 'Me' }] }, ['r1', 'r2', 'r3']],
    ['peopleNotIn Me (nothing)', { peopleNotIn: [{ type: 'Me' }] }, []],
    ['recordingIdIn', { recordingIdIn: ['r2', 'r3'] }, ['r2', 'r3']],
    ['recordingIdNotIn', { recordingIdNotIn: ['r2'] }, ['r1', 'r3']],
    ['recordingTypeIn', { recordingTypeIn: ['Clip'] }, ['r3']],
    ['sourceIn', { sourceIn: ['Aircall', 'Loom'] }, ['r2', 'r3']],
    ['sourceNotIn', { sourceNotIn: ['Zoom'] }, ['r2', 'r3']],
    ['stateIn', { stateIn: ['Uploaded'] }, ['r3']],
    ['teamIdIn', { teamIdIn: ['team_b'] }, ['r2']],
    ['teamIdNotIn', { teamIdNotIn: ['team_b'] }, ['r1', 'r3']],
    ['userGroupIn', { userGroupIn: ['ug_a'] }, ['r1', 'r3']],
    ['userGroupNotIn', { userGroupNotIn: ['ug_a'] }, ['r2']],
    ['title contains', { title: { contains: 'PRICING' } }, ['r1']],
    ['title containsNot', { title: { containsNot: 'pricing' } }, ['r2', 'r3']],
    ['title is', { title: { is: 'Renewal kick-off' } }, ['r2']],
    ['title isNot', { title: { isNot: 'Renewal kick-off' } }, ['r1', 'r3']],
    ['topicIdIn', { topicIdIn: ['top_2'] }, ['r2']],
    ['topicIdNotIn', { topicIdNotIn: ['top_2'] }, ['r1', 'r3']],
    ['videoDurationSecBetween', { videoDurationSecBetween: { gte: 100, lte: 1000 } }, ['r2']],
    ['several attributes intersect', { sourceNotIn: ['Loom'], dealStatusIn: ['Open'] }, ['r1']],
    ['empty arrays are not set', { sourceIn: [], labelIdNotIn: [] }, ['r1', 'r2', 'r3']],
  ])('%s', (_name, filters, expected) => {
    expect(matching(filters)).toEqual(expected);
  });
});

describe('insight filters', () => {
  it.each<[string, JsonObject, string[]]>([
    ['boolean is true', { type: 'boolean', fieldId: 'f_bool', boolFilter: { is: true } }, ['r1']],
    ['boolean is false', { type: 'boolean', fieldId: 'f_bool', boolFilter: { is: false } }, ['r2']],
    [
      'date range (ISO bounds)',
      { type: 'date', fieldId: 'f_date', dateFilter: { gte: '2026-11-15', lte: '2026-12-31' } },
      ['r1'],
    ],
    ['date range (ms bounds)', { type: 'date', fieldId: 'f_date', dateFilter: { lte: Date.parse('2026-11-15') } }, []],
    ['exists true', { type: 'exists', fieldId: 'f_str', existsFilter: true }, ['r1']],
    ['exists false', { type: 'exists', fieldId: 'f_str', existsFilter: false }, ['r2', 'r3']],
    ['number', { type: 'number', fieldId: 'f_num', numFilter: { gte: 10 } }, ['r1']],
    ['number missing', { type: 'number', fieldId: 'f_num', numFilter: { exists: false } }, ['r3']],
    ['select in', { type: 'select', fieldId: 'f_sel', selectFilter: { in: ['Rival'], notIn: [] } }, ['r1']],
    ['select notIn', { type: 'select', fieldId: 'f_sel', selectFilter: { in: [], notIn: ['Rival'] } }, ['r2', 'r3']],
    ['string contains', { type: 'string', fieldId: 'f_str', strFilter: { contains: 'security' } }, ['r1']],
    [
      'string of another kind counts as missing',
      { type: 'string', fieldId: 'f_num', strFilter: { exists: false } },
      ['r1', 'r2', 'r3'],
    ],
  ])('%s', (_name, entry, expected) => {
    expect(matching({ insights: [entry] })).toEqual(expected);
  });

  it('needs every entry to match', () => {
    expect(
      matching({
        insights: [
          { type: 'boolean', fieldId: 'f_bool', boolFilter: { is: true } },
          { type: 'number', fieldId: 'f_num', numFilter: { lte: 10 } },
        ],
      }),
    ).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/domain/api-types.js';
import { COMPANY_FILTERS, matchesCompanyFilters } from '../../../src/emulator/records/filters/company-filters.js';
import { CONTACT_FILTERS, matchesContactFilters } from '../../../src/emulator/records/filters/contact-filters.js';
import { DEAL_FILTERS, matchesDealFilters } from '../../../src/emulator/records/filters/deal-filters.js';
import { filterEnv } from '../../../src/emulator/records/filters/env.js';
import { daysAgo, deal, NOW, workspace } from './fixtures.js';

const data = workspace({
  deals: [
    deal('d1', {
      aiStatus: 'AtRisk',
      stage: 'Demo',
      pipelineId: 'pl_a',
      type: 'NewBusiness',
      amount: { value: 90000, currency: 'EUR' },
      openedAt: daysAgo(200),
      companyId: 'c1',
      contactIds: ['k1'],
      hasInteraction: true,
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
      ownerEmail: 'BEN@acme.test',
      ownerName: 'Ben Ode',
      companyId: 'c2',
      contactIds: ['k2'],
      hasInteraction: false,
    }),
    deal('d3', {
      status: 'Lost',
      aiStatus: 'Lost',
      stage: 'Closed Lost',
      amount: null,
      openedAt: daysAgo(0.5),
      closedAt: daysAgo(0),
      ownerEmail: 'former@partner.example',
      ownerName: 'Former Rep',
      companyId: null,
      contactIds: [],
    }),
  ],
  companies: [
    {
      id: 'c1',
      name: 'Globex',
      domain: 'globex.example',
      contactIds: ['k1'],
      dealIds: ['d1'],
      hasInteraction: true,
      lastActivityAt: daysAgo(1),
    },
    {
      id: 'c2',
      name: 'Hooli',
      domain: 'hooli.example',
      contactIds: ['k2'],
      dealIds: ['d2'],
      hasInteraction: false,
      lastActivityAt: null,
    },
    {
      id: 'c3',
      name: 'Initech',
      domain: 'initech.example',
      contactIds: [],
      dealIds: [],
      hasInteraction: false,
      lastActivityAt: null,
    },
  ],
  contacts: [
    {
      id: 'k1',
      name: 'Eve Stone',
      email: 'eve@globex.example',
      companyId: 'c1',
      externalities: ['champion'],
      lastActivityAt: null,
    },
    {
      id: 'k2',
      name: 'Max Ray',
      email: 'max@hooli.example',
      companyId: 'c2',
      externalities: ['decision-maker', 'legal'],
      lastActivityAt: null,
    },
    {
      id: 'k3',
      name: 'Kai Ito',
      email: 'kai@freelance.example',
      companyId: null,
      externalities: [],
      lastActivityAt: null,
    },
  ],
});
const env = filterEnv(data, NOW);

describe('deal view filters', () => {
  it('handles every deal filter attribute', () => {
    expect(Object.keys(DEAL_FILTERS).sort()).toEqual(
      [
        'aiStatusIn',
        'aiStatusNotIn',
        'amountCurrencyIn',
        'amountCurrencyNotIn',
        'amountValue',
        'closedAfterRelative',
        'closedBeforeRelative',
        'companyIdIn',
        'companyIdNotIn',
        'contactIdIn',
        'dealAgeRange',
        'hasInteraction',
        'openedAfterRelative',
        'openedBeforeRelative',
        'ownerEmailIn',
        'ownerEmailNotIn',
        'pipelineIdIn',
        'pipelineIdNotIn',
        'stageIn',
        'stageNotIn',
        'statusIn',
        'statusNotIn',
        'typeIn',
        'typeNotIn',
        'userGroupIn',
        'userGroupNotIn',
      ].sort(),
    );
  });

  it.each<[string, JsonObject, string[]]>([
    ['aiStatusIn', { aiStatusIn: ['AtRisk'] }, ['d1']],
    ['aiStatusNotIn', { aiStatusNotIn: ['AtRisk'] }, ['d2', 'd3']],
    ['amountCurrencyIn', { amountCurrencyIn: ['USD'] }, ['d2']],
    ['amountCurrencyNotIn', { amountCurrencyNotIn: ['USD'] }, ['d1', 'd3']],
    ['amountValue', { amountValue: { gte: 10000 } }, ['d1']],
    ['amountValue exists false', { amountValue: { exists: false } }, ['d3']],
    ['closedAfterRelative', { closedAfterRelative: 7 }, ['d2', 'd3']],
    ['closedBeforeRelative', { closedBeforeRelative: 1 }, ['d2']],
    ['companyIdIn', { companyIdIn: ['c1'] }, ['d1']],
    ['companyIdNotIn', { companyIdNotIn: ['c1'] }, ['d2', 'd3']],
    ['contactIdIn', { contactIdIn: ['k2'] }, ['d2']],
    ['dealAgeRange ZeroDay', { dealAgeRange: 'ZeroDay' }, ['d3']],
    ['dealAgeRange MoreThan180Days', { dealAgeRange: 'MoreThan180Days' }, ['d1']],
    ['hasInteraction true', { hasInteraction: true }, ['d1', 'd3']],
    ['hasInteraction false', { hasInteraction: false }, ['d2']],
    ['openedAfterRelative', { openedAfterRelative: 60 }, ['d2', 'd3']],
    ['openedBeforeRelative', { openedBeforeRelative: 60 }, ['d1']],
    ['ownerEmailIn (case-insensitive)', { ownerEmailIn: ['ben@acme.test'] }, ['d2']],
    ['ownerEmailNotIn', { ownerEmailNotIn: ['ben@ACME.test'] }, ['d1', 'd3']],
    ['ownerEmailIn Me: owners who are workspace members', { ownerEmailIn: [{ type: 'Me' }] }, ['d1', 'd2']],
    ['ownerEmailNotIn Me: nothing', { ownerEmailNotIn: [{ type: 'Me' }] }, []],
    ['pipelineIdIn', { pipelineIdIn: ['pl_b'] }, ['d2']],
    ['pipelineIdNotIn', { pipelineIdNotIn: ['pl_b'] }, ['d1', 'd3']],
    ['stageIn', { stageIn: ['Demo'] }, ['d1']],
    ['stageNotIn', { stageNotIn: ['Demo'] }, ['d2', 'd3']],
    ['statusIn', { statusIn: ['Won', 'Lost'] }, ['d2', 'd3']],
    ['statusNotIn', { statusNotIn: ['Won', 'Lost'] }, ['d1']],
    ['typeIn', { typeIn: ['Renewal'] }, ['d2']],
    ['typeNotIn', { typeNotIn: ['Renewal'] }, ['d1', 'd3']],
    ['userGroupIn: the owner is in the group', { userGroupIn: ['ug_b'] }, ['d2']],
    ['userGroupNotIn', { userGroupNotIn: ['ug_b'] }, ['d1', 'd3']],
  ])('%s', (_name, filters, expected) => {
    expect(
      data.deals.filter((candidate) => matchesDealFilters(filters, candidate, env)).map((candidate) => candidate.id),
    ).toEqual(expected);
  });
});

describe('company view filters', () => {
  it('handles every company filter attribute', () => {
    expect(Object.keys(COMPANY_FILTERS).sort()).toEqual([
      'contactIdIn',
      'contactIdNotIn',
      'dealIdIn',
      'dealIdNotIn',
      'dealStatusIn',
      'dealStatusNotIn',
      'hasInteraction',
    ]);
  });

  it.each<[string, JsonObject, string[]]>([
    ['contactIdIn', { contactIdIn: ['k2'] }, ['c2']],
    ['contactIdNotIn', { contactIdNotIn: ['k2'] }, ['c1', 'c3']],
    ['dealIdIn', { dealIdIn: ['d1'] }, ['c1']],
    ['dealIdNotIn', { dealIdNotIn: ['d1'] }, ['c2', 'c3']],
    ['dealStatusIn', { dealStatusIn: ['Won'] }, ['c2']],
    ['dealStatusNotIn', { dealStatusNotIn: ['Open'] }, ['c2', 'c3']],
    ['hasInteraction', { hasInteraction: false }, ['c2', 'c3']],
  ])('%s', (_name, filters, expected) => {
    expect(
      data.companies
        .filter((candidate) => matchesCompanyFilters(filters, candidate, env))
        .map((candidate) => candidate.id),
    ).toEqual(expected);
  });
});

describe('contact view filters', () => {
  it('handles every contact filter attribute', () => {
    expect(Object.keys(CONTACT_FILTERS).sort()).toEqual(['companyIdIn', 'companyIdNotIn', 'externalities']);
  });

  it.each<[string, JsonObject, string[]]>([
    ['companyIdIn', { companyIdIn: ['c1', 'c2'] }, ['k1', 'k2']],
    ['companyIdNotIn', { companyIdNotIn: ['c1'] }, ['k2', 'k3']],
    ['externalities', { externalities: ['legal', 'champion'] }, ['k1', 'k2']],
  ])('%s', (_name, filters, expected) => {
    expect(
      data.contacts.filter((candidate) => matchesContactFilters(filters, candidate)).map((candidate) => candidate.id),
    ).toEqual(expected);
  });
});

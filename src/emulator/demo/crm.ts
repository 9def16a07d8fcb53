import type { StoredCompany, StoredContact, StoredDeal } from '../records/types.js';
import { DEMO_BASE_DATE, demoUser } from './people.js';
import type { DemoRandom } from './prng.js';
import { DAY_MS } from '../time.js';

export interface DemoCrm {
  companies: StoredCompany[];
  contacts: StoredContact[];
  deals: StoredDeal[];
}

const COMPANY_NAMES = [
  'Northwind Traders',
  'Globex',
  'Initech',
  'Umbrella Health',
  'Hooli',
  'Stark Logistics',
  'Wayne Foods',
  'Tyrell Robotics',
  'Soylent Labs',
  'Cyberdyne Systems',
  'Wonka Retail',
  'Oscorp Energy',
  'Vandelay Imports',
  'Pied Piper',
];

const FIRST_NAMES = [
  'Ava',
  'Liam',
  'Emma',
  'Lucas',
  'Sofia',
  'Elias',
  'Chloe',
  'Mateo',
  'Hannah',
  'Omar',
  'Grace',
  'Jonas',
  'Priya',
  'Diego',
  'Yuki',
  'Maya',
  'Felix',
  'Nora',
  'Ravi',
  'Clara',
];
const LAST_NAMES = [
  'Smith',
  'Garcia',
  'Müller',
  'Rossi',
  'Dubois',
  'Kowalski',
  'Nguyen',
  'Johansson',
  'Silva',
  'Kim',
  'Novak',
  'Haddad',
  'Walsh',
  'Tanaka',
  'Moreau',
  'Schmidt',
];
const EXTERNALITIES = ['decision-maker', 'champion', 'technical', 'procurement', 'legal', 'end-user'];

const PIPELINES = [
  { id: 'pl_new_business', type: 'NewBusiness', label: 'New business' },
  { id: 'pl_renewals', type: 'Renewal', label: 'Renewal' },
  { id: 'pl_expansion', type: 'Upsell', label: 'Expansion' },
] as const;
const OPEN_STAGES = ['Discovery', 'Demo', 'Proposal', 'Negotiation'];
const OPEN_AI_STATUSES: StoredDeal['aiStatus'][] = ['Active', 'AtRisk', 'NeedsAction', 'OnTrack', 'Stalled'];
const DEAL_OWNERS = ['u_mia', 'u_noah', 'u_lena', 'u_adam', 'u_sam', 'u_tom'];
const CURRENCIES = ['USD', 'EUR', 'GBP'];

/**
 * demoCrm builds 14 companies with two or three contacts each and 24 deals for
 * twelve of them: 12 open,
 * 7 won, 5 lost, over three pipelines and three currencies (one deal has no amount
 * yet). Interaction facts (`hasInteraction`, `lastActivityAt`) are filled in later from
 * the recordings that link them.
 */
export function demoCrm(random: DemoRandom): DemoCrm {
  const companies: StoredCompany[] = COMPANY_NAMES.map((name) => {
    const slug = name.toLowerCase().replace(/[^a-z]+/g, '-');
    return {
      id: `co_${slug.replace(/-/g, '_')}`,
      name,
      domain: `${slug}.example`,
      contactIds: [],
      dealIds: [],
      hasInteraction: false,
      lastActivityAt: null,
    };
  });
  const contacts: StoredContact[] = [];
  for (const company of companies) {
    const count = random.int(2, 3);
    for (let n = 0; n < count; n += 1) {
      const first = random.pick(FIRST_NAMES);
      const last = random.pick(LAST_NAMES);
      const id = `ct_${String(contacts.length + 1).padStart(2, '0')}`;
      const local = `${first}.${last}`
        .toLowerCase()
        .normalize('NFD')
        .replace(/[^a-z.]/g, '');
      contacts.push({
        id,
        name: `${first} ${last}`,
        email: `${local}@${company.domain}`,
        companyId: company.id,
        externalities: random.sample(EXTERNALITIES, n === 0 ? 2 : random.int(0, 1)),
        lastActivityAt: null,
      });
      company.contactIds.push(id);
    }
  }
  const statuses: StoredDeal['status'][] = [
    ...Array<StoredDeal['status']>(12).fill('Open'),
    ...Array<StoredDeal['status']>(7).fill('Won'),
    ...Array<StoredDeal['status']>(5).fill('Lost'),
  ];
  const deals = statuses.map((status, index): StoredDeal => {
    // The last two companies get no deal: prospects nobody has talked to yet.
    const company = companies[index % (companies.length - 2)] as StoredCompany;
    const pipeline = PIPELINES[index % PIPELINES.length] ?? PIPELINES[0];
    const owner = demoUser(DEAL_OWNERS[index % DEAL_OWNERS.length] as string);
    const openedAt = DEMO_BASE_DATE - random.int(3, 320) * DAY_MS;
    const closedAt =
      status === 'Open' ? null : Math.min(openedAt + random.int(10, 120) * DAY_MS, DEMO_BASE_DATE - DAY_MS);
    const id = `deal_${String(index + 1).padStart(2, '0')}`;
    company.dealIds.push(id);
    const companyContacts = company.contactIds;
    return {
      id,
      name: `${company.name} · ${pipeline.label}`,
      status,
      aiStatus: status === 'Open' ? random.pick(OPEN_AI_STATUSES) : status,
      stage: status === 'Open' ? random.pick(OPEN_STAGES) : status === 'Won' ? 'Closed Won' : 'Closed Lost',
      pipelineId: pipeline.id,
      type: pipeline.type,
      ownerEmail: owner.email,
      ownerName: owner.name,
      amount:
        index === 17
          ? null
          : { value: random.int(6, 150) * 1000, currency: CURRENCIES[index % CURRENCIES.length] as string },
      openedAt: new Date(openedAt).toISOString(),
      closedAt: closedAt === null ? null : new Date(closedAt).toISOString(),
      companyId: company.id,
      contactIds: random.sample(companyContacts, random.int(1, companyContacts.length)),
      hasInteraction: false,
      lastActivityAt: null,
    };
  });
  return { companies, contacts, deals };
}

import { RECORDING_SOURCES, type RecordingSource } from '../../domain/domains.js';
import type { StoredInsight, StoredParticipant, StoredRecording } from '../records/types.js';
import type { DemoCrm } from './crm.js';
import { DEMO_AI_FIELDS, DEMO_BASE_DATE, DEMO_COMPETITORS, DEMO_RECORDERS, DEMO_TOPICS, demoUser } from './people.js';
import type { DemoRandom } from './prng.js';
import { DAY_MS } from '../time.js';

const DEMO_RECORDING_COUNT = 64;

const TELEPHONY: RecordingSource[] = ['Aircall', 'Allo', 'LemlistVoip', 'Ringover', 'Call'];
const CLIP_SOURCES: RecordingSource[] = ['Loom', 'MobileApp'];
const EMEA_RECORDERS = new Set(['u_lena', 'u_ines', 'u_tom', 'u_adam']);

/** Indexes of the private recordings (visible only with a Full access key). */
const PRIVATE_INDEXES = new Set([5, 22, 41]);

const STAGE_LABELS: Record<string, string> = {
  Discovery: 'lbl_discovery',
  Demo: 'lbl_demo',
  Proposal: 'lbl_negotiation',
  Negotiation: 'lbl_negotiation',
  'Closed Won': 'lbl_onboarding',
  'Closed Lost': 'lbl_churn_risk',
};

const NEXT_STEPS = [
  'Send the security questionnaire and schedule a technical deep dive.',
  'Share pricing for 50 seats and loop in procurement.',
  'Book a demo for the operations team next week.',
  'Draft the mutual action plan and confirm the decision date.',
  'Follow up with legal on the data processing agreement.',
];

/**
 * demoRecordings generates the demo's recordings, oldest first (`rec_001` is the
 * oldest). Sources cycle through all twelve; every sixteenth block holds one `Empty`,
 * one `Uploaded` and one `Failed` recording, the rest are `Ready`. Telephony
 * recordings are transcript-only; Loom and mobile recordings are clips without a
 * meeting or analytics. About seven in ten recordings link a deal (and its company).
 */
export function demoRecordings(random: DemoRandom, crm: DemoCrm): StoredRecording[] {
  const drafts = Array.from({ length: DEMO_RECORDING_COUNT }, (_, index) => {
    const createdAt = DEMO_BASE_DATE - random.int(0, 150) * DAY_MS + random.int(8 * 60, 17 * 60) * 60 * 1000;
    return { index, createdAt };
  });
  drafts.sort((a, b) => a.createdAt - b.createdAt || a.index - b.index);
  return drafts.map((draft, position) => recording(random, crm, draft.index, position, draft.createdAt));
}

function recording(
  random: DemoRandom,
  crm: DemoCrm,
  index: number,
  position: number,
  createdAt: number,
): StoredRecording {
  const source = RECORDING_SOURCES[index % RECORDING_SOURCES.length] as RecordingSource;
  const state: StoredRecording['state'] =
    index % 16 === 3 ? 'Empty' : index % 16 === 7 ? 'Uploaded' : index % 16 === 11 ? 'Failed' : 'Ready';
  const isClip = CLIP_SOURCES.includes(source);
  const recorderId = random.pick(DEMO_RECORDERS);
  const recorder = demoUser(recorderId);
  const deal = random.chance(0.7) ? random.pick(crm.deals) : undefined;
  const company =
    deal !== undefined
      ? crm.companies.find((candidate) => candidate.id === deal.companyId)
      : random.chance(0.3)
        ? random.pick(crm.companies.filter((candidate) => candidate.dealIds.length > 0))
        : undefined;
  const durationSeconds =
    state === 'Empty' ? 0 : isClip ? random.int(45, 420) : random.int(6, 62) * 60 + random.int(0, 59);
  const title = titleOf(random, source, deal?.stage, company?.name, recorder.name);
  const langIso2 = EMEA_RECORDERS.has(recorderId) && random.chance(0.4) ? random.pick(['de', 'fr', 'es']) : 'en';

  const participants: StoredParticipant[] = [
    { attended: true, email: recorder.email, id: recorderId, name: recorder.name },
  ];
  if (!isClip && random.chance(0.4)) {
    const colleague = demoUser(random.pick(DEMO_RECORDERS.filter((id) => id !== recorderId)));
    participants.push({ attended: random.chance(0.8), email: colleague.email, id: colleague.id, name: colleague.name });
  }
  if (!isClip && company !== undefined) {
    const guests = crm.contacts.filter((contact) => contact.companyId === company.id);
    for (const guest of random.sample(guests, random.int(1, guests.length))) {
      participants.push({ attended: random.chance(0.9), email: guest.email, name: guest.name });
    }
  }
  const external = participants.some((participant) => participant.id === undefined);
  const durationMs = Math.max(durationSeconds, 60) * 1000;
  const ready = state === 'Ready';

  const labelIds = new Set<string>();
  if (deal !== undefined) labelIds.add(STAGE_LABELS[deal.stage] ?? 'lbl_discovery');
  if (!external && !isClip) labelIds.add('lbl_coaching');
  if (random.chance(0.2)) labelIds.add(random.pick(['lbl_demo', 'lbl_coaching', 'lbl_churn_risk']));

  return {
    id: `rec_${String(position + 1).padStart(3, '0')}`,
    createdAt: new Date(createdAt).toISOString(),
    durationSeconds,
    state,
    title,
    transcriptOnly: TELEPHONY.includes(source),
    labelIds: [...labelIds].sort(),
    recorderId,
    recorderAttended: random.chance(0.9),
    channelId: channelOf(random, deal?.pipelineId, external),
    companyIds: company === undefined ? [] : [company.id],
    dealId: deal?.id ?? null,
    topicIds: random.sample(
      DEMO_TOPICS.map((topic) => topic.id),
      external ? random.int(1, 3) : random.int(0, 1),
    ),
    langIso2,
    source,
    recordingType: isClip ? 'Clip' : 'Meeting',
    isPrivate: PRIVATE_INDEXES.has(index),
    meeting: isClip
      ? null
      : {
          startingAt: new Date(createdAt).toISOString(),
          endingAt: new Date(createdAt + durationMs).toISOString(),
          participants,
          type: external ? 'external' : 'internal',
          conferenceUrl: conferenceUrl(source, index),
        },
    analytics:
      ready && !isClip
        ? {
            interactivityScore: random.int(10, 100) / 10,
            longestCustomerStorySeconds: external ? random.int(15, 320) : 0,
            longestMonologueSeconds: random.int(20, 420),
            patienceSeconds: random.int(3, 30) / 10,
            questionsPerHour: random.int(2, 40),
            talkingRatio: random.int(20, 85) / 100,
          }
        : null,
    insights: ready ? insights(random, deal !== undefined, createdAt) : [],
    actionItems: ready
      ? [
          {
            langIso2,
            items: [
              { isChecked: random.chance(0.5), description: random.pick(NEXT_STEPS) },
              { isChecked: false, description: 'Send the recap email with the recording link.' },
            ],
          },
        ]
      : [],
    keyTakeaways: ready ? [{ langIso2, text: takeaway(deal?.stage, company?.name) }] : [],
    outlines: ready
      ? [{ langIso2, text: '1. Introductions\n2. Current process and pains\n3. Product walkthrough\n4. Next steps' }]
      : [],
    crm: deal === undefined ? null : 'hubspot',
  };
}

function titleOf(
  random: DemoRandom,
  source: RecordingSource,
  stage: string | undefined,
  company: string | undefined,
  recorder: string,
): string {
  const first = recorder.split(' ')[0] ?? recorder;
  if (source === 'Loom')
    return company === undefined ? `Product tip from ${first}` : `Proposal walkthrough for ${company}`;
  if (source === 'MobileApp')
    return company === undefined ? `Voice memo: ${first}'s week` : `Debrief after ${company} visit`;
  if (company === undefined)
    return random.pick([
      `Pipeline review with ${first}`,
      `1:1 coaching: ${first}`,
      'Weekly sales stand-up',
      'Call review session',
    ]);
  if (TELEPHONY.includes(source))
    return random.pick([`Cold call: ${company}`, `Follow-up call with ${company}`, `Qualification call: ${company}`]);
  const kind =
    stage === 'Demo'
      ? 'Demo'
      : stage === 'Negotiation' || stage === 'Proposal'
        ? 'Pricing discussion'
        : stage === 'Closed Won'
          ? 'Kick-off'
          : stage === 'Closed Lost'
            ? 'Loss review'
            : 'Discovery call';
  return `${kind} with ${company}`;
}

function channelOf(random: DemoRandom, pipelineId: string | undefined, external: boolean): string | null {
  if (pipelineId === 'pl_renewals') return 'ch_renewals';
  if (pipelineId === 'pl_new_business' || pipelineId === 'pl_expansion')
    return random.chance(0.8) ? 'ch_new_business' : null;
  if (!external) return random.chance(0.7) ? 'ch_coaching' : null;
  return random.chance(0.5) ? 'ch_onboarding' : null;
}

function conferenceUrl(source: RecordingSource, index: number): string {
  const code = String(100000000 + index * 7919);
  switch (source) {
    case 'Zoom':
      return `https://acme.zoom.us/j/${code}`;
    case 'GoogleMeet':
      return `https://meet.google.com/acm-${code.slice(0, 4)}-${code.slice(4, 7)}`;
    case 'MsTeams':
      return `https://teams.microsoft.com/l/meetup-join/${code}`;
    default:
      return '';
  }
}

function insights(random: DemoRandom, hasDeal: boolean, createdAt: number): StoredInsight[] {
  const { nextSteps, budgetConfirmed, decisionDate, seats, competitor } = DEMO_AI_FIELDS;
  return [
    { ...nextSteps, value: random.pick(NEXT_STEPS) },
    { ...budgetConfirmed, value: hasDeal ? random.chance(0.5) : null },
    {
      ...decisionDate,
      value:
        hasDeal && random.chance(0.6)
          ? new Date(createdAt + random.int(14, 90) * DAY_MS).toISOString().slice(0, 10)
          : null,
    },
    { ...seats, value: hasDeal ? random.int(1, 40) * 5 : null },
    { ...competitor, value: hasDeal ? competitors(random) : null },
  ];
}

function competitors(random: DemoRandom): string[] {
  // "None" is an option of its own, never listed next to a competitor.
  if (random.chance(0.25)) return ['None'];
  return random.sample(
    DEMO_COMPETITORS.filter((option) => option !== 'None'),
    random.int(1, 2),
  );
}

function takeaway(stage: string | undefined, company: string | undefined): string {
  if (company === undefined) return 'Focus on discovery depth: ask about impact before showing the product.';
  if (stage === 'Closed Lost') return `${company} chose a cheaper tool; price sensitivity was flagged too late.`;
  if (stage === 'Closed Won') return `${company} wants onboarding to start with the support team.`;
  return `${company} is evaluating two vendors; security review is the main blocker.`;
}

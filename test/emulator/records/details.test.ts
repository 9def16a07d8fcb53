import { describe, expect, it } from 'vitest';
import { recordingDetails } from '../../../src/emulator/records/details.js';
import { transcript } from '../../../src/emulator/records/transcript.js';
import type { StoredRecording } from '../../../src/emulator/records/types.js';
import { ctx, deal, NOW, recording, workspace } from './fixtures.js';

const data = workspace({
  deals: [deal('d1', { name: 'Globex expansion' })],
  companies: [
    {
      id: 'c1',
      name: 'Globex',
      domain: 'globex.example',
      contactIds: [],
      dealIds: ['d1'],
      hasInteraction: true,
      lastActivityAt: null,
    },
  ],
  recordings: [
    recording('r_ready', {
      channelId: 'ch_1',
      labelIds: ['lbl_y', 'lbl_x'],
      companyIds: ['c1'],
      dealId: 'd1',
      crm: 'hubspot',
      langIso2: 'fr',
      insights: [
        { fieldId: 'f1', title: 'Budget confirmed', kind: 'boolean', value: true },
        { fieldId: 'f2', title: 'Competitors', kind: 'select', value: ['Rival', 'Other'] },
        { fieldId: 'f3', title: 'Seats', kind: 'number', value: null },
      ],
      actionItems: [{ langIso2: 'fr', items: [{ isChecked: true, description: 'Envoyer le devis' }] }],
      keyTakeaways: [{ langIso2: 'fr', text: 'Budget validé' }],
      outlines: [{ langIso2: 'fr', text: '1. Intro' }],
    }),
    recording('r_phone', { transcriptOnly: true, source: 'Aircall' }),
    recording('r_empty', { state: 'Empty', durationSeconds: 0, analytics: null, meeting: null }),
    recording('r_uploaded', { state: 'Uploaded' }),
    recording('r_failed', { state: 'Failed' }),
    recording('r_private', { isPrivate: true }),
  ],
});

type Details = Record<string, unknown>;
function details(id: string, fullAccess = false): Details {
  const result = recordingDetails(data, id, ctx({ fullAccess }));
  if (result.status !== 200) throw new Error(`unexpected ${result.status}: ${result.message}`);
  return (result.result as { recording: Details }).recording;
}

const PROCESSED = ['transcripts', 'video', 'analytics', 'aiFields', 'actionItems', 'keyTakeaways', 'outlines'];

describe('recordingDetails', () => {
  it('gives a Ready recording every field of "Recording details"', () => {
    const ready = details('r_ready');
    expect(Object.keys(ready).sort()).toEqual([
      'actionItems',
      'aiFields',
      'analytics',
      'channel',
      'companies',
      'createdAt',
      'crmInfo',
      'deal',
      'durationSeconds',
      'id',
      'insightTemplates',
      'keyTakeaways',
      'labels',
      'meeting',
      'outlines',
      'recorder',
      'source',
      'state',
      'thumbnailUrl',
      'title',
      'transcriptOnly',
      'transcripts',
      'url',
      'video',
      'workspace',
    ]);
    expect(ready).toMatchObject({
      labels: ['Y', 'X'],
      recorder: { attended: true, email: 'ann@acme.test', id: 'u_ann', name: 'Ann Lee' },
      workspace: { id: 'ws_t', name: 'Test' },
      companies: [{ id: 'c1', name: 'Globex' }],
      channel: { id: 'ch_1', name: 'One' },
      deal: { id: 'd1', name: 'Globex expansion' },
      crmInfo: { crm: 'hubspot', deal: { id: 'd1' } },
      insightTemplates: [],
      aiFields: [
        { title: 'Budget confirmed', description: 'Yes' },
        { title: 'Competitors', description: 'Rival, Other' },
      ],
      transcripts: [{ isActive: true, isTranscript: true, langIso2: 'fr' }],
      video: {
        url: expect.stringMatching(
          /^http:\/\/127\.0\.0\.1:4010\/media\/recordings\/r_ready\/video\.mp4\?expires=[^&]+&signature=[0-9a-f]{64}$/,
        ),
      },
      url: 'http://127.0.0.1:4010/app/recordings/r_ready',
    });
  });

  it('gives a transcript-only recording no video', () => {
    const phone = details('r_phone');
    expect(phone).toHaveProperty('transcripts');
    expect(phone).not.toHaveProperty('video');
  });

  it.each(['r_empty', 'r_uploaded', 'r_failed'])('gives %s none of the processed fields', (id) => {
    const recordingDetailsOf = details(id);
    for (const field of PROCESSED) expect(recordingDetailsOf).not.toHaveProperty(field);
    expect(recordingDetailsOf).toMatchObject({ id, insightTemplates: [], labels: [] });
  });

  it('omits channel, deal, crmInfo and meeting when the recording has none', () => {
    const empty = details('r_empty');
    for (const field of ['channel', 'deal', 'crmInfo', 'meeting']) expect(empty).not.toHaveProperty(field);
  });

  it('reports private recordings as not found without Full access, and unknown ids', () => {
    expect(recordingDetails(data, 'r_private', ctx())).toMatchObject({ status: 404, type: 'not_found' });
    expect(details('r_private', true)).toMatchObject({ id: 'r_private' });
    expect(recordingDetails(data, 'r_nope', ctx())).toMatchObject({ status: 404, type: 'not_found' });
  });
});

describe('transcript', () => {
  it('returns a URL that expires 24 hours after the injected now', () => {
    const now = NOW + 12_345;
    const result = transcript(data, 'r_ready', ctx({ now }));
    expect(result).toEqual({
      status: 200,
      result: {
        url: expect.stringMatching(
          /^http:\/\/127\.0\.0\.1:4010\/media\/recordings\/r_ready\/transcript-fr\.json\?expires=/,
        ),
        expiresAt: new Date(now + 24 * 60 * 60 * 1000).toISOString(),
      },
    });
  });

  it.each<[string, StoredRecording['state']]>([
    ['r_empty', 'Empty'],
    ['r_uploaded', 'Uploaded'],
    ['r_failed', 'Failed'],
  ])('is not found for %s (%s) with a message that says why', (id) => {
    const result = transcript(data, id, ctx());
    expect(result).toMatchObject({ status: 404, type: 'not_found', message: expect.stringContaining('no transcript') });
  });

  it('hides private recordings without Full access', () => {
    expect(transcript(data, 'r_private', ctx())).toMatchObject({
      status: 404,
      message: expect.not.stringContaining('transcript:'),
    });
    expect(transcript(data, 'r_private', ctx({ fullAccess: true }))).toMatchObject({ status: 200 });
  });
});

import { describe, expect, it } from 'vitest';
import { DOMAINS } from '../../src/domain/domains.js';
import { checkEmulatorData } from '../../src/emulator/data-file.js';
import { ViewctlError } from '../../src/errors.js';
import { fixture } from './fixture.js';
import { call, useEmulator } from './helpers.js';

const start = useEmulator();

type Data = Record<string, any>;

/** broken returns the fixture as plain JSON with one change made by `edit`. */
function broken(edit: (data: Data) => void): Data {
  const data = JSON.parse(JSON.stringify(fixture())) as Data;
  edit(data);
  return data;
}

function problemOf(value: unknown): string {
  try {
    checkEmulatorData(value, 'test.json');
  } catch (error) {
    if (!(error instanceof ViewctlError)) throw error;
    expect(error.code).toBe('emulator.data-invalid');
    return error.message;
  }
  throw new Error('the data was accepted');
}

describe('emulator data: every field the emulator reads is checked, by JSON path', () => {
  it.each<[string, (data: Data) => void, string]>([
    [
      'a recording with only an id',
      (data) => (data.recordings = [{ id: 'r1' }]),
      '$.recordings[0].createdAt must be a string',
    ],
    [
      'a recording state outside the enum',
      (data) => (data.recordings[0].state = 'Done'),
      '$.recordings[0].state must be one of Empty, Uploaded, Ready, Failed',
    ],
    [
      'a recording source outside the enum',
      (data) => (data.recordings[0].source = 'Fax'),
      '$.recordings[0].source must be one of Api,',
    ],
    [
      'a recording without labelIds',
      (data) => delete data.recordings[0].labelIds,
      '$.recordings[0].labelIds must be an array',
    ],
    [
      'a channelId that is a number',
      (data) => (data.recordings[0].channelId = 7),
      '$.recordings[0].channelId must be a string or null',
    ],
    [
      'a meeting participant without a name',
      (data) =>
        (data.recordings[0].meeting = {
          startingAt: 'a',
          endingAt: 'b',
          type: 'internal',
          conferenceUrl: 'u',
          participants: [{ attended: true, email: 'e' }],
        }),
      '$.recordings[0].meeting.participants[0].name must be a string',
    ],
    [
      'analytics with a text score',
      (data) => (data.recordings[0].analytics = { interactivityScore: 'high' }),
      '$.recordings[0].analytics.interactivityScore must be a number',
    ],
    [
      'an insight value that is an object',
      (data) => (data.recordings[0].insights = [{ fieldId: 'f', title: 't', kind: 'string', value: {} }]),
      '$.recordings[0].insights[0].value must be a boolean, number, string, list of strings or null',
    ],
    [
      'an action item without description',
      (data) => (data.recordings[0].actionItems = [{ langIso2: 'en', items: [{ isChecked: true }] }]),
      '$.recordings[0].actionItems[0].items[0].description must be a string',
    ],
    [
      'a deal status outside the enum',
      (data) => (data.deals[0].status = 'Maybe'),
      '$.deals[0].status must be one of Open, Won, Lost',
    ],
    [
      'a deal amount without currency',
      (data) => (data.deals[0].amount = { value: 1 }),
      '$.deals[0].amount.currency must be a string',
    ],
    [
      'a company without contactIds',
      (data) => delete data.companies[0].contactIds,
      '$.companies[0].contactIds must be an array',
    ],
    [
      'a contact without lastActivityAt',
      (data) => delete data.contacts[0].lastActivityAt,
      '$.contacts[0].lastActivityAt must be a string or null',
    ],
    [
      'a user without a license',
      (data) => delete data.users[0].license,
      '$.users[0].license must be one of None, Lite, Full',
    ],
    [
      'a view whose icon is a number',
      (data) => (data.views.companies[0].icon = 3),
      '$.views.companies[0].icon must be a string',
    ],
    [
      'a view sort entry that is not an object',
      (data) => (data.views.contacts[0].sort = ['Name']),
      '$.views.contacts[0].sort[0] must be an object',
    ],
    [
      'a view filter date that does not exist',
      (data) => (data.views.recordings[0].filters = { createdAfterAt: '2026-02-30' }),
      '$.views.recordings[0].filters.createdAfterAt is not a recordings view filters value: filters.createdAfterAt is not a date that exists',
    ],
    [
      'a view sort field that is a built-in name',
      (data) => (data.views.deals[0].sort = [{ field: '__proto__', order: 'Asc' }]),
      '$.views.deals[0].sort is not a deals view sort value',
    ],
    ['a team without memberIds', (data) => delete data.teams[0].memberIds, '$.teams[0].memberIds must be an array'],
    ['a label without a name', (data) => delete data.labels[0].name, '$.labels[0].name must be a string'],
    ['a webhook without a secret', (data) => delete data.webhooks[0].secret, '$.webhooks[0].secret must be a string'],
    [
      'an automation without a name',
      (data) => delete data.automations[0].name,
      '$.automations[0].name must be a string',
    ],
    [
      'a repeated automation id',
      (data) => data.automations.push(data.automations[0]),
      '$.automations[2].adminAutomationId repeats the automation id "aa_first"',
    ],
    [
      'a counter that is text',
      (data) => (data.nextIds = { 'view:deals': '3' }),
      '$.nextIds.view:deals must be an integer of 0 or more',
    ],
  ])('%s is refused', (_, edit, message) => {
    expect(problemOf(broken(edit))).toContain(`emulator data test.json: ${message}`);
  });

  it('pinned lists must name users of $.users', () => {
    expect(problemOf(broken((data) => (data.pinned.deals.u_ghost = ['d_pub1'])))).toContain(
      '$.pinned.deals.u_ghost names the user id "u_ghost", which is not in $.users',
    );
  });

  it('pinned lists must name views of their own domain', () => {
    expect(problemOf(broken((data) => (data.pinned.deals.u_member = ['d_pub1', 'c_pub1'])))).toContain(
      '$.pinned.deals.u_member[1] names the view id "c_pub1", which is not in $.views.deals',
    );
  });

  it('the fixture passes, and every read endpoint serves it without a fault', async () => {
    const emulator = await start({ data: checkEmulatorData(fixture(), 'fixture') });
    const paths = [
      ...DOMAINS.flatMap((domain) => [
        `/v1/${domain}`,
        `/v1/${domain}/views`,
        `/v1/${domain}/views/pinned?userEmail=member@acme.test`,
      ]),
      '/v1/recordings/rec_1',
      '/v1/recordings/rec_1/transcript',
      '/v1/users',
      '/v1/workspaces/mine',
      '/v1/admin-automations',
    ];
    for (const path of paths) expect((await call(emulator, 'GET', path)).status, path).toBe(200);
  });
});

import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { executeOperations } from '../../src/apply/execute.js';
import { buildOperations } from '../../src/plan/operations.js';
import type { ApiView } from '../../src/domain/api-types.js';
import type { Change } from '../../src/plan/types.js';
import { createServiceClient } from '../../src/service/client.js';
import type { Live } from '../../src/state/types.js';
import { FakeClock, json, startServer, type TestServer } from '../service/helpers.js';
import { handPlan, snapshot } from './plan-fixtures.js';

/**
 * A create the service holds longer than the client's attempt timeout, and carries
 * out later: the client must not send it again (that made two views), and must find
 * the one view once it shows. The client runs on a fake clock that moves only when the
 * service has the create in hand, so the timeout comes after the request arrived
 * however slow the machine, and nothing waits on a real timer (its burst lets the
 * re-listings go without spacing, which would wait on that clock).
 */

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const view = (viewId: string, name: string): ApiView => ({
  viewId,
  name,
  visibility: 'Public',
  isDefault: false,
  ownerId: 'u_ops',
  columns: [],
  filters: {},
  sort: [],
});
const create: Change = {
  action: 'create',
  target: 'view:recordings:name:Team',
  kind: 'RecordingView',
  name: 'Team',
  domain: 'recordings',
  before: null,
  after: snapshot('Team'),
};
const live: Live = {
  workspace: { id: 'ws_test', name: 'Test', createdAt: '', membersCount: 1, recordingsCount: 0 },
  views: { recordings: [view('rv_old', 'Old')] },
  pins: {},
  requests: { used: 0, dailyRemaining: null },
};

/** TIMEOUT_MS is the client's attempt timeout, on the fake clock. */
const TIMEOUT_MS = 500;

/**
 * A service that holds every POST unanswered and carries it out only when the
 * `landOnListing`-th listing arrives (never, when 0): the held request lands late.
 * Holding a POST moves `clock` past the attempt timeout: the client gives up on it.
 */
async function slowService(landOnListing: number, clock: FakeClock): Promise<{ server: TestServer; views: ApiView[] }> {
  const views = [view('rv_old', 'Old')];
  const held: ServerResponse[] = [];
  let listings = 0;
  let posted = 0;
  const server = await startServer((hit, res) => {
    if (hit.method === 'POST') {
      posted += 1;
      held.push(res);
      void clock.advance(TIMEOUT_MS);
      return;
    }
    listings += 1;
    if (listings === landOnListing && posted > 0) views.push(view(`rv_new_${posted}`, 'Team'));
    json(res, 200, { result: views });
  });
  servers.push(server);
  return { server, views };
}

const instant = async (): Promise<void> => undefined;

describe('a create held past the attempt timeout', () => {
  it('is sent once and adopted when it lands between listings: one view, not two', async () => {
    const clock = new FakeClock();
    const { server, views } = await slowService(2, clock);
    const client = createServiceClient({
      baseUrl: server.baseUrl,
      apiKey: 'key-slow-create',
      rate: 1000,
      burst: 100,
      timeoutMs: TIMEOUT_MS,
      clock,
    });
    const execution = await executeOperations(handPlan([create]), buildOperations(handPlan([create])), {
      client,
      live,
      sleep: instant,
    });
    expect(execution.outcomes[0]).toMatchObject({ status: 'landed', viewId: 'rv_new_1', note: 'adopted' });
    expect(server.hits.filter((hit) => hit.method === 'POST')).toHaveLength(1);
    expect(views.filter((candidate) => candidate.name === 'Team')).toHaveLength(1);
  });

  it('that never shows is reported as may have landed, still sent once', async () => {
    const clock = new FakeClock();
    const { server } = await slowService(0, clock);
    const client = createServiceClient({
      baseUrl: server.baseUrl,
      apiKey: 'key-slow-create',
      rate: 1000,
      burst: 100,
      timeoutMs: TIMEOUT_MS,
      clock,
    });
    const execution = await executeOperations(handPlan([create]), buildOperations(handPlan([create])), {
      client,
      live,
      sleep: instant,
    });
    expect(execution.outcomes[0]).toMatchObject({
      status: 'failed',
      error: { code: 'apply.create-unconfirmed', mayHaveLanded: true },
    });
    expect(server.hits.filter((hit) => hit.method === 'POST')).toHaveLength(1);
  });
});

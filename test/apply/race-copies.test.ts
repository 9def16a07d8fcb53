import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Execution, OperationOutcome } from '../../src/apply/execute.js';
import type { Operation } from '../../src/plan/operations.js';
import { createdKey } from '../../src/kinds/kind.js';
import { findRaceCopies, raceDomains, settleRaceCopies } from '../../src/apply/race-copies.js';
import { compareIds } from '../../src/domain/views.js';
import type { ApiView } from '../../src/domain/api-types.js';
import type { Domain } from '../../src/domain/domains.js';
import { ServiceError } from '../../src/errors.js';
import type { ServiceClient, ServiceRequest } from '../../src/service/types.js';
import type { Live } from '../../src/state/types.js';
import { emptyLive } from '../plan/fixtures.js';

/** Copies left by concurrent applies: found in the listings read after writing; identical ones reduced to the smallest id, others only ever the run's own. */

function view(viewId: string, name: string, extra: Partial<ApiView> = {}): ApiView {
  return {
    viewId,
    name,
    visibility: 'Public',
    isDefault: false,
    ownerId: 'u_1',
    columns: [],
    filters: {},
    sort: [],
    ...extra,
  };
}

function created(changeIndex: number, domain: Domain, name: string, viewId: string): OperationOutcome {
  const operation: Operation = {
    id: `${changeIndex}-create`,
    changeIndex,
    action: 'create',
    kind: 'RecordingView',
    name,
    domain,
    method: 'POST',
    route: `/v1/${domain}/views`,
    params: {},
    query: {},
    body: { name },
    endpoint: `POST /v1/${domain}/views`,
    phase: 10,
    creates: createdKey(domain, name),
    newViewTabs: [],
  };
  return { status: 'landed', operation, viewId };
}

function lostCreate(changeIndex: number, domain: Domain, name: string): OperationOutcome {
  const { operation } = created(changeIndex, domain, name, 'unused') as { operation: Operation };
  return {
    status: 'failed',
    operation,
    error: { code: 'apply.create-unconfirmed', message: 'lost', mayHaveLanded: true },
  };
}

const live: Live = { ...emptyLive(), views: { recordings: [view('rv_old', 'Calls')] } };

describe('copies made by concurrent applies', () => {
  it('orders ids shorter first, so sequential ids keep the first created', () => {
    expect(['rv_10', 'rv_9', 'rv_11', 'rv_1'].sort(compareIds)).toEqual(['rv_1', 'rv_9', 'rv_10', 'rv_11']);
  });

  it('finds a created name that other new public views carry, ignoring views that existed, defaults and private views; identical copies keep the smallest id', () => {
    const execution: Execution = {
      outcomes: [created(0, 'recordings', 'Team', 'rv_12'), created(1, 'recordings', 'Solo', 'rv_13')],
      stopped: null,
    };
    const listing = [
      view('rv_old', 'Team'),
      view('rv_12', 'Team'),
      view('rv_10', 'Team'),
      view('rv_9', 'Team'),
      view('rv_d', 'Team', { isDefault: true }),
      view('rv_p', 'Team', { visibility: 'Private' }),
      view('rv_13', 'Solo'),
    ];
    expect(
      findRaceCopies(
        execution,
        { ...live, views: { recordings: [view('rv_old', 'Team')] } },
        new Map([['recordings', listing]]),
      ),
    ).toEqual([
      {
        domain: 'recordings',
        name: 'Team',
        changeIndex: 0,
        ours: 'rv_12',
        deleted: ['rv_10', 'rv_12'],
        kept: 'rv_9',
        leftAlone: [],
      },
    ]);
  });

  it('a run whose create lost its answer (or was adopted by name) reduces identical copies to the smallest id and never deletes a copy with other attributes', () => {
    const lost = lostCreate(0, 'recordings', 'Team');
    const adopted = { ...created(0, 'recordings', 'Team', 'rv_7'), note: 'adopted' } as OperationOutcome;
    const identical = [view('rv_8', 'Team'), view('rv_7', 'Team')];
    for (const outcome of [lost, adopted]) {
      expect(
        findRaceCopies({ outcomes: [outcome], stopped: 'failure' }, live, new Map([['recordings', identical]])),
      ).toEqual([
        {
          domain: 'recordings',
          name: 'Team',
          changeIndex: 0,
          ours: undefined,
          deleted: ['rv_8'],
          kept: 'rv_7',
          leftAlone: [],
        },
      ]);
    }
    const different = [view('rv_8', 'Team'), view('rv_7', 'Team', { icon: 'star' })];
    expect(
      findRaceCopies({ outcomes: [lost], stopped: 'failure' }, live, new Map([['recordings', different]])),
    ).toEqual([
      {
        domain: 'recordings',
        name: 'Team',
        changeIndex: 0,
        ours: undefined,
        deleted: [],
        kept: undefined,
        leftAlone: ['rv_7', 'rv_8'],
      },
    ]);
  });

  it("a run that knows its copy yields it to another run's copy with other attributes, and stands for that one", () => {
    const execution: Execution = { outcomes: [created(0, 'recordings', 'Team', 'rv_7')], stopped: null };
    const listing = [view('rv_7', 'Team'), view('rv_8', 'Team', { filters: { sourceIn: ['Call'] } })];
    expect(findRaceCopies(execution, live, new Map([['recordings', listing]]))).toEqual([
      {
        domain: 'recordings',
        name: 'Team',
        changeIndex: 0,
        ours: 'rv_7',
        deleted: ['rv_7'],
        kept: 'rv_8',
        leftAlone: [],
      },
    ]);
  });

  it('leaves one copy whatever order concurrent runs look in, as long as the last look sees every copy', () => {
    // Each run creates one identical copy (its id: the order its create landed in), then
    // looks once, at any time after its own create landed, and settles what it sees.
    fc.assert(
      fc.property(
        fc
          .integer({ min: 2, max: 5 })
          .chain((runs) =>
            fc.tuple(
              fc.constant(runs),
              fc.shuffledSubarray([...Array(runs).keys()], { minLength: runs, maxLength: runs }),
              fc.array(fc.boolean(), { minLength: runs, maxLength: runs }),
            ),
          ),
        ([runs, lookOrder, answered]) => {
          const ids = [...Array(runs).keys()].map((index) => `rv_${index + 1}`);
          const alive = new Set<string>();
          let landed = 0;
          for (const run of lookOrder) {
            // Every create up to this run's own has landed by the time it looks.
            while (landed <= run) alive.add(ids[landed++] as string);
            const outcome =
              answered[run] === true
                ? created(0, 'recordings', 'Team', ids[run] as string)
                : lostCreate(0, 'recordings', 'Team');
            const listing = [...alive].map((id) => view(id, 'Team'));
            for (const race of findRaceCopies(
              { outcomes: [outcome], stopped: null },
              live,
              new Map([['recordings', listing]]),
            )) {
              for (const id of race.deleted) alive.delete(id);
            }
          }
          expect(alive.size).toBeGreaterThanOrEqual(1);
          if (landed === runs) expect([...alive]).toEqual(['rv_1']);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('deletes the copies decided on (a 404 is fine), points the create at the copy kept and reports it', async () => {
    for (const gone of [false, true]) {
      const sent: ServiceRequest[] = [];
      const client: ServiceClient = {
        request: <T>(request: ServiceRequest): Promise<T> => {
          sent.push(request);
          if (gone)
            return Promise.reject(new ServiceError('service.not-found', 'gone', { endpoint: 'DELETE', status: 404 }));
          return Promise.resolve({ ok: true } as T);
        },
        stats: () => ({ requests: sent.length, retries: 0, rateLimited: 0, dailyRemaining: null }),
      };
      const execution: Execution = { outcomes: [created(0, 'recordings', 'Team', 'rv_12')], stopped: null };
      const listing = [view('rv_12', 'Team'), view('rv_14', 'Team'), view('rv_9', 'Team'), view('rv_old', 'Calls')];
      const settled = await settleRaceCopies(execution, live, new Map([['recordings', listing]]), client);
      expect(sent.map((request) => `${request.method} ${request.params?.viewId ?? ''}`)).toEqual([
        'DELETE rv_12',
        'DELETE rv_14',
      ]);
      expect(settled.listings.get('recordings')?.map((entry) => entry.viewId)).toEqual(['rv_9', 'rv_old']);
      const [outcome] = settled.execution.outcomes;
      expect(outcome?.status === 'landed' ? outcome.viewId : undefined).toBe('rv_9');
      expect(settled.problems).toEqual([
        {
          changeIndex: 0,
          kind: 'RecordingView',
          name: 'Team',
          id: 'rv_12',
          message:
            'a concurrent run created "Team" too: rv_9, rv_12, rv_14; this run deleted rv_12, rv_14 (its own copy rv_12); ' +
            "this run's create now stands for rv_9; pinned tabs set to a deleted copy are gone",
        },
      ]);
    }
  });

  it('lets a bug while deleting a copy reach the top-level catch instead of reporting "could not delete"', async () => {
    const client: ServiceClient = {
      request: () => Promise.reject(new TypeError('not a function')),
      stats: () => ({ requests: 0, retries: 0, rateLimited: 0, dailyRemaining: null }),
    };
    const execution: Execution = { outcomes: [created(0, 'recordings', 'Team', 'rv_12')], stopped: null };
    const listing = [view('rv_12', 'Team'), view('rv_9', 'Team')];
    await expect(settleRaceCopies(execution, live, new Map([['recordings', listing]]), client)).rejects.toBeInstanceOf(
      TypeError,
    );
  });

  it('changes nothing when every created name is unique', async () => {
    const client: ServiceClient = {
      request: () => Promise.reject(new Error('no request expected')),
      stats: () => ({ requests: 0, retries: 0, rateLimited: 0, dailyRemaining: null }),
    };
    const execution: Execution = { outcomes: [created(0, 'recordings', 'Team', 'rv_12')], stopped: null };
    const settled = await settleRaceCopies(execution, live, new Map([['recordings', [view('rv_12', 'Team')]]]), client);
    expect(settled.problems).toEqual([]);
    expect(settled.execution).toEqual(execution);
  });

  it('takes a create that failed for sure as having made no copy, and looks only where a create landed or may have', () => {
    const refused: OperationOutcome = {
      ...lostCreate(0, 'recordings', 'Team'),
      error: { code: 'service.validation', message: 'bad', status: 400 },
    } as OperationOutcome;
    const notAttempted: OperationOutcome = {
      status: 'not-attempted',
      operation: created(1, 'deals', 'Team', 'x').operation,
    };
    const listing = [view('rv_8', 'Team'), view('rv_7', 'Team')];
    expect(
      findRaceCopies(
        { outcomes: [refused, notAttempted], stopped: 'failure' },
        live,
        new Map([['recordings', listing]]),
      ),
    ).toEqual([]);
    expect(raceDomains({ outcomes: [refused, notAttempted], stopped: 'failure' })).toEqual([]);
    const execution: Execution = {
      outcomes: [
        created(0, 'deals', 'A', 'dv_1'),
        lostCreate(1, 'recordings', 'B'),
        created(2, 'deals', 'C', 'dv_2'),
        refused,
      ],
      stopped: 'failure',
    };
    expect(raceDomains(execution)).toEqual(['deals', 'recordings']);
  });

  it('says when the copies it deleted were identical ones rather than its own', async () => {
    const client: ServiceClient = {
      request: <T>() => Promise.resolve({} as T),
      stats: () => ({ requests: 0, retries: 0, rateLimited: 0, dailyRemaining: null }),
    };
    const execution: Execution = { outcomes: [created(0, 'recordings', 'Team', 'rv_7')], stopped: null };
    const settled = await settleRaceCopies(
      execution,
      live,
      new Map([['recordings', [view('rv_7', 'Team'), view('rv_8', 'Team')]]]),
      client,
    );
    expect(settled.problems[0]?.message).toBe(
      'a concurrent run created "Team" too: rv_7, rv_8; this run deleted rv_8 (identical copies: every run keeps the smallest id); ' +
        "this run's create now stands for rv_7; pinned tabs set to a deleted copy are gone",
    );
  });

  it('reports a copy the service would not delete, and still settles the rest', async () => {
    const sent: string[] = [];
    const client: ServiceClient = {
      request: <T>(request: ServiceRequest): Promise<T> => {
        const id = String(request.params?.viewId);
        sent.push(id);
        if (id === 'rv_8')
          return Promise.reject(
            new ServiceError('service.unavailable', 'the service answered 503', { endpoint: 'DELETE', status: 503 }),
          );
        return Promise.resolve({} as T);
      },
      stats: () => ({ requests: sent.length, retries: 0, rateLimited: 0, dailyRemaining: null }),
    };
    const execution: Execution = { outcomes: [lostCreate(0, 'recordings', 'Team')], stopped: 'failure' };
    const listing = [view('rv_7', 'Team'), view('rv_8', 'Team'), view('rv_9', 'Team')];
    const settled = await settleRaceCopies(execution, live, new Map([['recordings', listing]]), client);
    expect(sent).toEqual(['rv_8', 'rv_9']);
    expect(settled.problems).toEqual([
      expect.objectContaining({
        changeIndex: 0,
        name: 'Team',
        message: expect.stringMatching(/\(could not delete rv_8: the service answered 503\)$/),
      }),
    ]);
    expect(settled.problems[0]).not.toHaveProperty('id');
  });

  it('leaves copies with other attributes alone when its create was adopted, and no longer names a view for that create', async () => {
    const client: ServiceClient = {
      request: () => Promise.reject(new Error('no request expected')),
      stats: () => ({ requests: 0, retries: 0, rateLimited: 0, dailyRemaining: null }),
    };
    const adopted = { ...created(0, 'recordings', 'Team', 'rv_7'), note: 'adopted' } as OperationOutcome;
    const listing = [view('rv_7', 'Team'), view('rv_8', 'Team', { icon: 'star' })];
    const settled = await settleRaceCopies(
      { outcomes: [adopted], stopped: null },
      live,
      new Map([['recordings', listing]]),
      client,
    );
    const [outcome] = settled.execution.outcomes;
    expect(outcome).toMatchObject({ status: 'landed', note: 'adopted' });
    expect(outcome).not.toHaveProperty('viewId');
    expect(settled.listings.get('recordings')).toEqual(listing);
    expect(settled.problems[0]?.message).toBe(
      'a concurrent run created "Team" too: rv_7, rv_8; left rv_7, rv_8 alone (other attributes: not this run\'s to delete)',
    );
  });
});

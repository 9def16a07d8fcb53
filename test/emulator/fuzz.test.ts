import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOMAINS } from '../../src/domain/domains.js';
import { COMPANY_FILTERS } from '../../src/emulator/records/filters/company-filters.js';
import { CONTACT_FILTERS } from '../../src/emulator/records/filters/contact-filters.js';
import { DEAL_FILTERS } from '../../src/emulator/records/filters/deal-filters.js';
import { RECORDING_FILTERS } from '../../src/emulator/records/filters/recording-filters.js';
import { buildRoutes } from '../../src/emulator/routes.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { ruleChecker } from '../../src/emulator/views/rule-checker.js';
import { ids, USERS } from './fixture.js';
import { useEmulator, type Reply } from './helpers.js';
import { sendRaw, type RawReply } from './raw-http.js';

/**
 * Issue 15's "no wrong answer under any input": every route (method + template) is
 * driven with hostile input (built-in property names in every string position of the
 * path, the query and the body, dates that do not exist in every date position, wrong
 * types, oversized strings, malformed JSON) and malformed HTTP is sent on raw sockets.
 * Every answer must be a success of the route's documented shape or the documented
 * JSON error with a 4xx status: never a 5xx, never an empty body.
 */

const start = useEmulator();

const BUILTINS = [
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  '__defineGetter__',
  'prototype',
];
const IMPOSSIBLE_DATES = [
  '2026-13-45',
  '2026-00-00',
  '2026-02-30',
  '2026-10-01T25:61',
  '2026-10-01T24:00:00Z',
  '2026-02-29T10:00:00Z',
  '9999-99-99',
];
const REAL = [
  'rec_1',
  'rec_secret',
  'u_owner',
  'wh_1',
  USERS.owner.email,
  USERS.member.email,
  'Zoom',
  'CreatedAt',
  'Insight',
  'Desc',
  'created_asc',
  ...DOMAINS.flatMap((domain) => [...ids(domain).publics, ids(domain).private, ...ids(domain).defaults]),
];
const FILTER_NAMES = [
  ...new Set(
    [RECORDING_FILTERS, DEAL_FILTERS, COMPANY_FILTERS, CONTACT_FILTERS].flatMap((table) => Object.keys(table)),
  ),
];
const KEYS = [
  'creatorEmail',
  'name',
  'icon',
  'columns',
  'filters',
  'sort',
  'viewIds',
  'type',
  'recordingId',
  'field',
  'order',
  'insight',
  'fieldId',
  'columnId',
  'title',
  'width',
  'isHidden',
  'gte',
  'lte',
  'is',
  'isNot',
  'exists',
  'contains',
  'in',
  'notIn',
  'userId',
  'boolFilter',
  'dateFilter',
  'numFilter',
  'strFilter',
  'selectFilter',
  'existsFilter',
  ...FILTER_NAMES,
];
const QUERY_NAMES = [
  'userEmail',
  'limit',
  'cursor',
  'viewId',
  'channelId',
  'labels',
  'recorderId',
  'recorderEmail',
  'createdAfter',
  'createdBefore',
  'sources',
  'sort',
];

const hostileString = fc.oneof(
  fc.constantFrom(...BUILTINS),
  fc.constantFrom(...IMPOSSIBLE_DATES),
  fc.constantFrom(...REAL),
  fc.constantFrom('', ' ', '-1', '0', '101', '1e999', 'NaN', 'null', '%zz', '../..', 'a,b,,', `${BUILTINS.join(',')}`),
  fc.string({ maxLength: 12 }),
  fc.constant('x'.repeat(3000)),
);
const key = fc.oneof(fc.constantFrom(...BUILTINS), fc.constantFrom(...KEYS), fc.string({ maxLength: 8 }));

// JSON as text, so keys such as __proto__ reach the emulator as own attributes.
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc
      .oneof(hostileString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null))
      .map((scalar) => JSON.stringify(scalar)),
    fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(key, tie('value')), { maxLength: 5 })
      .map((entries) => `{${entries.map(([name, value]) => `${JSON.stringify(name)}:${value}`).join(',')}}`),
  ),
})).value;

const date = fc.oneof(
  fc.constantFrom(...IMPOSSIBLE_DATES),
  fc.constantFrom(...BUILTINS),
  fc.integer(),
  fc.constant('2026-01-31'),
);
// A view body that is valid but for its dates and built-in names, so the hostile values get past the outer checks.
const viewBody = fc
  .record(
    {
      creatorEmail: fc.constantFrom(USERS.owner.email, ...BUILTINS),
      name: fc.oneof(fc.constantFrom('Fuzzed'), hostileString),
      filters: fc.record(
        {
          createdAfterAt: date,
          createdBeforeAt: date,
          insights: fc.constant([{ type: 'date', fieldId: 'f1', dateFilter: { gte: '2026-02-30' } }]),
        },
        { requiredKeys: [] },
      ),
      sort: fc.array(
        fc.record(
          {
            field: fc.constantFrom('CreatedAt', 'Insight', ...BUILTINS),
            order: fc.constantFrom('Asc', ...BUILTINS),
            insight: fc.record({ fieldId: hostileString }),
          },
          { requiredKeys: ['field', 'order'] },
        ),
        { maxLength: 2 },
      ),
    },
    { requiredKeys: [] },
  )
  .map((body) => JSON.stringify(body));
const body = fc.oneof(
  jsonText,
  viewBody,
  fc
    .array(fc.oneof(fc.constantFrom(...REAL), hostileString), { maxLength: 3 })
    .map((viewIds) => JSON.stringify({ viewIds })),
  fc
    .record({
      type: fc.constantFrom('recording_added', ...BUILTINS),
      recordingId: fc.oneof(fc.constantFrom('rec_1'), hostileString),
    })
    .map((value) => JSON.stringify(value)),
  fc.constantFrom('', '{', '{"a":', 'null', '[]', '"x"', '\u0000'),
);

const routes = buildRoutes({ checker: ruleChecker, webhooks: { dispatch: () => undefined, close: () => undefined } });
const request = fc.record({
  route: fc.constantFrom(...routes.map((route) => ({ method: route.method, template: route.template }))),
  params: fc.array(fc.tuple(hostileString, fc.boolean()), { minLength: 2, maxLength: 2 }),
  query: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_NAMES), fc.constantFrom(...BUILTINS)), hostileString), {
    maxLength: 4,
  }),
  body,
  // Mostly with the key, so the hostile values reach the handlers.
  withKey: fc.integer({ min: 0, max: 9 }).map((draw) => draw > 0),
});

/** STATUS_TYPES are the error types each status may carry (the service's "Errors"; README, emulator). */
const STATUS_TYPES = new Map<number, string>([
  [400, 'validation_error'],
  [401, 'unauthorized'],
  [403, 'forbidden'],
  [404, 'not_found'],
  [408, 'validation_error'],
  [417, 'validation_error'],
  [429, 'rate_limited'],
  [431, 'validation_error'],
]);

function expectDocumentedError(status: number, body: unknown): void {
  expect(STATUS_TYPES.has(status), `status ${status}`).toBe(true);
  expect(body).toMatchObject({ error: { type: STATUS_TYPES.get(status), message: expect.any(String) } });
  const error = (body as { error: Record<string, unknown> }).error;
  expect(Object.keys(error).every((name) => ['type', 'message', 'path'].includes(name))).toBe(true);
  if ('path' in error) expect(typeof error.path).toBe('string');
}

// The service's success shapes, by route template.
function expectSuccessShape(method: string, template: string, result: unknown): void {
  const object = expect.any(Object);
  if (/\/views(\/pinned)?$/.test(template) && !(method === 'POST')) expect(Array.isArray(result)).toBe(true);
  else if (/\/views$/.test(template) || (/\/views\/\{viewId\}$/.test(template) && method !== 'DELETE')) {
    expect(result).toMatchObject({
      viewId: expect.any(String),
      name: expect.any(String),
      columns: expect.any(Array),
      filters: object,
      sort: expect.any(Array),
    });
  } else if (method === 'DELETE' || template.endsWith('/trigger')) expect(result).toEqual({ ok: true });
  else if (template === '/v1/recordings/{recordingId}')
    expect(result).toMatchObject({ recording: { id: expect.any(String) } });
  else if (template.endsWith('/transcript'))
    expect(result).toMatchObject({ url: expect.any(String), expiresAt: expect.any(String) });
  else if (template === '/v1/users/{userId}') expect(result).toMatchObject({ user: { id: expect.any(String) } });
  else if (template === '/v1/workspaces/mine') expect(result).toMatchObject({ workspace: { id: expect.any(String) } });
  else if (template === '/v1/admin-automations') expect(Array.isArray(result)).toBe(true);
  else {
    const name = template.split('/')[2] ?? '';
    expect(result).toMatchObject({ [name]: expect.any(Array), pagination: { totalCount: expect.any(Number) } });
  }
}

function expectAnswer(method: string, template: string, reply: Pick<Reply, 'status' | 'body'>, text: string): void {
  expect(text, `${method} ${template}: empty body`).not.toBe('');
  expect(reply.status, `${method} ${template}: ${text.slice(0, 300)}`).toBeLessThan(500);
  if (reply.status === 200) {
    expect(Object.keys(reply.body as object)).toEqual(['result']);
    expectSuccessShape(method, template, (reply.body as { result: unknown }).result);
  } else {
    expectDocumentedError(reply.status, reply.body);
  }
}

function pathOf(template: string, params: [string, boolean][]): string {
  let index = 0;
  return template.replace(/\{[a-zA-Z]+\}/g, () => {
    const [value, encoded] = params[index++] ?? ['x', true];
    // Unencoded, a value may hold '/', '?' or a bad escape: routing must cope too.
    return encoded || value === '' ? encodeURIComponent(value) || 'x' : value.replace(/[\s#]/g, '_');
  });
}

async function send(
  emulator: RunningEmulator,
  method: string,
  path: string,
  body: string,
  withKey: boolean,
): Promise<{ reply: Reply; text: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (withKey) headers['x-service-key'] = emulator.apiKey;
  const hasBody = method !== 'GET' && method !== 'DELETE';
  const response = await fetch(`${emulator.url}${path}`, { method, headers, ...(hasBody ? { body } : {}) });
  const text = await response.text();
  expect(response.headers.get('content-type'), `${method} ${path}`).toContain('application/json');
  return { reply: { status: response.status, headers: response.headers, body: JSON.parse(text) }, text };
}

// Body templates for the sweep: `"$"` is replaced by each hostile value, in turn.
const VIEW_BODIES = [
  '{"$":1}',
  '{"name":"$","creatorEmail":"owner@acme.test"}',
  '{"name":"n","creatorEmail":"$"}',
  '{"name":"n","creatorEmail":"owner@acme.test","icon":"$"}',
  '{"filters":{"$":["x"]}}',
  '{"filters":{"createdAfterAt":"$"}}',
  '{"filters":{"createdBeforeAt":"$"}}',
  '{"filters":{"sourceIn":["$"]}}',
  '{"filters":{"insights":[{"type":"date","fieldId":"f","dateFilter":{"gte":"$"}}]}}',
  '{"filters":{"insights":[{"type":"$","fieldId":"$"}]}}',
  '{"filters":{"authorIdIn":[{"type":"$"}]}}',
  '{"filters":{"dealAgeRange":"$"}}',
  '{"filters":{"ownerEmailIn":["$"]}}',
  '{"sort":[{"field":"$","order":"Asc"}]}',
  '{"sort":[{"field":"CreatedAt","order":"$"}]}',
  '{"sort":[{"field":"Insight","order":"Asc","insight":{"fieldId":"$"}}]}',
  '{"columns":[{"type":"$","columnId":"$"}]}',
  '{"columns":[{"type":"Default","columnId":"x","$":true}]}',
];
const OTHER_BODIES = [
  '{"viewIds":["$"]}',
  '{"$":["r_pub1"]}',
  '{"type":"$","recordingId":"rec_1"}',
  '{"type":"recording_added","recordingId":"$"}',
  '{"$":"x"}',
];
const SWEPT = [...BUILTINS, ...IMPOSSIBLE_DATES];

describe('fuzz: every route under hostile input', () => {
  it('sweep: a built-in name or impossible date in every path, query and body position', async () => {
    const emulator = await start();
    const cases: { method: string; template: string; path: string; body: string; refusedAt?: string }[] = [];
    for (const route of routes) {
      for (const value of SWEPT) {
        const base = route.template.replace(/\{[a-zA-Z]+\}/g, encodeURIComponent(value));
        cases.push({ ...route, path: base, body: '{}' });
        // Real ids, so the hostile value is what the handler meets; never delete the view the other cases use.
        const viewId =
          route.method === 'DELETE'
            ? 'no_such_view'
            : (ids(route.template.split('/')[2] as (typeof DOMAINS)[number])?.publics[0] ?? 'x');
        const concrete = route.template
          .replace('{viewId}', viewId)
          .replace('{recordingId}', 'rec_1')
          .replace('{userId}', 'u_owner')
          .replace('{webhookId}', 'wh_1');
        // Query names matter where the handler reads a query; elsewhere one unknown name is enough.
        const readsQuery =
          /^\/v1\/(recordings|deals|companies|contacts|users)$/.test(route.template) ||
          route.template.endsWith('/pinned');
        for (const name of readsQuery ? [...QUERY_NAMES, value] : [value]) {
          const query = new URLSearchParams({ userEmail: USERS.owner.email, [name]: value });
          // Where the value must be refused: parameters with a closed set of values.
          const closed =
            route.template === '/v1/recordings' &&
            ['sort', 'sources', 'createdAfter', 'createdBefore', 'limit', 'cursor'].includes(name);
          cases.push({
            ...route,
            path: `${concrete}?${query.toString()}`,
            body: '{}',
            ...(closed ? { refusedAt: name } : {}),
          });
        }
        if (route.method === 'GET' || route.method === 'DELETE') continue;
        const bodies = route.template.includes('/views') && route.method !== 'PUT' ? VIEW_BODIES : OTHER_BODIES;
        // Impossible dates go into date positions; built-in names everywhere.
        for (const template of bodies.filter((text) => BUILTINS.includes(value) || /At"|gte/.test(text))) {
          const date = /"(createdAfterAt|createdBeforeAt)"/.exec(template)?.[1];
          const refused =
            date !== undefined && route.method === 'PATCH' && route.template.startsWith('/v1/recordings/');
          cases.push({
            ...route,
            path: `${concrete}?userEmail=${encodeURIComponent(USERS.owner.email)}`,
            body: template.replaceAll('$', value),
            ...(refused ? { refusedAt: `filters.${date}` } : {}),
          });
        }
      }
    }
    for (let index = 0; index < cases.length; index += 16) {
      await Promise.all(
        cases.slice(index, index + 16).map(async ({ method, template, path, body: text, refusedAt }) => {
          const { reply, text: answer } = await send(emulator, method, path, text, true);
          expectAnswer(method, template, reply, answer);
          if (refusedAt !== undefined)
            expect([reply.status, reply.body.error?.path], `${method} ${path} ${text}`).toEqual([400, refusedAt]);
        }),
      );
    }
  });

  it('answers a documented success or a documented 4xx JSON error, never a 5xx or an empty body', async () => {
    const emulator = await start();
    await fc.assert(
      fc.asyncProperty(request, async ({ route, params, query, body: text, withKey }) => {
        const search = new URLSearchParams(query).toString();
        const path = `${pathOf(route.template, params)}${search === '' ? '' : `?${search}`}`;
        const { reply, text: answer } = await send(emulator, route.method, path, text, withKey);
        expectAnswer(route.method, route.template, reply, answer);
      }),
      { seed: 1515, numRuns: 1200 },
    );
    // Every route was driven, and most requests reached their handler.
    const driven = Object.keys(emulator.stats().byEndpoint).filter((endpoint) => !endpoint.endsWith('(no route)'));
    expect(driven.length).toBe(routes.length);
  });

  it('answers a body over the size limit with a 400 JSON error', async () => {
    const emulator = await start();
    const { reply, text } = await send(
      emulator,
      'POST',
      '/v1/deals/views',
      `{"name":"${'x'.repeat(1024 * 1024)}"}`,
      true,
    );
    expectAnswer('POST', '/v1/deals/views', reply, text);
    expect(reply.status).toBe(400);
  });

  it('answers malformed HTTP on raw sockets with a 4xx JSON error, or a documented success', async () => {
    const emulator = await start();
    const port = Number(new URL(emulator.url).port);
    const method = fc.oneof(
      fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'FROB', 'G ET', 'get', '__proto__'),
    );
    const target = fc.oneof(
      fc.constantFrom(
        '/v1/users',
        '/v1/recordings/views',
        '//x/v1/users',
        '*',
        '/v1/recordings?sort=__proto__',
        `/v1/${'a'.repeat(17 * 1024)}`,
      ),
      fc.string({ maxLength: 10 }).map((text) => `/v1/${text.replace(/[\s]/g, '')}`),
    );
    const header = fc.oneof(
      fc.constantFrom(
        'Content-Length: abc',
        'Content-Length: -1',
        'Content-Length: 2',
        'Content-Length: 1\r\nContent-Length: 2',
        'Transfer-Encoding: chunked',
        'Transfer-Encoding: gzip',
        'Expect: teapot',
        'Bad Header: 1',
        `X-Big: ${'b'.repeat(17 * 1024)}`,
        'Host: x',
      ),
      fc.string({ maxLength: 10 }).map((text) => `X-Fuzz: ${text.replace(/[\r\n]/g, '')}`),
    );
    const raw = fc.record({
      method,
      target,
      version: fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/1.1', 'HTTP/2.0'),
      headers: fc.array(header, { maxLength: 3 }),
      payload: fc.constantFrom('', '{}', 'zz\r\n', '0\r\n\r\n', '{"viewIds":["__proto__"]}'),
    });
    await fc.assert(
      fc.asyncProperty(raw, async ({ method: verb, target: path, version, headers, payload }) => {
        const text = `${verb} ${path} ${version}\r\nHost: x\r\nx-service-key: ${emulator.apiKey}\r\nConnection: close\r\n${headers.map((line) => `${line}\r\n`).join('')}\r\n${payload}`;
        let reply: RawReply;
        try {
          reply = await sendRaw(port, text);
        } catch (error) {
          throw new Error(`no answer to ${JSON.stringify(text.slice(0, 200))}: ${String(error)}`);
        }
        // A HEAD answer has headers only, by HTTP's rules.
        if (verb === 'HEAD') {
          expect(reply.status).toBeLessThan(500);
          return;
        }
        const parsed = reply.body === '' ? undefined : (JSON.parse(reply.body) as unknown);
        expect(reply.headers.get('content-type'), text.slice(0, 200)).toContain('application/json');
        if (reply.status !== 200) expectAnswer(verb, path, { status: reply.status, body: parsed }, reply.body);
      }),
      { seed: 1516, numRuns: 150 },
    );
  });
});

import { Ajv } from 'ajv';
import { DOMAINS } from '../domain/domains.js';

/**
 * The shapes of the `result`s viewctl reads, checked at the client boundary so that a
 * wrong-shaped 200 (a proxy's page, a `null`, a list that is not a list) is reported
 * as the service's fault, naming the route, instead of failing deep inside the plan.
 * Each schema holds what viewctl relies on and lets everything else through: the
 * service may add attributes. The shapes follow the README's description of the
 * service's answers.
 */

const text = { type: 'string' } as const;

const VIEW = {
  type: 'object',
  required: ['viewId', 'name', 'visibility', 'isDefault', 'ownerId', 'columns', 'filters', 'sort'],
  properties: {
    viewId: { type: 'string', minLength: 1 },
    name: text,
    visibility: { enum: ['Public', 'Private'] },
    icon: text,
    isDefault: { type: 'boolean' },
    ownerId: text,
    columns: { type: 'array', items: { type: 'object' } },
    filters: { type: 'object' },
    sort: { type: 'array', items: { type: 'object' } },
  },
} as const;

const VIEW_LIST = { type: 'array', items: VIEW } as const;

const USER = {
  type: 'object',
  required: ['id', 'email', 'role', 'state'],
  properties: { id: text, email: text, name: text, role: text, state: text },
} as const;

const SHAPES: ReadonlyMap<string, object> = new Map<string, object>([
  [
    'GET /v1/workspaces/mine',
    {
      type: 'object',
      required: ['workspace'],
      properties: {
        workspace: {
          type: 'object',
          required: ['id', 'name'],
          properties: { id: { type: 'string', minLength: 1 }, name: text },
        },
      },
    },
  ],
  ['GET /v1/{domain}/views', VIEW_LIST],
  ['GET /v1/{domain}/views/pinned', VIEW_LIST],
  ['PUT /v1/{domain}/views/pinned', VIEW_LIST],
  ['GET /v1/{domain}/views/{viewId}', VIEW],
  ['POST /v1/{domain}/views', VIEW],
  ['PATCH /v1/{domain}/views/{viewId}', VIEW],
  [
    'GET /v1/admin-automations',
    {
      type: 'array',
      items: {
        type: 'object',
        required: ['adminAutomationId', 'name'],
        properties: { adminAutomationId: text, name: text },
      },
    },
  ],
  [
    'GET /v1/users',
    {
      type: 'object',
      required: ['users', 'pagination'],
      properties: {
        users: { type: 'array', items: USER },
        pagination: { type: 'object', properties: { nextCursor: text } },
      },
    },
  ],
  ['GET /v1/users/{userId}', { type: 'object', required: ['user'], properties: { user: USER } }],
]);

const DOMAIN_PREFIX = new RegExp(`^/v1/(?:${DOMAINS.join('|')})/views`);
const ajv = new Ajv({ allErrors: false, strict: true });

/**
 * responseShapeProblem checks a success's `result` against the shape of its route:
 * undefined when it fits (or the route has no shape: viewctl reads nothing of it),
 * otherwise what is wrong, e.g. `result/workspace must be object`. Schemas compile
 * once, on first use.
 */
export function responseShapeProblem(method: string, route: string, result: unknown): string | undefined {
  const schema = SHAPES.get(`${method} ${route.replace(DOMAIN_PREFIX, '/v1/{domain}/views')}`);
  if (schema === undefined) return undefined;
  // Ajv keeps what it compiled per schema object: each schema compiles once.
  const validate = ajv.compile(schema);
  if (validate(result)) return undefined;
  const [first] = validate.errors ?? [];
  if (first === undefined) return 'a result of the wrong shape';
  return `result${first.instancePath} ${first.message ?? 'is not as expected'}`;
}

/** SHAPED_ROUTES lists the routes whose results are checked (for tests). */
export const SHAPED_ROUTES: readonly string[] = [...SHAPES.keys()];

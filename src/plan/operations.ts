import type { JsonObject, JsonValue, PinnedPutBody, ViewCreateBody, ViewPatchBody } from '../domain/api-types.js';
import type { Domain, ResourceKind } from '../domain/domains.js';
import { ViewctlError } from '../errors.js';
import { jsonEqual } from '../kinds/canonical.js';
import { ROUTES, endpointOf } from '../service/routes.js';
import type { HttpMethod, ServiceRequest } from '../service/types.js';
import type { Change, CreateChange, DeleteChange, PinChange, Plan, UpdateChange, ViewSnapshot } from './types.js';

/**
 * Which call carries out which change: a Change says what
 * differs, an Operation is the HTTP call that fixes it and points back to its change.
 * Pure; the executor sends them.
 */

/** OperationAction is what an operation does; drift never becomes one. */
export type OperationAction = 'create' | 'update' | 'pin' | 'delete';

/**
 * PHASES is the order apply runs operations in: creates first (pins may name the new
 * views), then updates, then pinned lists, then deletes last (a view leaves the
 * pinned lists before it disappears, and a failure stops before anything is lost).
 */
export const PHASES: readonly OperationAction[] = ['create', 'update', 'pin', 'delete'];

/** NewViewTab is a pinned tab naming a view this run creates, resolved once the create answers. */
export interface NewViewTab {
  /** Index in `body.viewIds`, which holds null there until resolved. */
  index: number;
  name: string;
}

/** Operation is one HTTP call of an apply, with the change it comes from. */
export interface Operation {
  /** Stable within one plan: `<change index>-<action>`. */
  id: string;
  /** Index of the change in `plan.changes`. */
  changeIndex: number;
  action: OperationAction;
  kind: ResourceKind;
  /** The view name, or for a pinned list `userEmail domain`. */
  name: string;
  domain: Domain;
  /** The target view's id (update, delete); a create learns it from the response. */
  viewId?: string;
  /** The user whose tabs a pin operation replaces. */
  userEmail?: string;
  method: HttpMethod;
  route: string;
  params: Record<string, string>;
  query: Record<string, string>;
  body?: JsonObject;
  /** Rate-limit endpoint key, `METHOD route` (the service's "Rate limits"). */
  endpoint: string;
  /** Pin operations only: tabs that name views created in this run. */
  newViewTabs: NewViewTab[];
}

/**
 * buildOperations turns every change of a plan except drift into its operation, in
 * phase order (then plan order). It refuses a plan it cannot carry out exactly, before
 * anything is sent: a create without `creatorEmail`, a pinned tab naming a new view
 * that the plan does not create, an update that changes nothing.
 */
export function buildOperations(plan: Pick<Plan, 'changes' | 'creatorEmail'>): Operation[] {
  const created = new Set(
    plan.changes.filter((change): change is CreateChange => change.action === 'create').map((change) => createdKey(change.domain, change.name)),
  );
  const operations: Operation[] = [];
  plan.changes.forEach((change, index) => {
    const operation = operationFor(plan.creatorEmail, change, index, created);
    if (operation !== undefined) operations.push(operation);
  });
  const phaseOf = (operation: Operation): number => PHASES.indexOf(operation.action);
  return operations.sort((a, b) => phaseOf(a) - phaseOf(b) || a.changeIndex - b.changeIndex);
}

/** createdKey identifies a view created in this run: its name within its domain. */
export function createdKey(domain: Domain, name: string): string {
  return `${domain}\u0000${name}`;
}

/**
 * toServiceRequest is the call to send for an operation. `createdIds` maps
 * `createdKey(domain, name)` to the id of each view created so far; a pinned tab
 * naming a view whose create did not land cannot be sent.
 */
export function toServiceRequest(operation: Operation, createdIds: ReadonlyMap<string, string>): ServiceRequest {
  let body: JsonObject | undefined = operation.body;
  if (operation.newViewTabs.length > 0 && body !== undefined) {
    const viewIds = [...(body['viewIds'] as (string | null)[])];
    for (const tab of operation.newViewTabs) {
      const id = createdIds.get(createdKey(operation.domain, tab.name));
      if (id === undefined) {
        throw new ViewctlError('apply.unresolved-tab', `the pinned tab "${tab.name}" names a view this run did not create`, {
          hint: 'run plan again: the create it depends on did not land',
        });
      }
      viewIds[tab.index] = id;
    }
    if (viewIds.some((id) => id === null)) {
      throw new ViewctlError('apply.unresolved-tab', `a pinned tab of ${operation.name} has no view id`, {
        hint: 'run viewctl plan again to get a plan apply can carry out',
      });
    }
    const resolved: PinnedPutBody = { viewIds: viewIds as string[] };
    body = { viewIds: resolved.viewIds };
  }
  return {
    method: operation.method,
    route: operation.route,
    params: operation.params,
    query: operation.query,
    ...(body === undefined ? {} : { body }),
    // Only a creating POST may land twice; every other write replaces or removes.
    idempotent: operation.method !== 'POST',
  };
}

/**
 * patchBody holds the top-level attributes that differ between `before` and `after`:
 * a sent attribute replaces its value entirely (the service's view rule 6), so the whole
 * new value goes, and a removed icon is sent as `icon: null`.
 */
export function patchBody(before: ViewSnapshot, after: ViewSnapshot): ViewPatchBody {
  const body: ViewPatchBody = {};
  if (before.name !== after.name) body.name = after.name;
  if (before.icon !== after.icon) body.icon = after.icon ?? null;
  if (!jsonEqual(before.columns, after.columns)) body.columns = after.columns;
  if (!jsonEqual(before.filters, after.filters)) body.filters = after.filters;
  if (!jsonEqual(before.sort, after.sort)) body.sort = after.sort;
  return body;
}

/** createBody is the POST body of a new view owned by `creatorEmail`. */
export function createBody(after: ViewSnapshot, creatorEmail: string): ViewCreateBody {
  return {
    creatorEmail,
    name: after.name,
    ...(after.icon === undefined ? {} : { icon: after.icon }),
    columns: after.columns,
    filters: after.filters,
    sort: after.sort,
  };
}

function operationFor(creatorEmail: string | undefined, change: Change, index: number, created: ReadonlySet<string>): Operation | undefined {
  switch (change.action) {
    case 'create':
      return createOperation(creatorEmail, change, index);
    case 'update':
      return updateOperation(change, index);
    case 'pin':
      return pinOperation(change, index, created);
    case 'delete':
      return deleteOperation(change, index);
    case 'drift':
      // Drift is reported, never fixed: apply cannot change admin automations.
      return undefined;
  }
}

function createOperation(creatorEmail: string | undefined, change: CreateChange, index: number): Operation {
  if (creatorEmail === undefined) {
    throw invalid(`the plan creates ${change.kind} "${change.name}" but names no creatorEmail`);
  }
  return {
    ...common(change, index, 'create'),
    ...call(ROUTES.createView(change.domain, asJson(createBody(change.after, creatorEmail)))),
    newViewTabs: [],
  };
}

function updateOperation(change: UpdateChange, index: number): Operation {
  const body = patchBody(change.before, change.after);
  if (Object.keys(body).length === 0) {
    throw invalid(`the update of ${change.kind} "${change.name}" (${change.id}) changes nothing`);
  }
  return {
    ...common(change, index, 'update'),
    viewId: change.id,
    ...call(ROUTES.patchView(change.domain, change.id, asJson(body))),
    newViewTabs: [],
  };
}

function pinOperation(change: PinChange, index: number, created: ReadonlySet<string>): Operation {
  if (change.after.length === 0) {
    throw invalid(`the pinned list of ${change.userEmail} in ${change.domain} is empty; the service keeps at least one tab`);
  }
  const newViewTabs: NewViewTab[] = [];
  const viewIds = change.after.map((tab, tabIndex) => {
    if (tab.viewId !== null) return tab.viewId;
    if (!created.has(createdKey(change.domain, tab.name))) {
      throw invalid(`the pinned tab "${tab.name}" of ${change.userEmail} in ${change.domain} has no id and the plan does not create it`);
    }
    newViewTabs.push({ index: tabIndex, name: tab.name });
    return null;
  });
  return {
    ...common(change, index, 'pin'),
    name: `${change.userEmail} ${change.domain}`,
    userEmail: change.userEmail,
    ...call(ROUTES.putPinned(change.domain, change.userEmail, { viewIds })),
    newViewTabs,
  };
}

function deleteOperation(change: DeleteChange, index: number): Operation {
  return {
    ...common(change, index, 'delete'),
    viewId: change.id,
    ...call(ROUTES.deleteView(change.domain, change.id)),
    newViewTabs: [],
  };
}

/** call is an operation's request part, from the route table. */
function call(request: ServiceRequest): Pick<Operation, 'method' | 'route' | 'params' | 'query' | 'body' | 'endpoint'> {
  return {
    method: request.method,
    route: request.route,
    params: request.params ?? {},
    query: Object.fromEntries(Object.entries(request.query ?? {}).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]]))),
    ...(request.body === undefined ? {} : { body: request.body as JsonObject }),
    endpoint: endpointOf(request),
  };
}

function common(
  change: CreateChange | UpdateChange | PinChange | DeleteChange,
  index: number,
  action: OperationAction,
): Pick<Operation, 'id' | 'changeIndex' | 'action' | 'kind' | 'name' | 'domain'> {
  return { id: `${index}-${action}`, changeIndex: index, action, kind: change.kind, name: change.name, domain: change.domain };
}

function asJson(body: ViewCreateBody | ViewPatchBody): JsonObject {
  return body as unknown as { [key: string]: JsonValue };
}

function invalid(message: string): ViewctlError {
  return new ViewctlError('plan.invalid', `cannot apply this plan: ${message}`, {
    hint: 'run viewctl plan again to get a plan apply can carry out',
  });
}

import type { ApiView } from '../domain/api-types.js';
import type { Domain } from '../domain/domains.js';
import { ServiceError } from '../errors.js';
import { systemClock } from '../service/clock.js';
import { ROUTES } from '../service/routes.js';
import type { CreateChange, DeleteChange, UpdateChange } from './changes.js';
import { afterWrite, MayHaveLandedError, type ExecutionContext, type WriteAnswer } from './execution.js';

/**
 * Carrying out a saved view's change: a create is sent once and never again, an update
 * may answer 204, a delete that finds nothing has reached its goal.
 */

/** executeViewChange sends the step of a create, update or delete and answers what landed; a failure throws. */
export async function executeViewChange(
  change: CreateChange | UpdateChange | DeleteChange,
  context: ExecutionContext,
): Promise<WriteAnswer> {
  switch (change.action) {
    case 'create':
      return create(change, context);
    case 'update': {
      // A 204 (no body) is success too (the service's "Transport"): the id is the one sent.
      const view = await context.client.request<ApiView | undefined>(context.request, { signal: context.signal });
      return view === undefined ? { viewId: change.id } : { viewId: view.viewId, view };
    }
    case 'delete':
      return remove(change, context);
  }
}

/** DEFAULT_RELIST_DELAYS_MS are the waits before each look for a create whose answer was lost. */
const DEFAULT_RELIST_DELAYS_MS: readonly number[] = [1_000, 4_000, 10_000];

/**
 * create sends a POST once, and never again: a POST whose answer was lost (a timeout,
 * a reset, a 5xx, an unreadable 2xx) may still be in flight at the service, and an
 * empty listing right after is no proof that it will not land, so a second POST could
 * make a duplicate. Instead the domain is listed again after growing waits: a single
 * view of that name that did not exist before this run is taken as this run's (the
 * report says so); several are copies a concurrent run made too, which carryOut
 * settles after the writes (src/apply/race-copies.ts); none after the last wait is an
 * unknown outcome, reported as "may have landed" for the next run, which adopts the
 * view by its name if it landed.
 */
async function create(change: CreateChange, context: ExecutionContext): Promise<WriteAnswer> {
  const { name } = change;
  let lost: ServiceError;
  try {
    const view = await context.client.request<ApiView | undefined>(context.request, { signal: context.signal });
    if (view !== undefined) return { viewId: view.viewId, view };
    // A 201/204 without a body: the view exists; find its id the way a lost answer's is found.
    const [only, ...more] = await afterWrite(`the create of "${name}" was accepted`, () =>
      newViewsNamed(change.domain, name, context),
    );
    if (only !== undefined && more.length === 0) return { viewId: only.viewId, view: only };
    throw new MayHaveLandedError(
      'apply.created-not-found',
      `the service accepted the create of "${name}" without answering the view, and the listing shows ${more.length + (only === undefined ? 0 : 1)} new views of that name`,
      { hint: 'run viewctl plan to see the live state; apply never deletes what the plan did not show' },
    );
  } catch (error) {
    if (!(error instanceof ServiceError && error.mayHaveLanded)) throw error;
    lost = error;
  }
  const delays = context.relistDelaysMs ?? DEFAULT_RELIST_DELAYS_MS;
  const sleep = context.sleep ?? ((ms: number) => systemClock.sleep(ms));
  for (const delay of delays) {
    if (context.signal?.aborted === true) break;
    await sleep(delay);
    const candidates = await afterWrite(`the create of "${name}" was sent and its answer lost (${lost.message})`, () =>
      newViewsNamed(change.domain, name, context),
    );
    const [only] = candidates;
    if (candidates.length === 1 && only !== undefined) return { viewId: only.viewId, view: only, note: 'adopted' };
    if (candidates.length > 1) {
      throw new MayHaveLandedError(
        'apply.duplicate-created',
        `the service holds ${candidates.length} new views named "${name}" after this run's create lost its answer: ${candidates.map((view) => view.viewId).join(', ')} (a concurrent run may have created one)`,
        {
          hint: 'after the writes this run settles the copies (identical ones keep the smallest id; see below); run the same command again to converge',
        },
      );
    }
  }
  const waited = delays.reduce((sum, delay) => sum + delay, 0);
  throw new MayHaveLandedError(
    'apply.create-unconfirmed',
    `the create of "${name}" may have landed: ${lost.message}; the view did not appear in ${delays.length} ${delays.length === 1 ? 'listing' : 'listings'} over ${Math.round(waited / 1000)} s, and viewctl did not send the create again, so it cannot make a duplicate`,
    {
      hint: 'run viewctl plan later: a view that landed shows as in sync (or as an update to make), one that did not shows as a create again',
    },
  );
}

async function newViewsNamed(domain: Domain, name: string, context: ExecutionContext): Promise<ApiView[]> {
  const known = new Set([
    ...(context.live.views[domain] ?? []).map((view) => view.viewId),
    ...context.createdIds.values(),
  ]);
  const listing = await context.client.request<ApiView[]>(ROUTES.listViews(domain));
  return listing.filter((view) => view.name === name && !view.isDefault && !known.has(view.viewId));
}

/** remove deletes a view; a 404 means it is already gone (a retry after a lost response), which is the goal. */
async function remove(change: DeleteChange, context: ExecutionContext): Promise<WriteAnswer> {
  try {
    await context.client.request(context.request, { signal: context.signal });
    return { viewId: change.id };
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return { viewId: change.id, note: 'already-gone' };
    throw error;
  }
}

import type { ApiView } from '../domain/api-types.js';
import type { Domain } from '../domain/domains.js';
import { ServiceError, ViewctlError } from '../errors.js';
import { systemClock } from '../service/clock.js';
import { ROUTES } from '../service/routes.js';
import type { ServiceClient } from '../service/types.js';
import type { Live } from '../state/types.js';
import type { Operation } from '../plan/operations.js';
import { createdKey } from '../kinds/kind.js';
import { PHASES, toServiceRequest } from '../plan/operations.js';

/**
 * Carrying operations out against the service: phase by phase (creates, updates,
 * pinned lists, deletes), each phase's endpoints concurrently, and the client's one
 * limiter spacing calls to one endpoint. On the first failure, or when the signal
 * aborts, nothing new starts (an abort also takes the writes still waiting for their
 * slot out of the limiter's queue); what is in flight finishes, so the outcome of every
 * operation is known and reported.
 */

/** OperationError is the service's account of a failed operation, for the report. */
export interface OperationError {
  code: string;
  message: string;
  /** The write may have been carried out although it failed (see ServiceError.mayHaveLanded). */
  mayHaveLanded?: boolean;
  status?: number;
  /** The service's `error.type` (`validation_error`, ...). */
  errorType?: string;
  /** The service's `error.path`: the offending attribute. */
  path?: string;
  /**
   * The refusal came from a change made while this run applied, not from the manifests
   * (a view the write named was deleted, such as by a concurrent run's clean-up of
   * copies): nothing needs fixing, a new plan converges. Set by `explainLostPins`.
   */
  concurrentChange?: boolean;
}

export type OperationOutcome =
  | {
      status: 'landed';
      operation: Operation;
      /** The view created, updated, or (for a delete) removed. */
      viewId?: string;
      /** Create: the view the service answered with. Pin: the pinned list it answered with. */
      view?: ApiView;
      pinned?: ApiView[];
      /**
       * Create: its answer was lost and the only new view of its name was taken as this
       * run's. Delete: the view was already gone.
       */
      note?: 'adopted' | 'already-gone';
    }
  | { status: 'failed'; operation: Operation; error: OperationError }
  | { status: 'not-attempted'; operation: Operation };

/** Execution is every operation's outcome, in operation order, and why the run stopped early. */
export interface Execution {
  outcomes: OperationOutcome[];
  /** Null when every operation was attempted. */
  stopped: null | 'failure' | 'aborted';
}

export interface ExecuteOptions {
  client: ServiceClient;
  /** The live state the plan was checked against: ids that existed before this run. */
  live: Live;
  signal?: AbortSignal;
  /**
   * Waits before each re-listing after a create's answer was lost (default 1 s, 4 s,
   * 10 s): a create still in flight at the service may take that long to show.
   */
  relistDelaysMs?: readonly number[];
  /** Waits `ms`; default a timer. Tests pass an instant one. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Operations in flight per endpoint (default 2: enough to hide a round trip at the
   * service's 3/s). The limiter spaces them anyway; the window bounds what is already
   * committed to when a failure stops the run.
   */
  inFlightPerEndpoint?: number;
  /** Called as each operation ends, for progress lines. */
  onOutcome?: (outcome: OperationOutcome) => void;
}

/**
 * executeOperations sends `operations` (already in phase order, from
 * the plan's stored steps, `storedOperations`) and reports each one's outcome. It never throws for a failed
 * operation: failures are data in the result.
 */
export async function executeOperations(operations: readonly Operation[], options: ExecuteOptions): Promise<Execution> {
  const outcomes = new Map<string, OperationOutcome>();
  const run: Run = { ...options, createdIds: new Map(), stopped: null };
  const stopOnAbort = (): void => {
    run.stopped ??= 'aborted';
  };
  if (run.signal?.aborted === true) stopOnAbort();
  run.signal?.addEventListener('abort', stopOnAbort, { once: true });
  try {
    for (const phase of PHASES) {
      if (run.stopped !== null) break;
      const inPhase = operations.filter((operation) => operation.action === phase);
      await runPhase(inPhase, run, async (operation) => {
        const outcome = await attempt(operation, run);
        outcomes.set(operation.id, outcome);
        if (outcome.status === 'landed' && operation.action === 'create' && outcome.viewId !== undefined) {
          run.createdIds.set(createdKey(operation.domain, operation.name), outcome.viewId);
        }
        if (outcome.status === 'failed') run.stopped ??= 'failure';
        run.onOutcome?.(outcome);
      });
    }
  } finally {
    run.signal?.removeEventListener('abort', stopOnAbort);
  }
  return {
    outcomes: operations.map((operation) => outcomes.get(operation.id) ?? { status: 'not-attempted', operation }),
    stopped: run.stopped,
  };
}

/** Run is one execution: its options, the ids of the views created so far, and why it stopped, if it did. */
interface Run extends ExecuteOptions {
  createdIds: Map<string, string>;
  stopped: Execution['stopped'];
}

/**
 * runPhase runs one phase: one queue per endpoint, all endpoints at once, a bounded
 * window per endpoint. A worker checks `run.stopped` before taking each operation.
 */
async function runPhase(
  operations: readonly Operation[],
  run: Run,
  perform: (operation: Operation) => Promise<void>,
): Promise<void> {
  const queues = new Map<string, Operation[]>();
  for (const operation of operations) {
    const queue = queues.get(operation.endpoint) ?? [];
    queue.push(operation);
    queues.set(operation.endpoint, queue);
  }
  const window = Math.max(1, run.inFlightPerEndpoint ?? 2);
  const workers: Promise<void>[] = [];
  for (const queue of queues.values()) {
    for (let slot = 0; slot < Math.min(window, queue.length); slot += 1) {
      workers.push(
        (async () => {
          for (let next = queue.shift(); next !== undefined && run.stopped === null; next = queue.shift()) {
            await perform(next);
          }
        })(),
      );
    }
  }
  await Promise.all(workers);
}

async function attempt(operation: Operation, run: Run): Promise<OperationOutcome> {
  try {
    switch (operation.action) {
      case 'create':
        return await create(operation, run);
      case 'update': {
        // A 204 (no body) is success too (the service's "Transport"): the id is the one sent.
        const view = await run.client.request<ApiView | undefined>(toServiceRequest(operation, run.createdIds), { signal: run.signal });
        return view === undefined ? { status: 'landed', operation, viewId: operation.viewId } : { status: 'landed', operation, viewId: view.viewId, view };
      }
      case 'pin': {
        const request = toServiceRequest(operation, run.createdIds);
        const answered = await run.client.request<ApiView[] | undefined>(request, { signal: run.signal });
        // Without a body to verify against, read the list back once: the write is done either way.
        const pinned = answered ?? (await afterWrite(`the pinned ${operation.domain} tabs of ${operation.userEmail} were written`, () =>
          run.client.request<ApiView[]>(ROUTES.getPinned(operation.domain, operation.userEmail))));
        return { status: 'landed', operation, pinned };
      }
      case 'delete':
        return await remove(operation, run);
    }
  } catch (error) {
    // A failure the service or a rule caused is data for the report; anything else is a
    // bug and goes to the top-level catch, not into "run the same command again".
    if (!(error instanceof ViewctlError)) throw error;
    // Interrupted while it waited for its slot: never sent, so not attempted.
    if (run.signal?.aborted === true && error instanceof ServiceError && error.code === 'service.aborted' && !error.mayHaveLanded) {
      return { status: 'not-attempted', operation };
    }
    return { status: 'failed', operation, error: describeError(error) };
  }
}

/** DEFAULT_RELIST_DELAYS_MS are the waits before each look for a create whose answer was lost. */
const DEFAULT_RELIST_DELAYS_MS: readonly number[] = [1_000, 4_000, 10_000];

/**
 * MayHaveLandedError is a write that failed in a way that does not prove it was not
 * carried out; apply lists it as "may have landed" and exits 4.
 */
class MayHaveLandedError extends ViewctlError {
  readonly mayHaveLanded = true;
}

/**
 * afterWrite runs a read that follows a write the service took: its failure cannot undo
 * the write, so it is reported as one that may have landed (exit 4), never as a write
 * that failed before anything landed.
 */
async function afterWrite<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof ViewctlError) || error instanceof MayHaveLandedError) throw error;
    throw new MayHaveLandedError('apply.write-unconfirmed', `${what}, but the read that confirms it failed: ${error.message}`, {
      hint: 'run viewctl plan to see the live state: what landed shows as in sync, what did not as a change to make',
    });
  }
}

/**
 * create sends a POST once, and never again: a POST whose answer was lost (a timeout,
 * a reset, a 5xx, an unreadable 2xx) may still be in flight at the service, and an
 * empty listing right after is no proof that it will not land, so a second POST could
 * make a duplicate. Instead the domain is listed again after growing waits: a single
 * view of that name that did not exist before this run is taken as this run's (the
 * report says so); several are copies a concurrent run made too, which carryOut
 * settles after the writes (race-copies.ts); none after
 * the last wait is an unknown outcome, reported as "may have landed" for the next
 * run, which adopts the view by its name if it landed.
 */
async function create(operation: Operation, run: Run): Promise<OperationOutcome> {
  let lost: ServiceError;
  try {
    const view = await run.client.request<ApiView | undefined>(toServiceRequest(operation, run.createdIds), { signal: run.signal });
    if (view !== undefined) return { status: 'landed', operation, viewId: view.viewId, view };
    // A 201/204 without a body: the view exists; find its id the way a lost answer's is found.
    const [only, ...more] = await afterWrite(`the create of "${operation.name}" was accepted`, () => newViewsNamed(operation.domain, operation.name, run));
    if (only !== undefined && more.length === 0) return { status: 'landed', operation, viewId: only.viewId, view: only };
    throw new MayHaveLandedError(
      'apply.created-not-found',
      `the service accepted the create of "${operation.name}" without answering the view, and the listing shows ${more.length + (only === undefined ? 0 : 1)} new views of that name`,
      { hint: 'run viewctl plan to see the live state; apply never deletes what the plan did not show' },
    );
  } catch (error) {
    if (!(error instanceof ServiceError && error.mayHaveLanded)) throw error;
    lost = error;
  }
  const delays = run.relistDelaysMs ?? DEFAULT_RELIST_DELAYS_MS;
  const sleep = run.sleep ?? ((ms: number) => systemClock.sleep(ms));
  for (const delay of delays) {
    if (run.signal?.aborted === true) break;
    await sleep(delay);
    const candidates = await afterWrite(`the create of "${operation.name}" was sent and its answer lost (${lost.message})`, () =>
      newViewsNamed(operation.domain, operation.name, run));
    const [only] = candidates;
    if (candidates.length === 1 && only !== undefined) {
      return { status: 'landed', operation, viewId: only.viewId, view: only, note: 'adopted' };
    }
    if (candidates.length > 1) {
      throw new MayHaveLandedError(
        'apply.duplicate-created',
        `the service holds ${candidates.length} new views named "${operation.name}" after this run's create lost its answer: ${candidates.map((view) => view.viewId).join(', ')} (a concurrent run may have created one)`,
        { hint: 'after the writes this run settles the copies (identical ones keep the smallest id; see below); run the same command again to converge' },
      );
    }
  }
  const waited = delays.reduce((sum, delay) => sum + delay, 0);
  throw new MayHaveLandedError(
    'apply.create-unconfirmed',
    `the create of "${operation.name}" may have landed: ${lost.message}; the view did not appear in ${delays.length} ${delays.length === 1 ? 'listing' : 'listings'} over ${Math.round(waited / 1000)} s, and viewctl did not send the create again, so it cannot make a duplicate`,
    { hint: 'run viewctl plan later: a view that landed shows as in sync (or as an update to make), one that did not shows as a create again' },
  );
}

async function newViewsNamed(domain: Domain, name: string, run: Run): Promise<ApiView[]> {
  const known = new Set([...(run.live.views[domain] ?? []).map((view) => view.viewId), ...run.createdIds.values()]);
  const listing = await run.client.request<ApiView[]>(ROUTES.listViews(domain));
  return listing.filter((view) => view.name === name && !view.isDefault && !known.has(view.viewId));
}

/** remove deletes a view; a 404 means it is already gone (a retry after a lost response), which is the goal. */
async function remove(operation: Operation & { action: 'delete' }, run: Run): Promise<OperationOutcome> {
  try {
    await run.client.request(toServiceRequest(operation, run.createdIds), { signal: run.signal });
    return { status: 'landed', operation, viewId: operation.viewId };
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) {
      return { status: 'landed', operation, viewId: operation.viewId, note: 'already-gone' };
    }
    throw error;
  }
}

/** describeError keeps what the report needs of an error: never a stack, never the key. */
export function describeError(error: ViewctlError): OperationError {
  if (error instanceof ServiceError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.status === undefined ? {} : { status: error.status }),
      ...(error.errorType === undefined ? {} : { errorType: error.errorType }),
      ...(error.path === undefined ? {} : { path: error.path }),
      ...(error.mayHaveLanded ? { mayHaveLanded: true } : {}),
    };
  }
  if (error instanceof MayHaveLandedError) return { code: error.code, message: error.message, mayHaveLanded: true };
  return { code: error.code, message: error.message };
}

import type { ApiView } from '../domain/api-types.js';
import { ViewctlError } from '../errors.js';
import type { ServiceClient, ServiceRequest } from '../service/types.js';
import type { Live } from '../state/types.js';

/**
 * What a kind needs to carry one step of a change out (`Kind.execute`) and what it
 * answers. apply's engine (src/apply/execute.ts) runs the phases and the per-endpoint
 * queues; the kind decides what a write means: what its answer says, when a lost
 * answer may still have landed, what an error of the service means for it.
 */

/** ExecutionContext is what one step is carried out with. */
export interface ExecutionContext {
  client: ServiceClient;
  /** The step's request, ready to send (a pinned list's new-view tabs resolved). */
  request: ServiceRequest;
  /** The live state the plan was checked against: what existed before this run. */
  live: Live;
  /** `createdKey` to id of every view created so far in this run. */
  createdIds: ReadonlyMap<string, string>;
  /** Aborts the run: a write still waiting for its slot in the limiter leaves the queue (pass it with each write). */
  signal?: AbortSignal;
  /** Waits before each re-listing after a create's answer was lost. */
  relistDelaysMs?: readonly number[];
  /** Waits `ms`. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * WriteAnswer is what a step that landed answered, as the report and verification need it.
 * The engine reads only `viewId` (the report's `id`, and a create's id for the steps
 * after it) and `note`; `view` and `pinned` are what the saved views and the pinned
 * views hand their own `verify`, which no other kind is given.
 */
export interface WriteAnswer {
  /** The id of what the step created, updated or removed (a view's, or another kind's resource's). */
  viewId?: string;
  /** Saved views, create or update: the view the service answered with. */
  view?: ApiView;
  /** Pinned views: the list the service answered with, which is the new list. */
  pinned?: ApiView[];
  /**
   * Create: its answer was lost and the only new view of its name was taken as this
   * run's. Delete: the view was already gone.
   */
  note?: 'adopted' | 'already-gone';
}

/**
 * MayHaveLandedError is a write that failed in a way that does not prove it was not
 * carried out; apply lists it as "may have landed" and exits 4.
 */
export class MayHaveLandedError extends ViewctlError {
  readonly mayHaveLanded = true;
}

/**
 * afterWrite runs a read that follows a write the service took: its failure cannot undo
 * the write, so it is reported as one that may have landed (exit 4), never as a write
 * that failed before anything landed.
 */
export async function afterWrite<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof ViewctlError) || error instanceof MayHaveLandedError) throw error;
    throw new MayHaveLandedError(
      'apply.write-unconfirmed',
      `${what}, but the read that confirms it failed: ${error.message}`,
      {
        hint: 'run viewctl plan to see the live state: what landed shows as in sync, what did not as a change to make',
      },
    );
  }
}

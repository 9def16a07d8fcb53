import type { OperationError, StoppedReason } from '../domain/apply-report.js';
import { InternalError, ServiceError, ViewctlError } from '../errors.js';
import type { ServiceClient } from '../service/types.js';
import type { Live } from '../state/types.js';
import type { Operation } from '../plan/operations.js';
import { MayHaveLandedError, type WriteAnswer } from '../kinds/execution.js';
import { kindOf } from '../kinds/kinds.js';
import { toServiceRequest } from '../plan/operations.js';
import type { Plan } from '../plan/types.js';

/**
 * Carrying operations out against the service: phase by phase (creates, updates,
 * pinned lists, deletes: `Operation.phase`), each phase's endpoints concurrently, and
 * the client's one limiter spacing calls to one endpoint; each operation's change's
 * kind carries it out (`Kind.execute`). On the first failure, or when the signal
 * aborts, nothing new starts (an abort also takes the writes still waiting for their
 * slot out of the limiter's queue); what is in flight finishes, so the outcome of every
 * operation is known and reported.
 */

export type { OperationError };

/** OperationOutcome is how one operation ended: landed (with what its kind's step answered, `WriteAnswer`), failed, or not attempted. */
export type OperationOutcome =
  | ({ status: 'landed'; operation: Operation } & WriteAnswer)
  | { status: 'failed'; operation: Operation; error: OperationError }
  | { status: 'not-attempted'; operation: Operation };

/** LandedOutcome is the outcome of an operation that landed. */
export type LandedOutcome = Extract<OperationOutcome, { status: 'landed' }>;

/** Execution is every operation's outcome, in operation order, and why the run stopped early. */
export interface Execution {
  outcomes: OperationOutcome[];
  /** Null when every operation was attempted. */
  stopped: StoppedReason;
}

/** ExecuteOptions are the I/O `executeOperations` needs, passed in, and how it paces and reports. */
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
  /**
   * Operations of a saved plan that an earlier run carried out, as the re-read shows
   * them (not sent again): a pinned tab naming a view one of them created resolves to
   * that view's id.
   */
  alreadyApplied?: readonly LandedOutcome[];
}

/**
 * executeOperations sends `operations` (the plan's stored steps joined with their
 * changes, `storedOperations`) and reports each one's outcome. It never throws for a
 * failed operation: failures are data in the result.
 */
export async function executeOperations(
  plan: Pick<Plan, 'changes'>,
  operations: readonly Operation[],
  options: ExecuteOptions,
): Promise<Execution> {
  const outcomes = new Map<string, OperationOutcome>();
  const run: Run = { ...options, plan, createdIds: createdIdsOf(options.alreadyApplied ?? []), stopped: null };
  const stopOnAbort = (): void => {
    run.stopped ??= 'aborted';
  };
  if (run.signal?.aborted === true) stopOnAbort();
  run.signal?.addEventListener('abort', stopOnAbort, { once: true });
  try {
    for (const phase of [...new Set(operations.map((operation) => operation.phase))].sort((a, b) => a - b)) {
      if (run.stopped !== null) break;
      const inPhase = operations.filter((operation) => operation.phase === phase);
      await runPhase(inPhase, run, async (operation) => {
        const outcome = await attempt(operation, run);
        outcomes.set(operation.id, outcome);
        if (outcome.status === 'landed' && operation.creates !== undefined && outcome.viewId !== undefined) {
          run.createdIds.set(operation.creates, outcome.viewId);
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

/** createdIdsOf maps the `createdKey` of what each landed operation created to the id the service gave it. */
export function createdIdsOf(landed: readonly LandedOutcome[]): Map<string, string> {
  const ids = new Map<string, string>();
  for (const outcome of landed) {
    if (outcome.operation.creates !== undefined && outcome.viewId !== undefined)
      ids.set(outcome.operation.creates, outcome.viewId);
  }
  return ids;
}

/** Run is one execution: its options, the plan's changes, the ids of the views created so far, and why it stopped, if it did. */
interface Run extends ExecuteOptions {
  plan: Pick<Plan, 'changes'>;
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
    // Counted before any worker starts: each takes its first operation at once, shrinking the queue.
    const slots = Math.min(window, queue.length);
    for (let slot = 0; slot < slots; slot += 1) {
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

/**
 * attempt carries one operation out through its change's kind (`Kind.execute`): the
 * kind decides what the write's answer means.
 */
async function attempt(operation: Operation, run: Run): Promise<OperationOutcome> {
  const change = run.plan.changes[operation.changeIndex];
  if (change === undefined) throw new InternalError(`operation ${operation.id} names no change of the plan`);
  try {
    const request = toServiceRequest(operation, run.createdIds);
    const { client, live, signal, relistDelaysMs, sleep, createdIds } = run;
    const landed = await kindOf(change).execute(change, {
      client,
      request,
      live,
      createdIds,
      signal,
      relistDelaysMs,
      sleep,
    });
    return { status: 'landed', operation, ...landed };
  } catch (error) {
    // A failure the service or a rule caused is data for the report; anything else is a
    // bug and goes to the top-level catch, not into "run the same command again".
    if (!(error instanceof ViewctlError)) throw error;
    // Interrupted while it waited for its slot: never sent, so not attempted.
    if (
      run.signal?.aborted === true &&
      error instanceof ServiceError &&
      error.code === 'service.aborted' &&
      !error.mayHaveLanded
    ) {
      return { status: 'not-attempted', operation };
    }
    return { status: 'failed', operation, error: describeError(error) };
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

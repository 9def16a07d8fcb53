import type { ViewctlError } from '../errors.js';
import type { ServiceClient, ServiceRequest } from '../service/types.js';

/**
 * Reads of live state as data: a kind says what it needs read (`LiveRead`: a request
 * of the route table and where its answer goes), and one engine sends them and stores
 * the answers in `Live` under the kind's key. Nothing here knows what is read.
 */

/** LiveRead is one read of live state: the request, and where its answer is stored. */
export interface LiveRead {
  request: ServiceRequest;
  /** The key of `Live` the answer is stored under (a kind's key: `views`, `pins`, `automations`, ...). */
  into: string;
  /** The entry under `into` that holds the answer (`live.views[entry]`); absent: `live[into]` is the answer. */
  entry?: string;
  /**
   * Turns the service's refusal of this read into the error a user should see (a
   * pinned read of someone who is no active member names the manifest that lists them);
   * undefined keeps the service's error.
   */
  explain?: (error: unknown) => ViewctlError | undefined;
}

/** LiveSlots are the answers of reads, stored under their keys: what `storeRead` fills. */
export type LiveSlots = Record<string, unknown>;

/** readKey identifies where a read's answer goes: two reads of one key are one read. */
export function readKey(read: Pick<LiveRead, 'into' | 'entry'>): string {
  return read.entry === undefined ? read.into : `${read.into}\u0000${read.entry}`;
}

/** uniqueReads keeps the first read of each key (`readKey`), in order. */
export function uniqueReads(reads: readonly LiveRead[]): LiveRead[] {
  const byKey = new Map<string, LiveRead>();
  for (const read of reads) if (!byKey.has(readKey(read))) byKey.set(readKey(read), read);
  return [...byKey.values()];
}

/**
 * sendReads issues every read at once (the client's per-endpoint limiter paces each
 * endpoint, and different endpoints overlap) and answers one promise per read, in
 * order, that stores its answer in `slots` once it arrives. The caller decides how to
 * wait: for all of them to settle, or for the first failure.
 */
export function sendReads(
  client: ServiceClient,
  reads: readonly LiveRead[],
  slots: LiveSlots,
  onEach?: () => void,
): Promise<void>[] {
  return reads.map(async (read) => {
    let answer: unknown;
    try {
      answer = await client.request(read.request);
    } catch (error) {
      throw read.explain?.(error) ?? error;
    }
    storeRead(slots, read, answer);
    onEach?.();
  });
}

/** readAll sends `reads` (each key once) and answers the slots they filled; the first failure rejects. */
export async function readAll(
  client: ServiceClient,
  reads: readonly LiveRead[],
  onEach?: () => void,
): Promise<LiveSlots> {
  const slots: LiveSlots = {};
  await Promise.all(sendReads(client, uniqueReads(reads), slots, onEach));
  return slots;
}

/** storeRead puts a read's answer in its place in `slots`. */
function storeRead(slots: LiveSlots, read: LiveRead, answer: unknown): void {
  if (read.entry === undefined) {
    slots[read.into] = answer;
    return;
  }
  const entries = (slots[read.into] ??= {}) as Record<string, unknown>;
  entries[read.entry] = answer;
}

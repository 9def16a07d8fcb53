import type { ServiceClient } from '../service/types.js';

/**
 * What a command's flow is handed besides its inputs: how to reach the service, and
 * how the caller stops it. A flow never opens a connection or listens for signals
 * itself; the CLI passes both, a test passes a client on the emulator.
 */

/** ServiceConnection is an open client, and how to release what opening it started (an in-process emulator). */
export interface ServiceConnection {
  client: ServiceClient;
  close(): Promise<void>;
}

/**
 * RunStops is how the caller stops a flow that reads the service and then writes local
 * files: `reads` runs the reads (the CLI turns an interrupt during them into
 * `run.interrupted`, nothing written), `writingFiles` says the reads are over and the
 * files named are being written (a signal now lets them finish).
 */
export interface RunStops {
  reads<T>(body: () => Promise<T>): Promise<T>;
  /** `ifQuit` is what a second signal leaves and how to recover (default: some files may be written, others not). */
  writingFiles(what: string, ifQuit?: string): void;
}

/** NO_STOPS runs the reads as they are, for callers that do not stop a run (tests, benches). */
export const NO_STOPS: RunStops = { reads: (body) => body(), writingFiles: () => undefined };

/** connected is a ServiceConnection over `client` whose close does nothing: the caller owns the client. */
export function connected(client: ServiceClient): () => Promise<ServiceConnection> {
  return async () => ({ client, close: async () => undefined });
}

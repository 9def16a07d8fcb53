import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback proxy in front of an emulator that can hold a request until the test lets
 * it go: ordering made explicit, so a test says "both runs have planned before either
 * writes" instead of hoping a delay makes it so. A connection the emulator cuts is cut
 * for the client too.
 */

/** HoldingProxy is a running proxy: point a client at `url`. */
export interface HoldingProxy {
  url: string;
  close(): Promise<void>;
}

/** holdingProxy forwards to `target`; a request for which `hold` returns a promise waits for it first. */
export async function holdingProxy(
  target: string,
  hold: (method: string, path: string) => Promise<void> | undefined,
): Promise<HoldingProxy> {
  const upstream = new URL(target);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const forward = (): void => {
        const out = httpRequest(
          { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            answer.on('error', () => res.destroy());
          },
        );
        out.on('error', () => res.destroy());
        out.end(Buffer.concat(chunks));
      };
      const waiting = hold(req.method ?? 'GET', req.url ?? '');
      if (waiting === undefined) forward();
      else void waiting.then(forward);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * writesTogether is a barrier for `parties` runs, one proxy each: every write waits
 * until each run has sent one, so all of them planned on the workspace as it was
 * before any write landed. Reads pass at once.
 */
export function writesTogether(parties: number): (party: number) => (method: string) => Promise<void> | undefined {
  const arrived = new Set<number>();
  let open: () => void = () => undefined;
  const together = new Promise<void>((resolve) => (open = resolve));
  return (party) => (method) => {
    if (method === 'GET') return undefined;
    arrived.add(party);
    if (arrived.size === parties) open();
    return together;
  };
}

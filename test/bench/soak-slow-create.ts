import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { carryOut } from '../../src/apply/carry-out.js';
import { buildOperations } from '../../src/plan/operations.js';
import { reportExitCode } from '../../src/apply/report.js';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import { startEmulator } from '../../src/emulator/server.js';
import { loadDesired } from '../../src/manifest/load-desired.js';
import { nodeManifestSource } from '../../src/manifest/load.js';
import { createServiceClient } from '../../src/service/client.js';
import { duplicateNames } from '../support/cli.js';
import { FAST } from '../hardening/fault-runs.js';
import { planWorkspace } from '../../src/flows/plan-workspace.js';

/**
 * The soak's slow creates: the workload applied through a proxy that holds every
 * create until the client gives up on it (its attempt timeout closes the connection),
 * then hands it to the emulator, so it lands after the client gave up, however fast
 * or loaded the machine. The client must never send a create twice, must find the
 * late view, and its exit code must match what landed. Run at the library level.
 */

/** SlowCreateResult is one scenario: the exit code of each apply, convergence, duplicates and mis-sent creates. */
export interface SlowCreateResult {
  seed: number;
  applies: number[];
  convergedAfter: number | null;
  duplicates: string[];
  /** Creates the proxy received more than once for one name. */
  resent: string[];
  /** Applies whose exit code contradicts their report. */
  wrongExits: string[];
  held: number;
}

/** The attempt timeout: only held creates reach it; other calls answer far sooner, even on a busy machine. */
const TIMEOUT_MS = 400;
/** Waits before each re-listing: the held create reaches the emulator as soon as the client lets go. */
const RELIST_DELAYS_MS = [20, 100, 500];

/** runSlowCreateScenario applies the workload in `dir` through a holding proxy until a plan is empty (three applies at most). */
export async function runSlowCreateScenario(dir: string, seed: number): Promise<SlowCreateResult> {
  const emulator = await startEmulator({ data: demoWorkspace(), port: 0, ...FAST, seed });
  const target = new URL(emulator.url);
  const posted = new Map<string, number>();
  let held = 0;
  const proxy = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const isCreate = req.method === 'POST' && /^\/v1\/\w+\/views$/.test(req.url ?? '');
      if (isCreate) {
        held += 1;
        const name = (JSON.parse(body.toString('utf8')) as { name?: string }).name ?? '';
        posted.set(`${req.url ?? ''} ${name}`, (posted.get(`${req.url ?? ''} ${name}`) ?? 0) + 1);
      }
      const forward = (): void => {
        const upstream = httpRequest(
          { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
          (answer) => {
            if (res.destroyed) {
              answer.resume();
              return;
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on('error', () => res.destroy());
        upstream.end(body);
      };
      if (isCreate) res.once('close', forward);
      else forward();
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const client = createServiceClient({
    baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    apiKey: emulator.apiKey,
    rate: 1000,
    burst: 3,
    backoff: { baseMs: 1, capMs: 4 },
    timeoutMs: TIMEOUT_MS,
  });
  const { desired } = await loadDesired([dir], nodeManifestSource(dir));
  const applies: number[] = [];
  const wrongExits: string[] = [];
  let convergedAfter: number | null = null;
  try {
    for (let attempt = 1; attempt <= 3 && convergedAfter === null; attempt += 1) {
      const { plan, live } = await planWorkspace(desired, client);
      const report = await carryOut(plan, buildOperations(plan), {
        client,
        live,
        fromPlanFile: false,
        relistDelaysMs: RELIST_DELAYS_MS,
      });
      const code = reportExitCode(report);
      applies.push(code);
      const wrote = report.landed.length > 0 || report.mayHaveLanded.length > 0;
      if ((code === 1 && wrote) || (code === 0 && report.status !== 'applied'))
        wrongExits.push(
          `apply ${attempt}: exit ${code} with ${report.landed.length} landed, ${report.mayHaveLanded.length} may have`,
        );
      if ((await planWorkspace(desired, client)).plan.changes.length === 0) convergedAfter = attempt;
    }
    return {
      seed,
      applies,
      convergedAfter,
      duplicates: duplicateNames(emulator.snapshot()),
      resent: [...posted].filter(([, count]) => count > 1).map(([key]) => key),
      wrongExits,
      held,
    };
  } finally {
    proxy.closeAllConnections();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
    await emulator.close();
  }
}

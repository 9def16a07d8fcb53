import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequestAllowance, isBudgetSpent, withAllowance } from '../../src/service/types.js';
import { createServiceClient } from '../../src/service/client.js';

/**
 * A run's ceiling counts every attempt sent, retries included (README, "Scoped and
 * budgeted plans"): whatever the service fails, requests sent under an allowance of N
 * never exceed N, and those it refuses were never sent.
 */

/** faultyClient answers each attempt 503 when the next draw of `faults` says so, else 200; it counts what it received. */
function faultyClient(faults: readonly boolean[]) {
  let received = 0;
  const client = createServiceClient({
    baseUrl: 'http://service.test',
    apiKey: 'k'.repeat(32),
    rate: 1_000_000,
    burst: 1000,
    backoff: { baseMs: 0, capMs: 0 },
    fetch: async () => {
      const fail = faults[received % faults.length] ?? false;
      received += 1;
      return fail
        ? new Response('{"error":{"type":"unavailable","message":"busy"}}', { status: 503 })
        : new Response('{"result":[]}', { status: 200, headers: { 'content-type': 'application/json' } });
    },
  });
  return { client, received: () => received };
}

describe('RequestAllowance', () => {
  it('never lets more attempts out than its ceiling, whatever fails, and counts the retries', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 50 }),
        async (most, reads, faults) => {
          const { client, received } = faultyClient(faults);
          const allowance = new RequestAllowance(most, `--budget ${most}`);
          const budgeted = withAllowance(client, allowance);
          const outcomes = await Promise.allSettled(
            Array.from({ length: reads }, () => budgeted.request({ method: 'GET', route: '/v1/deals/views' })),
          );
          expect(received()).toBeLessThanOrEqual(most);
          expect(allowance.sent).toBe(received());
          expect(client.stats().requests).toBe(received());
          expect(allowance.retries).toBe(client.stats().retries);
          // A read that got no answer failed for the ceiling or after its five attempts, nothing else.
          for (const outcome of outcomes)
            if (outcome.status === 'rejected')
              expect(
                isBudgetSpent(outcome.reason) || (outcome.reason as { code?: string }).code === 'service.unavailable',
              ).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses with the ceiling, what set it and the retries in its message, before sending', async () => {
    const { client, received } = faultyClient([true, true, false]);
    const allowance = new RequestAllowance(2, '--budget 2');
    const error = await withAllowance(client, allowance)
      .request({ method: 'GET', route: '/v1/deals/views' })
      .catch((caught: unknown) => caught);
    expect(isBudgetSpent(error)).toBe(true);
    expect((error as Error).message).toBe(
      'not sending GET /v1/deals/views: this run may send at most 2 requests (--budget 2), retries included, and has sent 2, 1 of them retries of requests the service failed',
    );
    expect(received()).toBe(2);
  });

  it('holds every ceiling a request is sent under: a plan share inside a whole budget', async () => {
    const { client, received } = faultyClient([false]);
    const whole = new RequestAllowance(3, '--budget 3');
    const share = new RequestAllowance(10, 'reads');
    const inner = withAllowance(withAllowance(client, whole), share);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, () => inner.request({ method: 'GET', route: '/v1/deals/views' })),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(3);
    expect([received(), whole.sent, share.sent]).toEqual([3, 3, 3]);
  });
});

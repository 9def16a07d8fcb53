import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveryReport } from '../../src/emulator/webhooks.js';
import { fixture } from './fixture.js';
import { call, useEmulator } from './helpers.js';

const start = useEmulator();

interface Received {
  headers: IncomingHttpHeaders;
  body: { eventId: string; event: { type: string; recording: { id: string } } };
}

const subscribers: Server[] = [];
afterEach(async () => {
  for (const server of subscribers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/**
 * subscriber starts a receiver that answers the n-th delivery with `statuses[n]`
 * ('hang' never answers, to exercise the timeout).
 */
async function subscriber(statuses: (number | 'hang')[]): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const status = statuses[received.length] ?? 200;
      received.push({ headers: request.headers, body: JSON.parse(text) });
      if (status !== 'hang') response.writeHead(status).end();
    });
  });
  subscribers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

/** outcomes collects delivery reports and resolves once a final one arrives. */
function outcomes(): {
  reports: DeliveryReport[];
  done: Promise<void>;
  onWebhookDelivery: (report: DeliveryReport) => void;
} {
  const reports: DeliveryReport[] = [];
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    reports,
    done,
    onWebhookDelivery: (report) => {
      reports.push(report);
      if (report.outcome !== 'retrying') finish();
    },
  };
}

const FAST_RETRIES = { webhookTimeoutMs: 300, webhookRetryDelaysMs: [0, 5, 10] };

describe('webhooks', () => {
  it('the trigger answers {ok: true} and delivers {eventId, event: {type, recording}} with id and secret headers', async () => {
    const target = await subscriber([200]);
    const watch = outcomes();
    const emulator = await start({
      webhookUrl: target.url,
      ...FAST_RETRIES,
      onWebhookDelivery: watch.onWebhookDelivery,
    });
    const reply = await call(emulator, 'POST', '/v1/webhooks/wh_1/trigger', {
      body: { type: 'recording_added', recordingId: 'rec_1' },
    });
    expect(reply).toMatchObject({ status: 200, body: { result: { ok: true } } });
    await watch.done;
    expect(target.received).toHaveLength(1);
    const [delivery] = target.received;
    expect(delivery?.headers['x-service-webhook-id']).toBe('wh_1');
    expect(delivery?.headers['x-service-webhook-secret']).toBe('whsec_test');
    expect(delivery?.headers['content-type']).toContain('application/json');
    expect(delivery?.body.event.type).toBe('recording_added');
    expect(delivery?.body.event.recording.id).toBe('rec_1');
    expect(typeof delivery?.body.eventId).toBe('string');
    expect(watch.reports.map((report) => report.outcome)).toEqual(['delivered']);
    expect(emulator.stats().writes).toBe(0);
  });

  it('webhook retries: a failing subscriber gets 4 tries with the same eventId, then the delivery is dropped', async () => {
    const target = await subscriber([500, 500, 503, 500]);
    const watch = outcomes();
    const emulator = await start({
      webhookUrl: target.url,
      ...FAST_RETRIES,
      onWebhookDelivery: watch.onWebhookDelivery,
    });
    await call(emulator, 'POST', '/v1/webhooks/wh_1/trigger', {
      body: { type: 'recording_updated', recordingId: 'rec_2' },
    });
    await watch.done;
    expect(watch.reports.map((report) => [report.attempt, report.outcome, report.status])).toEqual([
      [1, 'retrying', 500],
      [2, 'retrying', 500],
      [3, 'retrying', 503],
      [4, 'dropped', 500],
    ]);
    expect(target.received).toHaveLength(4);
    expect(new Set(target.received.map((entry) => entry.body.eventId)).size).toBe(1);
  });

  it('webhook retries: a success on a retry ends the delivery', async () => {
    const target = await subscriber([500, 200]);
    const watch = outcomes();
    const emulator = await start({
      webhookUrl: target.url,
      ...FAST_RETRIES,
      onWebhookDelivery: watch.onWebhookDelivery,
    });
    await call(emulator, 'POST', '/v1/webhooks/wh_1/trigger', {
      body: { type: 'recording_added', recordingId: 'rec_1' },
    });
    await watch.done;
    expect(watch.reports.map((report) => report.outcome)).toEqual(['retrying', 'delivered']);
  });

  it('webhook retries: a try not answered within the timeout counts as failed and is retried', async () => {
    const target = await subscriber(['hang', 200]);
    const watch = outcomes();
    const emulator = await start({
      webhookUrl: target.url,
      ...FAST_RETRIES,
      webhookTimeoutMs: 100,
      onWebhookDelivery: watch.onWebhookDelivery,
    });
    await call(emulator, 'POST', '/v1/webhooks/wh_1/trigger', {
      body: { type: 'recording_added', recordingId: 'rec_1' },
    });
    await watch.done;
    expect(watch.reports.map((report) => [report.outcome, report.status])).toEqual([
      ['retrying', undefined],
      ['delivered', 200],
    ]);
    expect(target.received[0]?.body.eventId).toBe(target.received[1]?.body.eventId);
  });

  it('webhook retries: the default delays are at once, 1 minute, 5 minutes', async () => {
    const { DEFAULT_WEBHOOK_SETTINGS } = await import('../../src/emulator/webhooks.js');
    expect(DEFAULT_WEBHOOK_SETTINGS).toEqual({ timeoutMs: 5000, retryDelaysMs: [0, 60_000, 300_000] });
  });

  it("without --webhook-url the delivery goes to the webhook's own url", async () => {
    const target = await subscriber([200]);
    const data = fixture();
    data.webhooks = [{ id: 'wh_own', secret: 's3', url: target.url }];
    const watch = outcomes();
    const emulator = await start({ data, ...FAST_RETRIES, onWebhookDelivery: watch.onWebhookDelivery });
    await call(emulator, 'POST', '/v1/webhooks/wh_own/trigger', {
      body: { type: 'recording_added', recordingId: 'rec_1' },
    });
    await watch.done;
    expect(target.received[0]?.headers['x-service-webhook-secret']).toBe('s3');
  });

  it('a private recording fires nothing', async () => {
    const target = await subscriber([200, 200]);
    const watch = outcomes();
    const emulator = await start({
      webhookUrl: target.url,
      ...FAST_RETRIES,
      onWebhookDelivery: watch.onWebhookDelivery,
    });
    const reply = await call(emulator, 'POST', '/v1/webhooks/wh_1/trigger', {
      body: { type: 'recording_added', recordingId: 'rec_secret' },
    });
    expect(reply.body.result).toEqual({ ok: true });
    // A delivery for the private recording would have been sent before this one.
    await call(emulator, 'POST', '/v1/webhooks/wh_1/trigger', {
      body: { type: 'recording_added', recordingId: 'rec_1' },
    });
    await watch.done;
    expect(watch.reports).toHaveLength(1);
    expect(target.received.map((entry) => entry.body.event.recording.id)).toEqual(['rec_1']);
  });

  it.each([
    [
      'an unknown webhook',
      '/v1/webhooks/nope/trigger',
      { type: 'recording_added', recordingId: 'rec_1' },
      404,
      'not_found',
    ],
    [
      'an unknown recording',
      '/v1/webhooks/wh_1/trigger',
      { type: 'recording_added', recordingId: 'nope' },
      404,
      'not_found',
    ],
    [
      'an unknown event type',
      '/v1/webhooks/wh_1/trigger',
      { type: 'recording_deleted', recordingId: 'rec_1' },
      400,
      'validation_error',
    ],
    ['no recordingId', '/v1/webhooks/wh_1/trigger', { type: 'recording_added' }, 400, 'validation_error'],
  ])('a trigger for %s is refused', async (_, path, body, status, type) => {
    const emulator = await start();
    const reply = await call(emulator, 'POST', path, { body });
    expect(reply.status).toBe(status);
    expect(reply.body.error.type).toBe(type);
  });
});

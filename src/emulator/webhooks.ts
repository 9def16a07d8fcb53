/**
 * Webhook delivery (the service's "Workspace, users, automations, webhooks"): a
 * JSON POST `{eventId, event: {type, recording}}` with the webhook's id and secret in
 * headers. A try not answered 200 within the timeout is retried at once, then after
 * 1 minute and after 5 minutes, then dropped; every try carries the same eventId.
 * Timeout and delays are options so tests run in milliseconds.
 */

interface WebhookSettings {
  /** How long a try may take before it counts as failed (default 5 s). */
  timeoutMs: number;
  /** Delays before the 2nd, 3rd and 4th tries (default: at once, 1 min, 5 min). */
  retryDelaysMs: readonly number[];
  /** Where deliveries go instead of each webhook's own `url` (`--webhook-url`). */
  overrideUrl: string | undefined;
  /** Told of every try and of the final outcome; for tests and logs. */
  onDelivery?: (report: DeliveryReport) => void;
}

/** DEFAULT_WEBHOOK_SETTINGS are the service's timings. */
export const DEFAULT_WEBHOOK_SETTINGS = {
  timeoutMs: 5_000,
  retryDelaysMs: [0, 60_000, 300_000],
} as const;

/** DeliveryReport describes one try: `attempt` counts from 1. */
export interface DeliveryReport {
  webhookId: string;
  eventId: string;
  attempt: number;
  outcome: 'delivered' | 'retrying' | 'dropped' | 'no-url';
  /** HTTP status of the try, absent on timeouts and network errors. */
  status?: number;
}

interface WebhookDelivery {
  webhook: { id: string; secret: string; url?: string };
  eventId: string;
  event: { type: string; recording: unknown };
}

/** WebhookDispatcher sends deliveries in the background. */
export interface WebhookDispatcher {
  /** dispatch starts a delivery and returns at once. */
  dispatch(delivery: WebhookDelivery): void;
  /** close cancels pending retries and in-flight tries. */
  close(): void;
}

export function createWebhookDispatcher(settings: WebhookSettings): WebhookDispatcher {
  const timers = new Set<NodeJS.Timeout>();
  const controllers = new Set<AbortController>();
  let closed = false;

  const tryOnce = async (url: string, delivery: WebhookDelivery): Promise<number | undefined> => {
    const controller = new AbortController();
    controllers.add(controller);
    const timer = setTimeout(() => controller.abort(), settings.timeoutMs);
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-service-webhook-id': delivery.webhook.id,
          'x-service-webhook-secret': delivery.webhook.secret,
        },
        body: JSON.stringify({ eventId: delivery.eventId, event: delivery.event }),
        signal: controller.signal,
      });
      // The subscriber's answer must arrive in time too, so the body is read under the same timer.
      await response.arrayBuffer();
      return response.status;
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
      controllers.delete(controller);
    }
  };

  const attempt = (url: string, delivery: WebhookDelivery, number: number): void => {
    void tryOnce(url, delivery).then((status) => {
      if (closed) return;
      const base = { webhookId: delivery.webhook.id, eventId: delivery.eventId, attempt: number };
      const withStatus = status === undefined ? base : { ...base, status };
      const report = (outcome: DeliveryReport['outcome']): void => settings.onDelivery?.({ ...withStatus, outcome });
      if (status === 200) return report('delivered');
      const delay = settings.retryDelaysMs[number - 1];
      if (delay === undefined) return report('dropped');
      report('retrying');
      const timer = setTimeout(() => {
        timers.delete(timer);
        attempt(url, delivery, number + 1);
      }, delay);
      timers.add(timer);
    });
  };

  return {
    dispatch(delivery) {
      if (closed) return;
      const url = settings.overrideUrl ?? delivery.webhook.url;
      if (url === undefined) {
        settings.onDelivery?.({
          webhookId: delivery.webhook.id,
          eventId: delivery.eventId,
          attempt: 0,
          outcome: 'no-url',
        });
        return;
      }
      attempt(url, delivery, 1);
    },
    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const controller of controllers) controller.abort();
      controllers.clear();
    },
  };
}

/**
 * The daily quota guard. The workspace may send 3,000 requests per rolling 24 hours,
 * shared by all its keys, and every response says how many are left
 * (the service's "Rate limits"). Running out half-way through an apply leaves the
 * workspace half-changed, so the client refuses to send a request the quota cannot
 * cover, and apply can check its whole budget before it starts.
 */
import { ServiceError } from '../errors.js';

/** DAILY_REMAINING_HEADERS: the contract's spelling first, then the public docs' alternative. */
const DAILY_REMAINING_HEADERS = ['x-ratelimit-daily-remaining', 'x-daily-ratelimit-remaining'] as const;

const QUOTA_HINT =
  'the workspace has a daily request quota (per rolling 24 hours), shared by all its keys; the service does not say ' +
  'when requests free up (each frees 24 h after it was made), so try again later';

const RESERVE_HINT = `${QUOTA_HINT}, or keep a smaller reserve (--reserve)`;

/** readDailyRemaining reads the daily remaining count from response headers, if sent and valid. */
export function readDailyRemaining(headers: Headers): number | undefined {
  for (const name of DAILY_REMAINING_HEADERS) {
    const value = headers.get(name);
    if (value !== null && /^\s*\d+\s*$/.test(value)) return Number(value);
  }
  return undefined;
}

/**
 * QuotaTracker keeps the lowest daily remaining count any response carried. Concurrent
 * requests reach the service in any order, and their answers come back in any order:
 * the answer to the request sent last may have been counted before one sent earlier,
 * whose answer then says one less. Within a run the count only falls (requests free up
 * 24 h after they were made), so the lowest is the one that counts every request
 * answered; those still in flight are counted apart (`check`).
 */
export class QuotaTracker {
  private remaining: number | null = null;

  /** dailyRemaining is the lowest count seen, or null before any response carried one. */
  get dailyRemaining(): number | null {
    return this.remaining;
  }

  /** observe records the count a response carried, if any. */
  observe(remaining: number | undefined): void {
    if (remaining === undefined) return;
    this.remaining = this.remaining === null ? remaining : Math.min(this.remaining, remaining);
  }

  /**
   * check throws `service.quota-exhausted` when the requests already in flight plus
   * the reserve would use up what is left, so this one must not be sent.
   */
  check(inFlight: number, reserve: number, endpoint: string): void {
    if (this.remaining === null || this.remaining > inFlight + reserve) return;
    const pending = inFlight > 0 ? `, ${inFlight} already in flight` : '';
    const left = `the service says ${this.remaining} ${this.remaining === 1 ? 'request is' : 'requests are'} left today${pending}`;
    // Short of the reserve but not of the quota: the requests left belong to the other integrations.
    const reserved = this.remaining > inFlight;
    throw new ServiceError(
      'service.quota-exhausted',
      reserved
        ? `not sending ${endpoint}: it would dip into the ${reserve} requests kept in reserve for the other integrations that share the daily quota (${left})`
        : `not sending ${endpoint}: the daily request quota is used up (${left})`,
      { endpoint, hint: reserved ? RESERVE_HINT : QUOTA_HINT },
    );
  }
}

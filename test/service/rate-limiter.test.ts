import { describe, expect, it } from 'vitest';
import {
  blockUntil,
  FRESH_BUCKET,
  RateLimiter,
  slotDelay,
  takeSlot,
  type BucketState,
} from '../../src/service/rate-limiter.js';
import { FakeClock } from './helpers.js';

const third = 1000 / 3;

describe('token bucket timing (pure)', () => {
  it('spaces requests at the rate when burst is 1', () => {
    const policy = { intervalMs: third, burst: 1 };
    let state: BucketState = FRESH_BUCKET;
    const starts: number[] = [];
    let now = 0;
    for (let i = 0; i < 4; i += 1) {
      now += slotDelay(state, now, policy);
      starts.push(now);
      state = takeSlot(state, now, policy);
    }
    expect(starts.map(Math.round)).toEqual([0, 333, 667, 1000]);
  });

  it('lets a burst go back to back, then spaces the rest', () => {
    const policy = { intervalMs: third, burst: 3 };
    let state: BucketState = FRESH_BUCKET;
    const delays: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const delay = slotDelay(state, 0, policy);
      delays.push(Math.round(delay));
      state = takeSlot(state, delay, policy);
    }
    expect(delays).toEqual([0, 0, 0, 333, 667]);
  });

  it('refills while idle, but never beyond the burst', () => {
    const policy = { intervalMs: 100, burst: 1 };
    const state = takeSlot(FRESH_BUCKET, 0, policy);
    expect(slotDelay(state, 50, policy)).toBe(50);
    expect(slotDelay(state, 5000, policy)).toBe(0);
    const later = takeSlot(state, 5000, policy);
    expect(slotDelay(later, 5000, policy)).toBe(100);
  });

  it('a pause only extends and delays the next slot', () => {
    const policy = { intervalMs: 100, burst: 1 };
    const paused = blockUntil(takeSlot(FRESH_BUCKET, 0, policy), 1000);
    expect(slotDelay(paused, 0, policy)).toBe(1000);
    expect(blockUntil(paused, 500)).toBe(paused);
    const after = takeSlot(paused, 1000, policy);
    expect(slotDelay(after, 1000, policy)).toBe(100);
  });
});

describe('RateLimiter with a fake clock', () => {
  function track(
    limiter: RateLimiter,
    clock: FakeClock,
    key: string,
    count: number,
    into: Array<[string, number]>,
  ): void {
    for (let i = 0; i < count; i += 1) {
      void limiter.acquire(key).then(() => into.push([key, clock.now()]));
    }
  }

  it('spaces N requests on one endpoint at least 333 ms apart at rate 3', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ rate: 3, burst: 1, clock });
    const granted: Array<[string, number]> = [];
    track(limiter, clock, 'GET /v1/deals/views', 5, granted);
    await clock.advance(0);
    expect(granted).toHaveLength(1);
    await clock.advance(5000);
    const times = granted.map(([, t]) => t);
    expect(times).toHaveLength(5);
    for (let i = 1; i < times.length; i += 1) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(333);
    expect(times[4]).toBeCloseTo(4 * third, 5);
  });

  it('lets two endpoints proceed independently', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ rate: 3, burst: 1, clock });
    const granted: Array<[string, number]> = [];
    track(limiter, clock, 'GET /v1/deals/views', 3, granted);
    track(limiter, clock, 'PATCH /v1/deals/views/{viewId}', 3, granted);
    await clock.advance(700);
    const at = (key: string): number[] => granted.filter(([k]) => k === key).map(([, t]) => Math.round(t));
    expect(at('GET /v1/deals/views')).toEqual([0, 333, 667]);
    expect(at('PATCH /v1/deals/views/{viewId}')).toEqual([0, 333, 667]);
  });

  it('a pause holds back only that endpoint, queued requests included', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ rate: 10, burst: 1, clock });
    const granted: Array<[string, number]> = [];
    await limiter.acquire('A');
    await limiter.acquire('B');
    limiter.pause('A', 2000);
    track(limiter, clock, 'A', 2, granted);
    track(limiter, clock, 'B', 2, granted);
    await clock.advance(3000);
    expect(granted.filter(([k]) => k === 'A').map(([, t]) => Math.round(t))).toEqual([2000, 2100]);
    expect(granted.filter(([k]) => k === 'B').map(([, t]) => Math.round(t))).toEqual([100, 200]);
  });

  it('a pause set while the endpoint waits pushes its queue back', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ rate: 10, burst: 1, clock });
    const granted: Array<[string, number]> = [];
    track(limiter, clock, 'A', 3, granted);
    await clock.advance(50);
    limiter.pause('A', 1000);
    await clock.advance(2000);
    expect(granted.map(([, t]) => Math.round(t))).toEqual([0, 1000, 1100]);
  });

  it('exhausted waits the longer of our interval and the service rate', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ rate: 10, burst: 1, clock });
    await limiter.acquire('A');
    await clock.advance(500);
    limiter.exhausted('A', 2);
    const granted: Array<[string, number]> = [];
    track(limiter, clock, 'A', 1, granted);
    await clock.advance(2000);
    expect(granted.map(([, t]) => t)).toEqual([1000]);
  });

  it('serves a retry put at the front before requests queued after it', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ rate: 10, burst: 1, clock });
    const order: string[] = [];
    await limiter.acquire('A');
    void limiter.acquire('A').then(() => order.push('later'));
    void limiter.acquire('A', { front: true }).then(() => order.push('retry'));
    await clock.advance(1000);
    expect(order).toEqual(['retry', 'later']);
  });

  it("takes one request out of the queue when its own signal aborts, and keeps the others' places", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ rate: 1, burst: 1, clock });
    await limiter.acquire('A');
    const controller = new AbortController();
    const order: string[] = [];
    const cancelled = limiter.acquire('A', { signal: controller.signal }).then(() => order.push('cancelled'));
    void limiter.acquire('A').then(() => order.push('kept'));
    expect(limiter.queued('A')).toBe(2);
    controller.abort(new Error('interrupted'));
    await expect(cancelled).rejects.toThrow('interrupted');
    expect(limiter.queued('A')).toBe(1);
    await clock.advance(1000);
    expect(order).toEqual(['kept']);
    await expect(limiter.acquire('A', { signal: controller.signal })).rejects.toThrow('interrupted');
  });

  it('rejects queued requests when the signal aborts and leaves no sleeper behind', async () => {
    const clock = new FakeClock();
    const controller = new AbortController();
    const limiter = new RateLimiter({ rate: 1, burst: 1, clock, signal: controller.signal });
    await limiter.acquire('A');
    const queued = [limiter.acquire('A'), limiter.acquire('A')];
    await clock.advance(10);
    expect(clock.pending).toBe(1);
    controller.abort(new Error('stop'));
    for (const p of queued) await expect(p).rejects.toThrow('stop');
    await clock.advance(0);
    expect(clock.pending).toBe(0);
    expect(limiter.queued('A')).toBe(0);
    await expect(limiter.acquire('B')).rejects.toThrow('stop');
  });
});

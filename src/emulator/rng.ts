/**
 * Rng is a seeded pseudo-random source: the same `--seed` gives the same faults and
 * the same `Retry-After` choices, so a failing run can be replayed.
 */
interface Rng {
  /** next returns a number in [0, 1). */
  next(): number;
  /** chance returns true with probability `rate` (0 never, 1 always). */
  chance(rate: number): boolean;
}

/**
 * createRng returns a mulberry32 generator: tiny, fast and good enough for fault
 * injection (not for anything secret).
 */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    // rate 0 and 1 never consume a draw, so turning a fault off does not shift the
    // sequence the other faults see.
    chance: (rate) => (rate <= 0 ? false : rate >= 1 ? true : next() < rate),
  };
}

import { createRng } from '../rng.js';

/** DemoRandom is the seeded generator behind the demo workspace. */
export interface DemoRandom {
  /** next returns a number in [0, 1). */
  next(): number;
  /** int returns an integer in [min, max]. */
  int(min: number, max: number): number;
  /** pick returns one element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** sample returns `count` distinct elements, in list order. */
  sample<T>(items: readonly T[], count: number): T[];
  /** shuffle puts `items` in a random order, in place, and returns them. */
  shuffle<T>(items: T[]): T[];
  /** chance returns true with probability `rate`. */
  chance(rate: number): boolean;
}

/**
 * demoRandom returns a generator for `seed`: its own instance of the emulator's
 * mulberry32, so the demo data never shifts when fault injection draws differently.
 */
export function demoRandom(seed: number): DemoRandom {
  const { next } = createRng(seed);
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    const item = items[int(0, items.length - 1)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  };
  const shuffle = <T>(items: T[]): T[] => {
    for (let i = items.length - 1; i > 0; i -= 1) {
      const j = int(0, i);
      [items[i], items[j]] = [items[j] as T, items[i] as T];
    }
    return items;
  };
  const sample = <T>(items: readonly T[], count: number): T[] =>
    shuffle(items.map((_, index) => index))
      .slice(0, count)
      .sort((a, b) => a - b)
      .map((index) => items[index] as T);
  // chance always draws (unlike the fault generator's), so the data stays as generated.
  return { next, int, pick, sample, shuffle, chance: (rate) => next() < rate };
}

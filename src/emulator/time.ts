/** DAY_MS is one day in milliseconds: the quota's rolling window, relative filters' unit, a media link's life, the demo's spacing. */
export const DAY_MS = 24 * 60 * 60 * 1000;

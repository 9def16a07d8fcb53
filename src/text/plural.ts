/** formatCount writes an integer with thousands separators (`2,981`), locale-independent. */
export function formatCount(value: number): string {
  return String(Math.trunc(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * formatRate writes a rate of requests per second (`--rate`, 0.1 to 1,000): a whole
 * number as formatCount does, a fraction to two decimals (`0.5`), never truncated to 0.
 */
export function formatRate(value: number): string {
  const [whole = '0', fraction] = String(Math.round(value * 100) / 100).split('.');
  return fraction === undefined ? formatCount(Number(whole)) : `${formatCount(Number(whole))}.${fraction}`;
}

/** plural is `1 thing` or `N things`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;
}

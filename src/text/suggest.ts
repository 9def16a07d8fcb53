/**
 * "Did you mean" suggestions, one rule for manifests and plans alike: a candidate is
 * close when its edit distance (case ignored, a case-only difference counting half an
 * edit) is at most a third of the longer name, and at least 2, so an unrelated name
 * gets no misleading suggestion.
 */

/**
 * editDistance is the Levenshtein distance between two strings: the fewest single
 * character insertions, deletions and substitutions that turn one into the other;
 * cut short (returning `limit + 1`) once every path exceeds `limit`.
 */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * suggestNames returns up to `max` candidates close to `name`, closest first (ties in
 * the candidates' order).
 */
export function suggestNames(name: string, candidates: Iterable<string>, max = 3): string[] {
  return scoreNames(name, candidates)
    .slice(0, max)
    .map((entry) => entry.candidate);
}

/**
 * closestNames returns the candidates at the least distance from `name` (up to `max`,
 * in the candidates' order), by the rule of suggestNames. For addresses, which share
 * their domain, a second-best is rarely what was meant: `olvia@acme.com` means
 * `olivia@acme.com`, not also `owen@acme.com`.
 */
export function closestNames(name: string, candidates: Iterable<string>, max = 3): string[] {
  const scored = scoreNames(name, candidates);
  const best = scored[0]?.distance;
  return scored
    .filter((entry) => entry.distance === best)
    .slice(0, max)
    .map((entry) => entry.candidate);
}

function scoreNames(name: string, candidates: Iterable<string>): { candidate: string; distance: number }[] {
  const lower = name.toLowerCase();
  const scored: { candidate: string; distance: number }[] = [];
  for (const candidate of new Set(candidates)) {
    if (candidate === name) continue;
    const allowed = Math.max(2, Math.floor(Math.max(name.length, candidate.length) / 3));
    const other = candidate.toLowerCase();
    const distance = other === lower ? 0.5 : editDistance(lower, other, allowed);
    if (distance <= allowed) scored.push({ candidate, distance });
  }
  return scored.sort((a, b) => a.distance - b.distance);
}

/** closestName is the one candidate a misspelt name most likely meant, or undefined when none is close. */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  return suggestNames(name, candidates, 1)[0];
}

/** didYouMean is the hint text for a misspelt name, or undefined when nothing is close. */
export function didYouMean(name: string, candidates: Iterable<string>): string | undefined {
  const closest = closestName(name, candidates);
  return closest === undefined ? undefined : `did you mean "${closest}"?`;
}

/**
 * editDistance is the Levenshtein distance between two strings: the fewest single
 * character insertions, deletions and substitutions that turn one into the other.
 */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * closestName returns the candidate a misspelt name most likely meant, or undefined
 * when none is close enough to be a plausible typo (so that an unrelated attribute
 * gets no misleading suggestion). Case differences count as one edit at most.
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const distance = candidate.toLowerCase() === lower ? 0.5 : editDistance(lower, candidate.toLowerCase());
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  if (best === undefined) return undefined;
  const allowed = Math.max(2, Math.floor(Math.max(name.length, best.candidate.length) / 3));
  return best.distance <= allowed ? best.candidate : undefined;
}

/** didYouMean is the hint text for a misspelt name, or undefined when nothing is close. */
export function didYouMean(name: string, candidates: readonly string[]): string | undefined {
  const closest = closestName(name, candidates);
  return closest === undefined ? undefined : `did you mean "${closest}"?`;
}

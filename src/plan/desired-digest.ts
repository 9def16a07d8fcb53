import { canonicalJson } from '../kinds/canonical.js';
import type { Desired } from '../domain/desired.js';
import { hashJson } from './hash.js';

/**
 * desiredDigest is the SHA-256 hex of a desired state's content (README, "Self-heal:
 * `apply --budget`"): what the sweep memory records an apply carried out, and what
 * self-heal must load again before it repairs. Where each value was written (file,
 * line) is left out, and the documents of each kind are taken as a set, so the same
 * manifests hash the same whichever folder a run starts in and whether they are read
 * from disk or from git.
 */
export function desiredDigest(desired: Desired): string {
  const content = withoutSources(desired) as Record<string, unknown>;
  const sorted = Object.fromEntries(
    Object.entries(content).map(([key, value]) => [
      key,
      Array.isArray(value) ? value.map(canonicalJson).sort() : value,
    ]),
  );
  return hashJson(sorted);
}

/** USER_DATA are the members holding what a manifest declares as is (a view's attributes, an automation's filters and actions): kept whole. */
const USER_DATA = new Set(['managed', 'filters', 'actions']);

/** withoutSources is `value` without the positions the loader notes (`source`, `nameSource`, `refSources`, ...). */
function withoutSources(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSources);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !/^(source|\w+Sources?)$/.test(key))
      .map(([key, member]) => [key, USER_DATA.has(key) ? member : withoutSources(member)]),
  );
}

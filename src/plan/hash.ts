import { createHash } from 'node:crypto';
import type { Live } from '../state/types.js';
import { canonicalJson } from '../kinds/canonical.js';
import { kinds } from '../kinds/kinds.js';
import type { Change, Plan } from './types.js';

/**
 * Hashes for the stale check and the plan digest: SHA-256 hex of canonical JSON
 * (object keys sorted at every depth), so equal data always hashes equal.
 */

/** hashJson is the SHA-256 hex of the canonical JSON of plain data. */
export function hashJson(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/**
 * targetHash hashes the live state one target was computed from, as the kind that owns
 * the target says (`Kind.hashed`): a view's id and normalised snapshot (or its
 * absence), the ids of the public views having a new view's name, a pinned list's
 * ordered ids with its domain's ids and names, or the normalised automation list.
 * A target that is not read in `live` hashes as absent, which makes it stale.
 */
export function targetHash(target: string, live: Live, change?: Change): string {
  for (const kind of kinds()) {
    const hashed = kind.hashed(target, live, change);
    if (hashed !== undefined) return hashJson(hashed);
  }
  return hashJson({ unknownTarget: target });
}

/** liveHashesFor recomputes the hash of every target of the plan's changes from `live`, keys sorted. */
export function liveHashesFor(plan: { changes: readonly Change[] }, live: Live): Record<string, string> {
  const byTarget = new Map<string, Change>();
  for (const change of plan.changes) if (!byTarget.has(change.target)) byTarget.set(change.target, change);
  const targets = [...byTarget.keys()].sort();
  return Object.fromEntries(targets.map((target) => [target, targetHash(target, live, byTarget.get(target))]));
}

/**
 * planDigest is the SHA-256 hex of the canonical JSON of the plan's content: every
 * field but `digest`, `requests` and `manifests`. The request figures change from one
 * read to the next (the daily budget left) without changing what apply would do, so
 * they stay out; otherwise two plans of the same changes could never match
 * `--expect-digest`. `manifests` (the git ids `plan --out` records) says where the plan
 * came from, not what it does: `plan` and `apply` of the same manifests have one digest.
 */
export function planDigest({
  digest: _digest,
  requests: _requests,
  manifests: _manifests,
  ...content
}: Omit<Plan, 'digest'> & Partial<Pick<Plan, 'digest'>>): string {
  return hashJson(content);
}

export function verifyDigest(plan: Plan): boolean {
  return plan.digest === planDigest(plan);
}

/** shortDigest abbreviates a digest for people: the first six and last four hex digits. */
export function shortDigest(digest: string): string {
  return digest.length <= 12 ? digest : `${digest.slice(0, 6)}…${digest.slice(-4)}`;
}

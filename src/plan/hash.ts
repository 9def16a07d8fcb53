import { createHash } from 'node:crypto';
import type { ApiView } from '../domain/api-types.js';
import type { Live } from '../state/types.js';
import { canonicalJson } from '../kinds/canonical.js';
import { normalizeAutomation } from '../kinds/admin-automations.js';
import { normalizeView } from '../kinds/normalize.js';
import { parseTarget } from '../domain/targets.js';
import { isPublicSaved } from '../domain/views.js';
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
 * targetHash hashes the live state one target was computed from: a view's id and
 * normalised snapshot (or its absence), the ids of the public views having a new
 * view's name, a pinned list's ordered ids with its domain's ids and names, or the
 * normalised automation list.
 * A target that is not read in `live` hashes as absent, which makes it stale.
 */
export function targetHash(target: string, live: Live): string {
  return hashTarget(target, live, indexViews(live));
}

/** ViewIndex finds public saved views by domain and id without scanning listings. */
type ViewIndex = Map<string, ApiView>;

function indexViews(live: Live): ViewIndex {
  const index: ViewIndex = new Map();
  for (const [domain, listing] of Object.entries(live.views)) {
    for (const view of listing) if (isPublicSaved(view)) index.set(`${domain}:${view.viewId}`, view);
  }
  return index;
}

function hashTarget(target: string, live: Live, index: ViewIndex): string {
  const parsed = parseTarget(target);
  if (parsed === undefined) return hashJson({ unknownTarget: target });
  switch (parsed.type) {
    case 'view': {
      const view = index.get(`${parsed.domain}:${parsed.id}`);
      return hashJson(view === undefined ? { id: parsed.id, absent: true } : { id: parsed.id, view: normalizeView(parsed.domain, view) });
    }
    case 'new-view': {
      const listing = live.views[parsed.domain];
      const ids = listing?.filter((view) => isPublicSaved(view) && view.name === parsed.name).map((view) => view.viewId).sort();
      return hashJson({ name: parsed.name, liveIds: ids ?? null });
    }
    case 'pins': {
      // The new list was resolved against the user's tabs and the domain's listing
      // (names to ids): a rename, a deletion or a new namesake there makes it stale.
      const key = target.slice('pins:'.length);
      const listing = live.views[parsed.domain]?.map((view) => [view.viewId, view.name, view.isDefault]);
      return hashJson({ pins: key, ids: live.pins[key]?.map((view) => view.viewId) ?? null, listing: listing ?? null });
    }
    case 'automations':
      return hashJson({
        automations: live.automations?.map((automation) => ({ id: automation.adminAutomationId, ...normalizeAutomation(automation) })) ?? null,
      });
  }
}

/** liveHashesFor recomputes the hash of every target of the plan's changes from `live`, keys sorted. */
export function liveHashesFor(plan: { changes: readonly Change[] }, live: Live): Record<string, string> {
  const targets = [...new Set(plan.changes.map((change) => change.target))].sort();
  const index = indexViews(live);
  const out: Record<string, string> = {};
  for (const target of targets) out[target] = hashTarget(target, live, index);
  return out;
}

/**
 * planDigest is the SHA-256 hex of the canonical JSON of the plan's content: every
 * field but `digest` and `requests`. The request figures change from one read to the
 * next (the daily budget left) without changing what apply would do, so they stay
 * out; otherwise two plans of the same changes could never match `--expect-digest`.
 */
export function planDigest(plan: Omit<Plan, 'digest'> | Plan): string {
  const { digest: _digest, requests: _requests, ...content } = plan as Plan;
  return hashJson(content);
}

/** verifyDigest tells whether a plan's `digest` matches its content. */
export function verifyDigest(plan: Plan): boolean {
  return plan.digest === planDigest(plan);
}

/** shortDigest abbreviates a digest for people: the first six and last four hex digits. */
export function shortDigest(digest: string): string {
  return digest.length <= 12 ? digest : `${digest.slice(0, 6)}…${digest.slice(-4)}`;
}

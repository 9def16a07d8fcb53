import type { Change, Plan, ViewSnapshot } from '../../src/plan/types.js';

/** snapshot builds a normalised view snapshot for hand-made plans. */
export function snapshot(name: string, extra: Partial<ViewSnapshot> = {}): ViewSnapshot {
  return { name, columns: [], filters: {}, sort: [], ...extra };
}

/** handPlan wraps changes into a plan; its digest and hashes are not meaningful (pure tests only). */
export function handPlan(changes: Change[], creatorEmail: string | null = 'ops@acme.test'): Plan {
  const count = (action: Change['action']): number => changes.filter((change) => change.action === action).length;
  return {
    formatVersion: 1,
    workspace: { id: 'ws_test', name: 'Test' },
    ...(creatorEmail === null ? {} : { creatorEmail }),
    changes,
    summary: { create: count('create'), update: count('update'), delete: count('delete'), pin: count('pin'), drift: count('drift') },
    requests: { used: 0, applyNeeds: changes.length, dailyRemaining: null, dailyQuota: 3000 },
    liveHashes: Object.fromEntries(changes.map((change) => [change.target, 'x'])),
    warnings: [],
    digest: '0'.repeat(64),
  };
}

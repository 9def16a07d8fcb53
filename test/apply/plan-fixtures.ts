import { planSteps } from '../../src/plan/operations.js';
import { PLAN_FORMAT_VERSION, type Change, type Plan, type PlanStep, type ViewSnapshot } from '../../src/plan/types.js';

/** snapshot builds a normalised view snapshot for hand-made plans. */
export function snapshot(name: string, extra: Partial<ViewSnapshot> = {}): ViewSnapshot {
  return { name, columns: [], filters: {}, sort: [], ...extra };
}

/** handPlan wraps changes into a plan; its digest and hashes are not meaningful (pure tests only). */
export function handPlan(changes: Change[], creatorEmail: string | null = 'ops@acme.test'): Plan {
  const count = (action: Change['action']): number => changes.filter((change) => change.action === action).length;
  const plan = creatorEmail === null ? { changes } : { changes, creatorEmail };
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    workspace: { id: 'ws_test', name: 'Test' },
    ...(creatorEmail === null ? {} : { creatorEmail }),
    changes,
    steps: impliedSteps(plan),
    summary: {
      create: count('create'),
      update: count('update'),
      delete: count('delete'),
      pin: count('pin'),
      drift: count('drift'),
    },
    requests: { used: 0, applyNeeds: changes.length, dailyRemaining: null },
    liveHashes: Object.fromEntries(changes.map((change) => [change.target, 'x'])),
    warnings: [],
    digest: '0'.repeat(64),
  };
}

/** impliedSteps are the steps a hand-made plan's changes imply; none when apply could not carry it out (some tests make such plans on purpose). */
function impliedSteps(plan: Pick<Plan, 'changes' | 'creatorEmail'>): PlanStep[] {
  try {
    return planSteps(plan);
  } catch {
    return [];
  }
}

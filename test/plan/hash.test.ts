import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import { hashJson, liveHashesFor, planDigest, targetHash, verifyDigest } from '../../src/plan/hash.js';
import { parsePlanFile } from '../../src/plan/plan-file.js';
import { renderJson } from '../../src/render/json.js';
import { pinsKey } from '../../src/state/types.js';
import { mixedScenario, view } from './fixtures.js';
import { thrownViewctlError } from '../support/errors.js';

describe('hashes', () => {
  it('hash canonical JSON: key order does not matter', () => {
    expect(hashJson({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(hashJson({ b: [1, { d: 3, c: 2 }], a: 1 }));
    expect(hashJson({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });

  it('liveHashesFor recomputes the plan hashes from the same live state', () => {
    const { desired, live } = mixedScenario();
    const { plan } = computePlan(desired, live);
    expect(Object.keys(plan.liveHashes)).toEqual([
      'automations',
      'pins:recordings:mia@acme.com',
      'view:deals:id:dv_9',
      'view:recordings:id:rv_1',
      'view:recordings:name:Team calls',
    ]);
    expect(liveHashesFor(plan, mixedScenario().live)).toEqual(plan.liveHashes);
  });

  it('changes a target hash when its live state changes, and only then', () => {
    const { desired, live } = mixedScenario();
    const { plan } = computePlan(desired, live);
    const later = mixedScenario().live;
    later.views.recordings?.unshift(view('rv_new', 'Team calls'));
    later.views.deals = later.views.deals?.filter((candidate) => candidate.viewId !== 'dv_9');
    const stale = liveHashesFor(plan, later);
    expect(stale['view:recordings:name:Team calls']).not.toBe(plan.liveHashes['view:recordings:name:Team calls']);
    expect(stale['view:deals:id:dv_9']).not.toBe(plan.liveHashes['view:deals:id:dv_9']);
    expect(stale['view:recordings:id:rv_1']).toBe(plan.liveHashes['view:recordings:id:rv_1']);
    later.pins[pinsKey('recordings', 'mia@acme.com')]?.reverse();
    expect(targetHash('pins:recordings:mia@acme.com', later)).not.toBe(plan.liveHashes['pins:recordings:mia@acme.com']);
  });
});

describe('digest and plan files', () => {
  const { plan } = computePlan(mixedScenario().desired, mixedScenario().live);

  it('round-trips through the JSON rendering', () => {
    expect(verifyDigest(plan)).toBe(true);
    expect(planDigest(plan)).toBe(plan.digest);
    expect(parsePlanFile(renderJson(plan))).toEqual(plan);
  });

  it('detects any tampering', () => {
    const text = renderJson(plan);
    const edited = text.replace('"MsTeams"', '"Loom"');
    expect(edited).not.toBe(text);
    const error = thrownViewctlError(() => parsePlanFile(edited));
    expect(error.code).toBe('plan.digest-mismatch');
    expect(error.exitCode).toBe(3);
    const reordered = JSON.parse(text) as typeof plan;
    reordered.changes.reverse();
    expect(verifyDigest(reordered)).toBe(false);
  });

  it('reads a file written before plans stored their steps, with the steps its changes imply', () => {
    const { steps, digest: _digest, ...rest } = plan;
    const older = { ...rest, digest: planDigest(rest as typeof plan) };
    expect(steps.length).toBeGreaterThan(0);
    expect(parsePlanFile(JSON.stringify(older)).steps).toEqual(steps);
  });

  it('reads a file written before warnings had codes, each text as a warning of code plan.warning', () => {
    const { digest: _digest, ...rest } = {
      ...plan,
      warnings: ['ignore "Scratch *" keeps 1 undeclared DealView from prune'],
    };
    const older = { ...rest, digest: planDigest(rest as unknown as typeof plan) };
    expect(parsePlanFile(JSON.stringify(older)).warnings).toEqual([
      { code: 'plan.warning', message: 'ignore "Scratch *" keeps 1 undeclared DealView from prune' },
    ]);
  });

  it('refuses files that are not plans, or of another version', () => {
    expect(thrownViewctlError(() => parsePlanFile('not json')).code).toBe('plan.invalid');
    expect(thrownViewctlError(() => parsePlanFile('[]')).code).toBe('plan.invalid');
    const other = thrownViewctlError(() => parsePlanFile(JSON.stringify({ ...plan, formatVersion: 2 })));
    expect(other.code).toBe('plan.version');
    expect(other.hint).toContain('viewctl plan --out FILE');
    const broken = { ...plan, changes: [{ ...plan.changes[0], action: 'explode' }] };
    const error = thrownViewctlError(() => parsePlanFile(JSON.stringify(broken)));
    expect(error.code).toBe('plan.invalid');
    expect(error.message).toContain('/changes/0/action');
  });

  it('refuses a plan file with a change that has no live hash, or a summary that miscounts its changes, though its digest matches', () => {
    const resealed = (edit: (copy: typeof plan) => void): string => {
      const copy = structuredClone(plan);
      edit(copy);
      return JSON.stringify({ ...copy, digest: planDigest(copy) });
    };
    const unhashed = thrownViewctlError(() =>
      parsePlanFile(resealed((copy) => delete copy.liveHashes[copy.changes[1]?.target ?? ''])),
    );
    expect(unhashed.code).toBe('plan.invalid');
    expect(unhashed.message).toContain('/changes/1/target: has no live hash');
    const miscounted = thrownViewctlError(() =>
      parsePlanFile(
        resealed((copy) => {
          copy.summary.delete = 0;
        }),
      ),
    );
    expect(miscounted.code).toBe('plan.invalid');
    expect(miscounted.message).toContain('/summary/delete: 1, the number of delete changes');
    const drifted = thrownViewctlError(() =>
      parsePlanFile(
        resealed((copy) => {
          copy.drifted = { changes: 2 };
        }),
      ),
    );
    expect(drifted.code).toBe('plan.invalid');
    expect(drifted.message).toContain('/drifted/changes: 0, the number of changes with an origin');
    expect(() =>
      parsePlanFile(
        resealed((copy) => {
          copy.drifted = { changes: 0 };
        }),
      ),
    ).not.toThrow();
  });
});

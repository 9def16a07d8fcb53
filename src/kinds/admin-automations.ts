import jsonpatch from 'fast-json-patch';
import type { ApiAdminAutomation, JsonObject, JsonValue } from '../domain/api-types.js';
import type { Desired, DesiredAutomations, ExpectedAutomation, Live } from '../state/types.js';
import type { DriftChange, DriftDifference } from './changes.js';
import type { Kind } from './kind.js';
import type { DriftLabels, Presentation, Repairs, SavedPlanChecks } from './capabilities.js';
import { AUTOMATIONS_TARGET } from '../domain/targets.js';
import { compileGlobs, type NameMatcher } from '../text/glob.js';
import { canonicalize, jsonEqual } from './canonical.js';
import { InternalError } from '../errors.js';
import { automationsRead } from '../state/reads.js';

/**
 * The `AdminAutomations` kind: read-only expectations, checked for drift and never
 * applied. Automations match by name; only the attributes an expectation gives are
 * compared; the list is complete and in priority order (highest first).
 */

/** normalizeAutomation is a live automation without its id, keys in canonical order. */
function normalizeAutomation({ adminAutomationId: _id, ...rest }: ApiAdminAutomation): JsonObject {
  return canonicalize(rest as unknown as JsonObject);
}

/** expectedAutomation is an expectation as data: its name and the attributes it gives, without its source. */
function expectedAutomation({ source: _source, ...expected }: ExpectedAutomation): JsonObject {
  return canonicalize(expected as JsonObject);
}

/**
 * automationDrift compares the expected automations with the live list and returns one
 * drift change per automation that is missing, differs, is out of priority order, or
 * is live but not expected (unless `ignored` matches its name).
 */
export function automationDrift(
  desired: DesiredAutomations,
  live: readonly ApiAdminAutomation[],
  ignored: NameMatcher,
): DriftChange[] {
  const unmatched = live.map((automation, index) => ({ automation, index }));
  const pairs: { expected: ExpectedAutomation; expectedIndex: number; live: ApiAdminAutomation; liveIndex: number }[] =
    [];
  const changes: DriftChange[] = [];
  desired.automations.forEach((expected, expectedIndex) => {
    const at = unmatched.findIndex((entry) => entry.automation.name === expected.name);
    const found = unmatched[at];
    if (found === undefined) {
      changes.push(drift(expected.name, expected.source, undefined, null, expectedAutomation(expected), []));
      return;
    }
    unmatched.splice(at, 1);
    pairs.push({ expected, expectedIndex, live: found.automation, liveIndex: found.index });
  });
  const inOrder = longestIncreasingByLiveIndex(pairs.map((pair) => pair.liveIndex));
  pairs.forEach((pair, position) => {
    const actual = normalizeAutomation(pair.live);
    const expected = expectedAutomation(pair.expected);
    const differences = attributeDifferences(actual, expected);
    if (!inOrder.has(position)) {
      differences.push({ pointer: '/priority', expected: pair.expectedIndex + 1, actual: pair.liveIndex + 1 });
    }
    if (differences.length > 0) {
      changes.push(
        drift(pair.expected.name, pair.expected.source, pair.live.adminAutomationId, actual, expected, differences),
      );
    }
  });
  for (const { automation } of unmatched) {
    if (ignored(automation.name) !== undefined) continue;
    changes.push(
      drift(automation.name, desired.source, automation.adminAutomationId, normalizeAutomation(automation), null, []),
    );
  }
  return changes;
}

function drift(
  name: string,
  source: DriftChange['source'],
  id: string | undefined,
  before: JsonObject | null,
  after: JsonObject | null,
  differences: DriftDifference[],
): DriftChange {
  const change: DriftChange = {
    action: 'drift',
    target: AUTOMATIONS_TARGET,
    kind: 'AdminAutomation',
    name,
    before,
    after,
    differences,
  };
  if (source !== undefined) change.source = source;
  if (id !== undefined) change.id = id;
  return change;
}

/** attributeDifferences lists, per JSON pointer, where `actual` differs from the attributes `expected` gives. */
function attributeDifferences(actual: JsonObject, expected: JsonObject): DriftDifference[] {
  const compared = Object.fromEntries(
    Object.keys(expected)
      .filter((key) => actual[key] !== undefined)
      .map((key) => [key, actual[key]]),
  ) as JsonObject;
  return jsonpatch.compare(compared, expected).map((operation) => {
    const difference: DriftDifference = { pointer: operation.path };
    const expectedValue = valueAt(expected, operation.path);
    const actualValue = valueAt(compared, operation.path);
    if (expectedValue !== undefined) difference.expected = expectedValue;
    if (actualValue !== undefined) difference.actual = actualValue;
    return difference;
  });
}

function valueAt(document: JsonObject, pointer: string): JsonValue | undefined {
  let value: JsonValue | undefined = document;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(value)) value = value[Number(key)];
    // Own properties only: a pointer segment such as `constructor` names no inherited function.
    else if (value !== null && typeof value === 'object') value = Object.hasOwn(value, key) ? value[key] : undefined;
    else return undefined;
  }
  return value;
}

/**
 * longestIncreasingByLiveIndex returns the positions of a longest run of pairs whose
 * live order agrees with the expected order: the automations outside it are the ones
 * out of priority order, so one moved automation is reported once, not every one after it.
 */
function longestIncreasingByLiveIndex(liveIndexes: readonly number[]): Set<number> {
  const length = liveIndexes.length;
  const best = new Array<number>(length).fill(1);
  const previous = new Array<number>(length).fill(-1);
  for (let i = 0; i < length; i += 1) {
    for (let j = 0; j < i; j += 1) {
      if ((liveIndexes[j] ?? 0) < (liveIndexes[i] ?? 0) && (best[j] ?? 0) + 1 > (best[i] ?? 0)) {
        best[i] = (best[j] ?? 0) + 1;
        previous[i] = j;
      }
    }
  }
  const end = best.indexOf(Math.max(...best));
  const kept = new Set<number>();
  for (let at = end; at !== -1; at = previous[at] ?? -1) kept.add(at);
  return kept;
}

/**
 * ADMIN_AUTOMATIONS is the `Kind` of drift changes: shown, never applied (apply cannot
 * change admin automations), so nothing to re-read, no steps and nothing to verify;
 * hashed as the whole normalised list.
 */
export const ADMIN_AUTOMATIONS: Kind<DriftChange> &
  SavedPlanChecks<DriftChange> &
  DriftLabels<DriftChange> &
  Repairs<DriftChange> &
  Presentation<DriftChange> = {
  diff(desired, live, context) {
    if (desired.automations === undefined) return { changes: [], reasons: [], warnings: [] };
    if (live.automations === undefined)
      throw new InternalError('live state lacks the admin automations that the manifests expect');
    return {
      changes: automationDrift(desired.automations, live.automations, context.ignored),
      reasons: [],
      warnings: [],
    };
  },

  // No phase: drift is shown, never applied.
  actions: [{ action: 'drift', schema: { $ref: '#/$defs/drift' }, verb: 'drift' }],
  sortKey: (change) => change.id ?? '',
  planReads: (desired) => (desired.automations === undefined ? [] : [automationsRead()]),
  // Never applied, so never stale-checked: nothing to re-read.
  reads: () => ({ reads: [] }),
  steps: () => [],
  hashed(target, live) {
    if (target !== AUTOMATIONS_TARGET) return undefined;
    return {
      automations:
        live.automations?.map((automation) => ({
          id: automation.adminAutomationId,
          ...normalizeAutomation(automation),
        })) ?? null,
    };
  },
  subject: (change) => ({ name: change.name }),
  // Drift of the automations is read-only: never applied, so never repaired either.
  driftCause: () => 'automation',
  repair: () => ({ repairable: false, noun: { one: 'automation drift', many: 'automation drifts' } }),
  execute: () => Promise.reject(new InternalError('drift is never applied')),
  verifyReads: () => [],
  verify: () => undefined,
  // Drift is never applied, so never already applied either.
  alreadyLive: () => undefined,
  target: () => AUTOMATIONS_TARGET,
  // Drift is never applied: no rule to re-check.
  recheck: () => [],
  askedAlike(base, live) {
    let atBase: DriftChange[] | undefined;
    return {
      test(change) {
        atBase ??= baseDrift(base, live);
        return driftAskedAlike(change, atBase);
      },
    };
  },
  identityProblems: (change) =>
    (change.kind as string) === 'AdminAutomation' ? [] : [`kind ${String(change.kind)} is not AdminAutomation`],
};

/** baseDrift is the drift REF's AdminAutomations document finds in today's automations. */
function baseDrift(base: Desired, live: Live): DriftChange[] {
  if (base.automations === undefined || live.automations === undefined) return [];
  return automationDrift(base.automations, live.automations, compileGlobs(base.workspace.ignore));
}

/**
 * driftAskedAlike: REF's expectations find the same difference in the same automation
 * (the same expected attributes and priority, or the same missing or unexpected one).
 */
export function driftAskedAlike(change: DriftChange, atBase: readonly DriftChange[]): boolean {
  return atBase.some(
    (candidate) =>
      candidate.name === change.name &&
      candidate.id === change.id &&
      jsonEqual(candidate.after, change.after) &&
      jsonEqual(candidate.differences, change.differences),
  );
}

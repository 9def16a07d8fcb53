import { isDomain } from '../domain/domains.js';
import { RefusedError, ViewctlError } from '../errors.js';
import { verifyDigest } from './hash.js';
import { ACTIONS, PLAN_FORMAT_VERSION, type Plan } from './types.js';

/**
 * parsePlanFile reads a saved plan (`apply --plan FILE`): JSON, this build's
 * `formatVersion`, the shape of a Plan, and a digest that matches the content. A file
 * that is not a plan is `plan.invalid` and an unknown version `plan.version` (exit 1);
 * a digest mismatch means the file was edited or corrupted: `plan.digest-mismatch`,
 * refused (exit 3).
 */
export function parsePlanFile(text: string): Plan {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw invalid(`it is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isRecord(data)) throw invalid('it is not a JSON object');
  if (data['formatVersion'] !== PLAN_FORMAT_VERSION) {
    throw new ViewctlError('plan.version', `the plan file has formatVersion ${JSON.stringify(data['formatVersion'] ?? null)}; this viewctl reads version ${PLAN_FORMAT_VERSION}`, {
      hint: 'run `viewctl plan --out FILE` again with this version of viewctl',
    });
  }
  const problems = planShapeProblems(data);
  if (problems.length > 0) throw invalid(problems.slice(0, 5).join('; ') + (problems.length > 5 ? `; and ${problems.length - 5} more` : ''));
  const plan = data as unknown as Plan;
  if (!verifyDigest(plan)) {
    throw new RefusedError(
      'plan.digest-mismatch',
      'the plan file does not match its digest: it was edited or corrupted after `viewctl plan` wrote it',
      'run `viewctl plan --out FILE` again and apply that file unchanged',
    );
  }
  return plan;
}

function invalid(why: string): ViewctlError {
  return new ViewctlError('plan.invalid', `the file is not a viewctl plan: ${why}`, {
    hint: 'pass the file written by `viewctl plan --out FILE` (or `--format json`)',
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type Check = [path: string, ok: boolean];

/** planShapeProblems lists where `data` departs from the Plan shape, as `path: expected` strings. */
function planShapeProblems(data: Record<string, unknown>): string[] {
  const workspace = data['workspace'];
  const summary = data['summary'];
  const requests = data['requests'];
  const liveHashes = data['liveHashes'];
  const checks: Check[] = [
    ['/workspace: an object with string id and name', isRecord(workspace) && typeof workspace['id'] === 'string' && typeof workspace['name'] === 'string'],
    ['/creatorEmail: a string when present', data['creatorEmail'] === undefined || typeof data['creatorEmail'] === 'string'],
    ['/changes: an array', Array.isArray(data['changes'])],
    ['/summary: a count per action', isRecord(summary) && ACTIONS.every((action) => Number.isInteger(summary[action]))],
    ['/requests: used, applyNeeds, dailyQuota and dailyRemaining', isRecord(requests)
      && Number.isInteger(requests['used']) && Number.isInteger(requests['applyNeeds']) && Number.isInteger(requests['dailyQuota'])
      && (requests['dailyRemaining'] === null || Number.isInteger(requests['dailyRemaining']))],
    ['/liveHashes: an object of strings', isRecord(liveHashes) && Object.values(liveHashes).every((hash) => typeof hash === 'string')],
    ['/warnings: an array of strings', Array.isArray(data['warnings']) && data['warnings'].every((w) => typeof w === 'string')],
    ['/digest: 64 hex digits', typeof data['digest'] === 'string' && /^[0-9a-f]{64}$/.test(data['digest'])],
  ];
  const problems = checks.filter(([, ok]) => !ok).map(([path]) => path);
  const changes = Array.isArray(data['changes']) ? data['changes'] : [];
  changes.forEach((change, index) => {
    for (const problem of changeProblems(change)) problems.push(`/changes/${index}${problem}`);
    if (isRecord(change) && isRecord(liveHashes) && typeof change['target'] === 'string' && liveHashes[change['target']] === undefined) {
      problems.push(`/changes/${index}/target: has no live hash`);
    }
  });
  if (isRecord(summary)) {
    for (const action of ACTIONS) {
      const count = changes.filter((change) => isRecord(change) && change['action'] === action).length;
      if (summary[action] !== count) problems.push(`/summary/${action}: ${count}, the number of ${action} changes`);
    }
  }
  return problems;
}

function changeProblems(change: unknown): string[] {
  if (!isRecord(change)) return [': an object'];
  const action = change['action'];
  const checks: Check[] = [
    ['/action: one of create, update, delete, pin, drift', typeof action === 'string' && (ACTIONS as readonly string[]).includes(action)],
    ['/target: a string', typeof change['target'] === 'string'],
    ['/kind: a string', typeof change['kind'] === 'string'],
    ['/name: a string', typeof change['name'] === 'string'],
  ];
  const isView = (value: unknown): boolean => isRecord(value) && typeof value['name'] === 'string'
    && Array.isArray(value['columns']) && isRecord(value['filters']) && Array.isArray(value['sort']);
  const isTabs = (value: unknown): boolean => Array.isArray(value) && value.every((tab) => isRecord(tab)
    && (tab['viewId'] === null || typeof tab['viewId'] === 'string') && typeof tab['name'] === 'string');
  switch (action) {
    case 'create':
      checks.push(['/domain: a view domain', isDomain(change['domain'])], ['/before: null', change['before'] === null], ['/after: a view', isView(change['after'])]);
      break;
    case 'update':
      checks.push(
        ['/domain: a view domain', isDomain(change['domain'])], ['/id: a string', typeof change['id'] === 'string'],
        ['/before: a view', isView(change['before'])], ['/after: a view', isView(change['after'])],
        ['/patch: an array of operations', Array.isArray(change['patch']) && change['patch'].every((op) => isRecord(op) && typeof op['op'] === 'string' && typeof op['path'] === 'string')],
      );
      break;
    case 'delete':
      checks.push(
        ['/domain: a view domain', isDomain(change['domain'])], ['/id: a string', typeof change['id'] === 'string'],
        ['/before: a view', isView(change['before'])], ['/after: null', change['after'] === null],
        ['/ownerId: a string', typeof change['ownerId'] === 'string'],
        ['/pinnedBy: an array of strings', Array.isArray(change['pinnedBy']) && change['pinnedBy'].every((email) => typeof email === 'string')],
      );
      break;
    case 'pin':
      checks.push(
        ['/domain: a view domain', isDomain(change['domain'])], ['/userEmail: a string', typeof change['userEmail'] === 'string'],
        ['/before: a list of tabs', isTabs(change['before'])], ['/after: a list of tabs', isTabs(change['after'])],
        ['/unpinPrivate: true when present', change['unpinPrivate'] === undefined || change['unpinPrivate'] === true],
      );
      break;
    case 'drift':
      checks.push(['/differences: an array', Array.isArray(change['differences'])]);
      break;
    default:
      break;
  }
  return checks.filter(([, ok]) => !ok).map(([path]) => path);
}

import { readFileSync } from 'node:fs';
import { DOMAINS, type Domain } from '../domain/domains.js';
import { ViewctlError } from '../errors.js';
import {
  anyObject,
  arrayOf,
  AUTOMATION_SPEC,
  COLLECTION_SPECS,
  count,
  object,
  str,
  USER_SPEC,
  VIEW_SPEC,
  type Check,
  type Fail,
} from './data-specs.js';
import { ruleChecker } from './views/rule-checker.js';
import { VIEW_ATTRIBUTES } from './views/view-shapes.js';
import type { EmulatorData } from './model.js';

/**
 * Reading `--data` and `--state` files: JSON holding an EmulatorData. The checks are
 * those the emulator relies on (collections present, every record well formed, ids
 * unique, pinned lists resolvable); the error names the file and the JSON path of
 * the first problem. Collections a
 * hand-written file may leave out (teams, records, webhooks...) default to empty.
 */

/** loadEmulatorData reads and checks an EmulatorData JSON file. */
export function loadEmulatorData(path: string): EmulatorData {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ViewctlError('emulator.data-unreadable', `cannot read emulator data ${path}: ${reason}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ViewctlError('emulator.data-invalid', `emulator data ${path} is not valid JSON: ${reason}`);
  }
  return checkEmulatorData(value, path);
}

/**
 * checkEmulatorData checks a parsed value and returns it as EmulatorData, with the
 * optional collections filled in. `source` names the value in the error. Every
 * record is checked against its field spec (data-specs.ts), and every view's columns,
 * filters and sort against the API's shapes (views/view-shapes.ts); ids must be unique per
 * collection, and pinned lists must name known users and views of their domain.
 */
export function checkEmulatorData(value: unknown, source: string): EmulatorData {
  const fail: Fail = (path, message) => {
    throw new ViewctlError('emulator.data-invalid', `emulator data ${source}: ${path} ${message}`, {
      hint: 'the file must hold a workspace as the emulator serves it (see src/emulator/model.ts)',
    });
  };
  const root = objectAt(value, '$', fail);
  object({ id: str, name: str, createdAt: str })(root.workspace, '$.workspace', fail);

  const users = collection(root.users, '$.users', USER_SPEC, { key: 'id', noun: 'user id', required: true }, fail);
  const userIds = new Set(users.map((user) => user.id as string));

  const views = objectAt(root.views, '$.views', fail);
  const viewIds = new Map<string, Set<string>>();
  for (const domain of DOMAINS) {
    const list = collection(
      views[domain],
      `$.views.${domain}`,
      VIEW_SPEC,
      { key: 'viewId', noun: 'view id', required: true },
      fail,
    );
    viewIds.set(domain, new Set(list.map((view) => view.viewId as string)));
    list.forEach((view, index) => {
      checkViewAttributes(domain, view, `$.views.${domain}[${index}]`, fail);
    });
  }

  const pinned = root.pinned === undefined ? {} : objectAt(root.pinned, '$.pinned', fail);
  const filledPinned: Record<string, unknown> = {};
  for (const domain of DOMAINS) {
    const lists = pinned[domain] === undefined ? {} : objectAt(pinned[domain], `$.pinned.${domain}`, fail);
    for (const [userId, list] of Object.entries(lists)) {
      const path = `$.pinned.${domain}.${userId}`;
      if (!userIds.has(userId)) fail(path, `names the user id "${userId}", which is not in $.users`);
      arrayOf(str)(list, path, fail);
      (list as string[]).forEach((viewId, index) => {
        if (!viewIds.get(domain)?.has(viewId))
          fail(`${path}[${index}]`, `names the view id "${viewId}", which is not in $.views.${domain}`);
      });
    }
    filledPinned[domain] = lists;
  }

  const filled: Record<string, unknown> = { ...root, pinned: filledPinned };
  for (const [key, spec] of Object.entries(COLLECTION_SPECS))
    filled[key] = collection(root[key], `$.${key}`, spec, { key: 'id', noun: 'id' }, fail);
  filled.automations = collection(
    root.automations,
    '$.automations',
    AUTOMATION_SPEC,
    { key: 'adminAutomationId', noun: 'automation id' },
    fail,
  );
  const nextIds = root.nextIds === undefined ? {} : objectAt(root.nextIds, '$.nextIds', fail);
  for (const [key, counter] of Object.entries(nextIds)) count(counter, `$.nextIds.${key}`, fail);
  filled.nextIds = nextIds;
  return filled as unknown as EmulatorData;
}

// Stored views pass the same shapes as views sent to the API, response-only filters
// included (a request may not send them, but the service stores and serves them), so
// listing with one never meets a value the filters cannot read, such as a date that
// does not exist.
function checkViewAttributes(domain: Domain, view: Record<string, unknown>, path: string, fail: Fail): void {
  for (const attribute of VIEW_ATTRIBUTES) {
    const problem = ruleChecker(domain, attribute, view[attribute]);
    if (problem !== undefined)
      fail(`${path}.${problem.path ?? attribute}`, `is not a ${domain} view ${attribute} value: ${problem.message}`);
  }
}

function objectAt(value: unknown, path: string, fail: Fail): Record<string, unknown> {
  anyObject(value, path, fail);
  return value as Record<string, unknown>;
}

/** How a collection is keyed, and whether a file may leave it out (absent means empty). */
interface Keyed {
  key: string;
  /** What a repeated key is called in the error: `view id`, `user id`... */
  noun: string;
  required?: boolean;
}

// A collection of records that each pass `spec`, unique by their key.
function collection(value: unknown, path: string, spec: Check, keyed: Keyed, fail: Fail): Record<string, unknown>[] {
  if (value === undefined && keyed.required !== true) return [];
  arrayOf(spec)(value, path, fail);
  const seen = new Set<string>();
  return (value as Record<string, unknown>[]).map((record, index) => {
    const id = record[keyed.key] as string;
    if (seen.has(id)) fail(`${path}[${index}].${keyed.key}`, `repeats the ${keyed.noun} "${id}"`);
    seen.add(id);
    return record;
  });
}

import { readFileSync } from 'node:fs';
import { DOMAINS, USER_ROLES, USER_STATES } from '../domain/domains.js';
import { ViewctlError } from '../errors.js';
import type { EmulatorData } from './model.js';

/**
 * Reading `--data` and `--state` files: JSON holding an EmulatorData. The checks are
 * those the emulator relies on (collections present, ids unique, views well formed);
 * the error names the file and the JSON path of the first problem. Collections a
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
 * optional collections filled in. `source` names the value in the error.
 */
export function checkEmulatorData(value: unknown, source: string): EmulatorData {
  const fail = (path: string, message: string): never => {
    throw new ViewctlError('emulator.data-invalid', `emulator data ${source}: ${path} ${message}`, {
      hint: 'the file must hold a workspace as the emulator serves it (see src/emulator/model.ts)',
    });
  };
  const root = objectAt(value, '$', fail);
  const workspace = objectAt(root['workspace'], '$.workspace', fail);
  for (const key of ['id', 'name', 'createdAt']) stringAt(workspace[key], `$.workspace.${key}`, fail);

  const users = arrayAt(root['users'], '$.users', fail);
  const userIds = new Set<string>();
  users.forEach((entry, index) => {
    const path = `$.users[${index}]`;
    const user = objectAt(entry, path, fail);
    const id = stringAt(user['id'], `${path}.id`, fail);
    stringAt(user['email'], `${path}.email`, fail);
    stringAt(user['name'], `${path}.name`, fail);
    oneOfAt(user['role'], USER_ROLES, `${path}.role`, fail);
    oneOfAt(user['state'], USER_STATES, `${path}.state`, fail);
    if (userIds.has(id)) fail(`${path}.id`, `repeats the user id "${id}"`);
    userIds.add(id);
  });

  const views = objectAt(root['views'], '$.views', fail);
  for (const domain of DOMAINS) {
    const seen = new Set<string>();
    arrayAt(views[domain], `$.views.${domain}`, fail).forEach((entry, index) => {
      const path = `$.views.${domain}[${index}]`;
      const view = objectAt(entry, path, fail);
      const viewId = stringAt(view['viewId'], `${path}.viewId`, fail);
      stringAt(view['name'], `${path}.name`, fail);
      stringAt(view['ownerId'], `${path}.ownerId`, fail);
      oneOfAt(view['visibility'], ['Public', 'Private'], `${path}.visibility`, fail);
      if (typeof view['isDefault'] !== 'boolean') fail(`${path}.isDefault`, 'must be a boolean');
      arrayAt(view['columns'], `${path}.columns`, fail);
      objectAt(view['filters'], `${path}.filters`, fail);
      arrayAt(view['sort'], `${path}.sort`, fail);
      if (view['icon'] !== undefined) stringAt(view['icon'], `${path}.icon`, fail);
      if (seen.has(viewId)) fail(`${path}.viewId`, `repeats the view id "${viewId}"`);
      seen.add(viewId);
    });
  }

  const pinned = root['pinned'] === undefined ? {} : objectAt(root['pinned'], '$.pinned', fail);
  const filledPinned: Record<string, unknown> = {};
  for (const domain of DOMAINS) {
    const lists = pinned[domain] === undefined ? {} : objectAt(pinned[domain], `$.pinned.${domain}`, fail);
    for (const [userId, list] of Object.entries(lists)) {
      arrayAt(list, `$.pinned.${domain}.${userId}`, fail).forEach((viewId, index) =>
        stringAt(viewId, `$.pinned.${domain}.${userId}[${index}]`, fail));
    }
    filledPinned[domain] = lists;
  }

  const withIds = ['teams', 'userGroups', 'labels', 'channels', 'topics', 'recordings', 'deals', 'companies', 'contacts', 'webhooks'];
  const filled: Record<string, unknown> = { ...root, pinned: filledPinned };
  for (const key of withIds) filled[key] = idCollection(root[key], `$.${key}`, fail);
  const automations = root['automations'] === undefined ? [] : arrayAt(root['automations'], '$.automations', fail);
  automations.forEach((entry, index) =>
    stringAt(objectAt(entry, `$.automations[${index}]`, fail)['adminAutomationId'], `$.automations[${index}].adminAutomationId`, fail));
  filled['automations'] = automations;
  (filled['webhooks'] as Record<string, unknown>[]).forEach((webhook, index) =>
    stringAt(webhook['secret'], `$.webhooks[${index}].secret`, fail));
  filled['nextIds'] = root['nextIds'] === undefined ? {} : objectAt(root['nextIds'], '$.nextIds', fail);
  return filled as unknown as EmulatorData;
}

type Fail = (path: string, message: string) => never;

function objectAt(value: unknown, path: string, fail: Fail): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(path, 'must be an object');
  return value as Record<string, unknown>;
}

function arrayAt(value: unknown, path: string, fail: Fail): unknown[] {
  return Array.isArray(value) ? value : fail(path, 'must be an array');
}

function stringAt(value: unknown, path: string, fail: Fail): string {
  return typeof value === 'string' ? value : fail(path, 'must be a string');
}

function oneOfAt(value: unknown, allowed: readonly string[], path: string, fail: Fail): string {
  return typeof value === 'string' && allowed.includes(value) ? value : fail(path, `must be one of ${allowed.join(', ')}`);
}

// A collection of objects with unique string ids; absent means empty.
function idCollection(value: unknown, path: string, fail: Fail): Record<string, unknown>[] {
  if (value === undefined) return [];
  const seen = new Set<string>();
  return arrayAt(value, path, fail).map((entry, index) => {
    const object = objectAt(entry, `${path}[${index}]`, fail);
    const id = stringAt(object['id'], `${path}[${index}].id`, fail);
    if (seen.has(id)) fail(`${path}[${index}].id`, `repeats the id "${id}"`);
    seen.add(id);
    return object;
  });
}

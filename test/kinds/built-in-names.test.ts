import { describe, expect, it } from 'vitest';
import type { ApiAdminAutomation, JsonObject } from '../../src/domain/api-types.js';
import { orderKeys } from '../../src/export/yaml-text.js';
import { automationDrift } from '../../src/kinds/admin-automations.js';
import { canonicalJson, jsonEqual } from '../../src/kinds/canonical.js';
import { normalizeFilters } from '../../src/kinds/normalize.js';

// JSON.parse (the service's answers) and the YAML loader keep `__proto__` as an own
// attribute; copying it with `out[key] =` would set a prototype instead and hide it.
const parsed = (text: string): JsonObject => JSON.parse(text) as JsonObject;

describe('built-in property names are attributes like any other', () => {
  it('canonical JSON keeps a __proto__ attribute, so it counts as a difference', () => {
    expect(canonicalJson(parsed('{"__proto__":{"a":1},"b":2}'))).toBe('{"__proto__":{"a":1},"b":2}');
    expect(jsonEqual(parsed('{"__proto__":{"a":1}}'), {})).toBe(false);
  });

  it('normalised filters keep a __proto__ attribute', () => {
    expect(canonicalJson(normalizeFilters('recordings', parsed('{"__proto__":["x"],"sourceIn":["Zoom"]}')))).toBe(
      '{"__proto__":["x"],"sourceIn":["Zoom"]}',
    );
  });

  it('export key ordering keeps a __proto__ attribute', () => {
    expect(JSON.stringify(orderKeys(parsed('{"__proto__":1,"name":"n"}'), ['name']))).toBe(
      '{"name":"n","__proto__":1}',
    );
  });

  it('automation drift reports a missing constructor attribute as missing, not as an inherited function', () => {
    const live: ApiAdminAutomation = {
      adminAutomationId: 'aa_1',
      name: 'A',
      color: 'blue',
      disallowUserOverride: false,
      filters: [],
      actions: { autoRecord: { onlyHosted: false, toBeRecorded: true } },
    } as ApiAdminAutomation;
    const source = { file: 'a.yaml', line: 1, column: 1 };
    const [change] = automationDrift(
      {
        automations: [
          {
            name: 'A',
            actions: {
              autoRecord: { onlyHosted: false, toBeRecorded: true },
              constructor: { folderId: 'f' },
            } as JsonObject,
            source,
          },
        ],
        source,
      },
      [live],
      () => undefined,
    );
    const difference = change?.differences?.find((entry) => entry.pointer === '/actions/constructor');
    expect(difference).toEqual({ pointer: '/actions/constructor', expected: { folderId: 'f' } });
  });
});

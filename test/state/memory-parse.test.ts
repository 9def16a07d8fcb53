import { describe, expect, it } from 'vitest';
import { checkMemoryWorkspace, parseMemoryFile } from '../../src/state/memory-parse.js';
import { emptyMemory, type SweepMemory } from '../../src/state/sweep-memory.js';
import { thrownViewctlError } from '../support/errors.js';

const memory: SweepMemory = {
  formatVersion: 1,
  workspaceId: 'ws_1',
  lists: { 'deals:ann@example.com': { lastRead: '2026-01-02T03:04:05.000Z', viewIds: ['v1', 'v2'] } },
  views: { 'view:deals:id:v1': { domain: 'deals', id: 'v1', name: 'Pipeline', lastSeen: '2026-01-02T03:04:05.000Z' } },
  members: { 'ann@example.com': { role: 'Member', state: 'Active', lastSeen: '2026-01-02T03:04:05.000Z' } },
  lastApplied: { commit: 'a'.repeat(40), at: '2026-01-02T03:04:05.000Z' },
};

describe('parseMemoryFile', () => {
  it('reads no file as an empty memory', () => {
    expect(parseMemoryFile(undefined, 'ledger.json')).toEqual(emptyMemory());
  });

  it('reads a memory back as written', () => {
    expect(parseMemoryFile(JSON.stringify(memory), 'ledger.json')).toEqual(memory);
  });

  it('refuses text that is not JSON, naming the file and the way out', () => {
    const error = thrownViewctlError(() => parseMemoryFile('kind: SavedView\n', '.viewctl/ledger.json'));
    expect(error.code).toBe('ledger.invalid');
    expect(error.message).toContain('--ledger .viewctl/ledger.json');
    expect(error.message).toContain('not JSON');
    expect(error.hint).toContain('delete this one');
  });

  it('says where the JSON breaks, as FILE:LINE:COLUMN, whatever the JSON parser says', () => {
    const error = thrownViewctlError(() =>
      parseMemoryFile('{"formatVersion": 1,\n  "workspaceId": "ws_1",\n  }\n', '.viewctl/ledger.json'),
    );
    expect(error.message).toContain('it is not JSON at .viewctl/ledger.json:3:3 (');
  });

  it('refuses an empty file (it is not JSON)', () => {
    expect(thrownViewctlError(() => parseMemoryFile('', 'l.json')).code).toBe('ledger.invalid');
  });

  it('refuses JSON that is not a memory, with the JSON path of each problem', () => {
    const broken = { ...memory, lists: { 'deals:ann@example.com': { lastRead: 'yesterday', viewIds: ['v1'] } } };
    const error = thrownViewctlError(() => parseMemoryFile(JSON.stringify(broken), 'l.json'));
    expect(error.code).toBe('ledger.invalid');
    expect(error.message).toContain('/lists/deals:ann@example.com/lastRead');
  });

  it('refuses another format version, an unknown attribute and a missing part', () => {
    expect(
      thrownViewctlError(() => parseMemoryFile(JSON.stringify({ ...memory, formatVersion: 2 }), 'l.json')).message,
    ).toContain('/formatVersion: must be 1');
    expect(
      thrownViewctlError(() => parseMemoryFile(JSON.stringify({ ...memory, apiKey: 'x' }), 'l.json')).message,
    ).toContain('has no attribute "apiKey"');
    const { members: _members, ...noMembers } = memory;
    expect(thrownViewctlError(() => parseMemoryFile(JSON.stringify(noMembers), 'l.json')).message).toContain(
      'needs "members"',
    );
  });

  it('refuses a plan file or any other JSON document', () => {
    expect(thrownViewctlError(() => parseMemoryFile('[]', 'l.json')).code).toBe('ledger.invalid');
    expect(
      thrownViewctlError(() =>
        parseMemoryFile(JSON.stringify({ formatVersion: 1, workspace: { id: 'ws_1' }, changes: [] }), 'l.json'),
      ).code,
    ).toBe('ledger.invalid');
  });

  it('names a key that is not a list, view or member key once', () => {
    const error = thrownViewctlError(() =>
      parseMemoryFile(
        JSON.stringify({ ...memory, lists: { 'bob@x.io': { lastRead: '2026-01-01T00:00:00Z', viewIds: [] } } }),
        'l.json',
      ),
    );
    expect(error.message).toMatch(/: \/lists: has a key "bob@x\.io" that is not one this file keys by$/);
  });

  it('refuses keys that are not list, view or member keys', () => {
    expect(
      thrownViewctlError(() =>
        parseMemoryFile(
          JSON.stringify({
            ...memory,
            lists: { 'ann@example.com': { lastRead: memory.lastApplied?.at, viewIds: [] } },
          }),
          'l.json',
        ),
      ).message,
    ).toContain('/lists');
    expect(
      thrownViewctlError(() =>
        parseMemoryFile(
          JSON.stringify({ ...memory, members: { __proto__x: memory.members['ann@example.com'] } }),
          'l.json',
        ),
      ).message,
    ).toContain('/members');
  });
});

describe('checkMemoryWorkspace', () => {
  it("accepts the memory of the key's workspace, and a new memory for any", () => {
    expect(() => checkMemoryWorkspace(memory, { id: 'ws_1' }, 'l.json')).not.toThrow();
    expect(() => checkMemoryWorkspace(emptyMemory(), { id: 'ws_2' }, 'l.json')).not.toThrow();
  });

  it('refuses the memory of another workspace, naming both and the way out', () => {
    const error = thrownViewctlError(() => checkMemoryWorkspace(memory, { id: 'ws_2', name: 'Other' }, 'l.json'));
    expect(error.code).toBe('ledger.other-workspace');
    expect(error.message).toContain('ws_1');
    expect(error.message).toContain('ws_2');
    expect(error.hint).toContain('point --ledger at another file');
  });
});

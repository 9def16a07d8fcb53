import { describe, expect, it } from 'vitest';
import { exportFiles } from '../../src/export/export-files.js';
import { pinsKey } from '../../src/state/types.js';
import { defaultView, smallWorkspace, user, view } from './fixture.js';

/** `export --pins groups,include`: the group layout writing mode: include documents. */
describe('exportFiles, groups under include', () => {
  it("notes a member's list that requires nothing (private tabs alone) and writes no document that would list none", () => {
    const base = smallWorkspace();
    const ana = user('u_ana', 'ana@acme.test', 'Ana');
    const own = view('rv_pa', "Ana's calls", { visibility: 'Private', ownerId: 'u_ana' });
    const pins = { [pinsKey('recordings', ana.email)]: [own] };
    const result = exportFiles({
      ...base,
      live: { ...base.live, pins },
      pinUsers: [ana],
      everyone: [ana],
      pinLayout: 'groups',
      pinsMode: 'include',
    });
    expect(Object.keys(result.files).filter((path) => path.startsWith('pins/'))).toEqual([]);
    expect(result.notes).toContainEqual(
      expect.stringContaining('ana@acme.test has no pinned recordings views to require'),
    );
    expect(result.summary.pinDocuments).toEqual({ groups: 0, members: 0 });
  });

  it('writes mode: include in a group document members share', () => {
    const base = smallWorkspace();
    const [ana, bo] = [user('u_ana', 'ana@acme.test', 'Ana'), user('u_bo', 'bo@acme.test', 'Bo')];
    const list = [view('dv_2', 'Pipeline!', { filters: {} }), defaultView('dv_d1', 'All deals')].reverse();
    const pins = { [pinsKey('deals', ana.email)]: list, [pinsKey('deals', bo.email)]: list };
    const result = exportFiles({
      ...base,
      live: { ...base.live, pins },
      pinUsers: [ana, bo],
      everyone: [ana, bo],
      pinLayout: 'groups',
      pinsMode: 'include',
    });
    const texts = Object.entries(result.files).filter(([path]) => path.startsWith('pins/'));
    expect(texts).toHaveLength(1);
    expect(texts[0]?.[1]).toMatch(/^mode: include$/m);
  });
});

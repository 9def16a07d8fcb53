import { describe, expect, it } from 'vitest';
import { SKIPPED_LISTED, skippedRows } from '../../src/render/merge-skipped.js';

const at = (file: string, line = 1) => ({ file, line, column: 1, pointer: '' });

/** `export --merge` printed about 100 "already declared" lines (issue 36). */
describe('skippedRows', () => {
  it('lists a few skipped targets one by one, with where each is declared', () => {
    expect(skippedRows([{ target: 'Workspace "Acme" (ws_1)', declaredAt: at('m/workspace.yaml', 2) }])).toEqual([
      ['m/workspace.yaml:2', 'Workspace "Acme" (ws_1)'],
    ]);
  });

  it('past the few, tells one line per sort of target: the count and the folders declaring them', () => {
    const skipped = [
      { target: 'Workspace "Acme" (ws_1)', declaredAt: at('m/workspace.yaml', 2) },
      ...Array.from({ length: 12 }, (_, index) => ({
        target: `RecordingView "V${index}" (rv_${index})`,
        declaredAt: at(`m/recordings/v${index}.yaml`),
      })),
      ...Array.from({ length: 90 }, (_, index) => ({
        target: `pins of m${index}@acme.test: recordings`,
        declaredAt: at(index < 80 ? `m/pins/m${index}.yaml` : `m/pins/team/m${index}.yaml`),
      })),
    ];
    expect(skipped.length).toBeGreaterThan(SKIPPED_LISTED);
    expect(skippedRows(skipped)).toEqual([
      ['m/workspace.yaml:2', 'Workspace "Acme" (ws_1)'],
      ['m/recordings/', '12 RecordingViews'],
      ['m/pins/, m/pins/team/', "90 members' pinned lists"],
    ]);
  });
});

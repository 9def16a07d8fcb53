import { describe, expect, it } from 'vitest';
import { ACTION_AT_EACH_PLACE, FEW_PLACES, groupLines, groupWarnings } from '../../src/text/warning-groups.js';

// Warnings of one code are one entry: the first in full, the count, and the places
// (every one where each asks for an edit, the first few otherwise).

describe('groupWarnings', () => {
  it('gathers warnings by code, each group where its first warning stands, the others in order', () => {
    const warnings = [
      { code: 'b', at: 1 },
      { code: 'a', at: 2 },
      { code: 'b', at: 3 },
      { code: 'c', at: 4 },
      { code: 'b', at: 5 },
    ];
    const groups = groupWarnings(warnings, (warning) => warning.code);
    expect(groups.map((group) => [group.code, group.first.at, group.others.map((other) => other.at)])).toEqual([
      ['b', 1, [3, 5]],
      ['a', 2, []],
      ['c', 4, []],
    ]);
  });
});

describe('groupLines', () => {
  const places = Array.from({ length: 42 }, (_, index) => `recordings/view-${index + 2}.yaml:9:5`);

  it('leaves a lone warning as it is', () => {
    expect(groupLines('a.yaml:1:1  view.duplicate-column  warning: title appears twice', [], false)).toEqual([
      'a.yaml:1:1  view.duplicate-column  warning: title appears twice',
    ]);
  });

  it('says how many more and names the first few places, on the one line, when the places need no action each', () => {
    const lines = groupLines('first', places, false);
    expect(lines).toEqual([
      `first; 42 more like it at ${places.slice(0, FEW_PLACES).join(', ')} and 39 others (--show-warnings lists each)`,
    ]);
    expect(groupLines('first', ['x.yaml:1:1'], false)).toEqual([
      'first; 1 more like it at x.yaml:1:1 (--show-warnings lists each)',
    ]);
    // Warnings without a place are counted.
    expect(groupLines('first', [undefined, undefined], false)).toEqual([
      'first; 2 more like it (--show-warnings lists each)',
    ]);
  });

  it('lists every place, wrapped under the line, when each asks for an edit', () => {
    const lines = groupLines('first', places, true);
    expect(lines[0]).toBe('first; 42 more like it, each to act on (--show-warnings lists each):');
    const listed = lines
      .slice(1)
      .join(' ')
      .split(/,? +/)
      .filter((part) => part !== '');
    expect(listed).toEqual(places);
    for (const line of lines.slice(1)) {
      expect(line.startsWith('  ')).toBe(true);
      expect(line.length).toBeLessThanOrEqual(100);
    }
    expect(groupLines('first', ['x.yaml:1:1', undefined], true)).toEqual([
      'first; 2 more like it, each to act on (--show-warnings lists each):',
      '  x.yaml:1:1, and 1 without a place',
    ]);
  });

  it('counts as actionable the warnings whose every place needs an edit', () => {
    expect(ACTION_AT_EACH_PLACE.has('pins.left-out')).toBe(true);
    expect(ACTION_AT_EACH_PLACE.has('pins.group-overridden')).toBe(true);
    expect(ACTION_AT_EACH_PLACE.has('view.duplicate-column')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { wrapList } from '../../src/text/wrap.js';

describe('wrapList', () => {
  it('breaks only between items, keeps each line within the width and the separator mark at line ends', () => {
    const names = Array.from({ length: 300 }, (_, index) => `DealView "Board ${index}"`);
    const lines = wrapList(names, { indent: '  ', width: 60 });
    expect(lines.length).toBeGreaterThan(50);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
    expect(lines.every((line) => line.startsWith('  DealView'))).toBe(true);
    expect(lines.slice(0, -1).every((line) => line.endsWith(','))).toBe(true);
    expect(lines.map((line) => line.trim()).join(' ')).toBe(names.join(', '));
  });

  it('gives an item longer than the width a line of its own, and nothing for no items', () => {
    expect(wrapList(['a', 'x'.repeat(30), 'b'], { width: 10, separator: ' · ' })).toEqual([
      'a ·',
      `${'x'.repeat(30)} ·`,
      'b',
    ]);
    expect(wrapList([])).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { fitText, keepWhole, MIN_WIDTH, visibleLength, wrapList } from '../../src/text/wrap.js';

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

/** words is the text's words in order: wrapping may move them, never change, drop or split one. */
const words = (text: string): string[] => text.split(/\s+/).filter((word) => word !== '');

const PROSE =
  'Apply needs 1,213 requests (7 to re-read, 1,206 to write and verify; about 7 min at 3/s per endpoint), ' +
  'see https://ci.example.com/acme/viewctl/actions/runs/7081234567/attempts/2 and manifests/views/recordings/zoom-and-meet-calls.yaml:12:7 for the first change.';

describe('fitText', () => {
  it.each([40, 80, 200])('wraps a long line within %i columns, moving words but never splitting one', (width) => {
    const fitted = fitText(PROSE, width);
    const lines = fitted.split('\n');
    for (const line of lines) expect(line.length <= width || !line.trim().includes(' ')).toBe(true);
    expect(words(fitted)).toEqual(words(PROSE));
    expect(lines.length).toBe({ 40: 7, 80: 4, 200: 2 }[width]);
    // The URL and the file:line:column are whole on one line.
    expect(
      lines.some((line) => line.includes('https://ci.example.com/acme/viewctl/actions/runs/7081234567/attempts/2')),
    ).toBe(true);
    expect(lines.some((line) => line.includes('manifests/views/recordings/zoom-and-meet-calls.yaml:12:7'))).toBe(true);
  });

  it('leaves lines that fit as they are, the column padding of a table included', () => {
    const table = '  + create  RecordingView     "Team calls"  views/team-calls.yaml:3\nNo changes.\n';
    expect(fitText(table, 80)).toBe(table);
  });

  it('hangs continuation lines under the first: its indentation, past its mark, or two columns more', () => {
    const row = `    + ${'filter '.repeat(12).trim()}`;
    expect(fitText(row, 40)).toBe(
      [
        '    + filter filter filter filter filter',
        '      filter filter filter filter filter',
        '      filter filter',
      ].join('\n'),
    );
    const plain = `  ${'word '.repeat(12).trim()}`;
    expect(fitText(plain, 40).split('\n')).toEqual([
      '  word word word word word word word',
      '    word word word word word',
    ]);
  });

  it('keeps a marked command whole, on a line of its own when it does not fit where it stands', () => {
    const command = 'viewctl apply --plan plan.json --expect-digest 8f14e45fceea167a5a36dedd4bea2543';
    const fitted = fitText(`Digest 8f14e4…2543. To apply exactly this plan: ${keepWhole(command)}`, 60);
    expect(fitted.split('\n')).toEqual(['Digest 8f14e4…2543. To apply exactly this plan:', `  ${command}`]);
    // Longer than the line, it overflows rather than breaks; wide enough, it stays where it stands.
    expect(fitText(`next: ${keepWhole(command)} (it should show no changes)`, 200)).toBe(
      `next: ${command} (it should show no changes)`,
    );
  });

  it('counts no columns for colour codes, and never wraps narrower than MIN_WIDTH', () => {
    const red = (text: string): string => `\u001b[31m${text}\u001b[39m`;
    const line = `${red('- delete')} ${'name '.repeat(6).trim()}`;
    expect(visibleLength(line)).toBe(38);
    expect(fitText(line, 40)).toBe(line);
    const narrow = fitText('one two three four five six seven eight nine ten eleven twelve', 10).split('\n');
    expect(narrow[0]?.length).toBeGreaterThan(30);
    expect(Math.max(...narrow.map((text) => text.length))).toBeLessThanOrEqual(MIN_WIDTH);
  });

  it('breaks no line off a terminal (no width), and removes the marks either way', () => {
    const text = `${PROSE}\nrun: ${keepWhole('viewctl plan manifests --budget 900')}\n`;
    expect(fitText(text, undefined)).toBe(`${PROSE}\nrun: viewctl plan manifests --budget 900\n`);
    expect(fitText(text, 40)).not.toContain('\u2060');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandGuard } from '../../src/text/command-guard.js';

/**
 * No line viewctl prints can start, after whitespace, a pipeline's workflow command
 * (`::warning ...::`, `::add-mask::`, `::group::`, the older `##[`), however the text
 * is cut into writes.
 */

/** COMMAND_LINE is a line a workflow runner would read as a command. */
const COMMAND_LINE = /^[^\S\n\r\u2028\u2029]*(::|##\[)/m;

const pieces = fc.constantFrom(
  '::',
  ':',
  '#',
  '##[',
  '[',
  ' ',
  '\t',
  '\u00a0',
  '\u2003',
  '\r',
  '\u2028',
  '\n',
  'warning title=Approved::security review passed',
  'add-mask::Zoom',
  'group::x',
  'Zoom',
  '· ',
);
const texts = fc.array(pieces, { maxLength: 40 }).map((parts) => parts.join(''));

/** guarded runs `text` through one guard in the writes `cuts` make of it. */
function guarded(text: string, cuts: readonly number[]): string {
  const guard = commandGuard();
  const at = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  let out = '';
  let from = 0;
  for (const cut of [...at, text.length]) {
    out += guard(text.slice(from, cut));
    from = cut;
  }
  return out;
}

describe('commandGuard', () => {
  it('leaves no line that starts a workflow command, whatever the writes, and changes nothing else', () => {
    fc.assert(
      fc.property(texts, fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
        const out = guarded(text, cuts);
        expect(out).not.toMatch(COMMAND_LINE);
        // Cut into writes or whole, the same bytes.
        expect(out).toBe(guarded(text, []));
        // Lines that start no command pass as they are; the others only gain an escape.
        if (!COMMAND_LINE.test(text)) expect(out).toBe(text);
        expect(out.replace(/\\u\{3a\}/g, ':').replace(/\\u\{5b\}/g, '[')).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['::warning title=Approved::security review passed', ':\\u{3a}warning title=Approved::security review passed'],
    ['      ::add-mask::Zoom', '      :\\u{3a}add-mask::Zoom'],
    ['a\n ::group::x\nb', 'a\n :\\u{3a}group::x\nb'],
    ['##[warning]x', '##\\u{5b}warning]x'],
    ['Plan: 1 to delete · ::x', 'Plan: 1 to delete · ::x'],
    ['### viewctl plan', '### viewctl plan'],
  ])('writes %j as %j', (text, expected) => {
    expect(commandGuard()(text)).toBe(expected);
  });
});

/**
 * WRAP_WIDTH is the width lists are wrapped to off a terminal (a pipe, a file, a CI log,
 * a test), where no other line is broken: fixed, so logs, `grep` and tests see the same
 * lines everywhere (README, "Output").
 */
export const WRAP_WIDTH = 100;

/**
 * MIN_WIDTH is the narrowest width text is wrapped to: below it a hanging indent and a
 * file:line:column leave no room for words, so a narrower terminal scrolls instead.
 */
export const MIN_WIDTH = 40;

/**
 * GLUE stands for a space inside a span `keepWhole` marks. It is a format character
 * (U+2060 WORD JOINER), which `safeText` escapes wherever user data is printed, so it
 * cannot come from a name or a message; `fitText` turns it back into a space.
 */
const GLUE = '\u2060';

/** ANSI matches the colour codes picocolors writes (ESC [ ... m), which take no columns. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/**
 * keepWhole marks a span the reader copies as it is (a command line): `fitText` never
 * breaks it, and moves it whole to a line of its own when it does not fit where it
 * stands. Only for text that goes through `fitText`, which removes the mark.
 */
export function keepWhole(text: string): string {
  return text.replace(/ /g, GLUE);
}

/**
 * fitText wraps every line of `text` longer than `width` (at least MIN_WIDTH) columns
 * at its spaces, never inside a word: a URL, a file:line:column, an email or a span
 * `keepWhole` marked stays whole, on a line of its own when it is longer than a line.
 * Continuation lines hang under the first: indented as it is, and past its mark
 * (`+ `, `- `, `· `, ...) or two columns more. Colour codes take no columns. Without a
 * width (off a terminal) no line is broken; only the marks are removed.
 */
export function fitText(text: string, width: number | undefined): string {
  if (width === undefined) return unglue(text);
  const columns = Math.max(MIN_WIDTH, Math.floor(width));
  return text
    .split('\n')
    .flatMap((line) => fitLine(line, columns))
    .join('\n');
}

function fitLine(line: string, width: number): string[] {
  if (visibleLength(line) <= width) return [unglue(line)];
  const indent = /^ */.exec(line)?.[0] ?? '';
  const body = line.slice(indent.length);
  const hang = `${indent}${' '.repeat(hangingIndent(body))}`;
  const lines: string[] = [];
  let current = '';
  for (const [, gap = '', word = ''] of body.matchAll(/( *)([^ ]+)/g)) {
    if (current === '') current = `${indent}${word}`;
    else if (visibleLength(current) + gap.length + visibleLength(word) <= width) current = `${current}${gap}${word}`;
    else {
      lines.push(current);
      current = `${hang}${word}`;
    }
  }
  lines.push(current);
  return lines.map(unglue);
}

/**
 * hangingIndent is how much further than the first line its continuation lines start:
 * past a list or action mark (`+ create`: under `create`), else two columns.
 */
function hangingIndent(body: string): number {
  const mark = /^(?:[-+~*•·!>↻⏸✓✗×]|\d+[.)]) +(?=\S)/u.exec(body.replace(ANSI, ''));
  return mark === null || mark[0].length > 6 ? 2 : [...mark[0]].length;
}

/** visibleLength is how many columns `text` takes on a terminal: colour codes take none. */
export function visibleLength(text: string): number {
  return [...text.replace(ANSI, '')].length;
}

function unglue(text: string): string {
  return text.replaceAll(GLUE, ' ');
}

/**
 * wrapList joins `items` with `separator` into lines of at most `width` characters,
 * each starting with `indent`, breaking only between items: the separator's mark
 * (`,` of `, `) ends a line and its spacing is dropped there. An item longer than a
 * line gets a line of its own. A list of 300 view names is then 75 readable lines,
 * never one 10 KB line.
 */
export function wrapList(
  items: readonly string[],
  options: { indent?: string; separator?: string; width?: number } = {},
): string[] {
  const indent = options.indent ?? '';
  const separator = options.separator ?? ', ';
  const width = options.width ?? WRAP_WIDTH;
  const mark = separator.trimEnd();
  const gap = separator.slice(mark.length);
  const lines: string[] = [];
  let line = '';
  items.forEach((item, index) => {
    const piece = index < items.length - 1 ? `${item}${mark}` : item;
    if (line !== '' && line.length + gap.length + piece.length <= width) {
      line = `${line}${gap}${piece}`;
      return;
    }
    if (line !== '') lines.push(line);
    line = `${indent}${piece}`;
  });
  if (line !== '') lines.push(line);
  return lines;
}

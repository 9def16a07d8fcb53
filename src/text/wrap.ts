/** WRAP_WIDTH is the widest line a wrapped list makes: readable in a terminal, a CI log and a PR. */
export const WRAP_WIDTH = 100;

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

import type { Change } from '../plan/types.js';

/**
 * The comment budget (README, "What a reviewer sees"): a pull-request comment holds
 * 65,536 characters, the action's wrapper included, so the markdown plan stays within
 * COMMENT_LIMIT. It is measured in UTF-8 bytes, the largest of the ways a character can
 * be counted (code points, UTF-16 units, bytes), so it fits however the host counts.
 * What must be seen stays whole (the head, the counts, every deletion and every change
 * made outside viewctl); summary rows come next, then warnings, then as many details
 * as fit (what deletions delete first, then the smallest); a last line says what was
 * left out.
 */

/** COMMENT_LIMIT is the most a markdown plan may take: 64,000 of a comment's 65,536, the rest is the action's. */
export const COMMENT_LIMIT = 64_000;

/**
 * CommentPart is one piece of the comment, in display order. `render(keep)` is the
 * piece with only the first `keep` of its `items` (the names of a grouped row, the
 * members of a group, the views of a batch), saying itself how many it left out;
 * `render(items)` is the whole piece. A piece without items has `items: 0`.
 */
export interface CommentPart {
  /**
   * `fixed`: always whole; `must`: whole unless the comment cannot hold it (deletions
   * and changes made outside viewctl); `detail`, `warning`, `row`: cut in that order
   * when the comment is too long (details are then put back as far as they fit).
   */
  role: 'fixed' | 'must' | 'row' | 'warning' | 'detail';
  render(keep: number): string;
  items: number;
  /** The changes the piece shows, for the note that says what was left out. */
  covers?: readonly Change[];
}

/** LeftOut is what the comment left out, for its last line. */
export interface LeftOut {
  /** Changes whose details were left out entirely. */
  details: Change[];
  /** Details shown in part (a batch's first views, a group's first members). */
  cutDetails: number;
  /** Changes whose summary row was left out, and rows shown in part. */
  rows: Change[];
  cutRows: number;
  warnings: number;
  /** Deletions or outside changes left unnamed: only when even their names cannot fit. */
  cutMust: number;
}

/** byteSize is the UTF-8 length of `text`. */
export function byteSize(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** ROW_KEEP is how many names a grouped summary row keeps when rows must be shortened. */
const ROW_KEEP = 10;
const DROPPED = -1;

/**
 * fitComment joins `parts` with line feeds (and a final one) within `limit` bytes. When
 * they do not fit, it cuts as described above and appends `note(leftOut)` after a blank
 * line; room for the note is kept from the start, measured at its longest.
 */
export function fitComment(parts: readonly CommentPart[], limit: number, note: (leftOut: LeftOut) => string): string {
  const keep = parts.map((part) => part.items);
  const texts = parts.map((part) => part.render(part.items));
  const sizes = texts.map(byteSize);
  const total = (): number => sizes.reduce((sum, size, index) => (keep[index] === DROPPED ? sum : sum + size + 1), 0);
  const assemble = (tail?: string): string => {
    const shown = texts.filter((_, index) => keep[index] !== DROPPED);
    return `${[...shown, ...(tail === undefined ? [] : ['', tail])].join('\n')}\n`;
  };
  if (total() <= limit) return assemble();

  const all = parts.flatMap((part) => part.covers ?? []);
  const longest = note({
    details: all,
    cutDetails: parts.length,
    rows: all,
    cutRows: parts.length,
    warnings: parts.length,
    cutMust: all.length,
  });
  const budget = limit - byteSize(longest) - 2;
  const set = (index: number, kept: number): void => {
    keep[index] = kept;
    texts[index] = kept === DROPPED ? '' : (parts[index]?.render(kept) ?? '');
    sizes[index] = byteSize(texts[index] ?? '');
  };
  const indexes = (role: CommentPart['role']): number[] =>
    parts.flatMap((part, index) => (part.role === role ? [index] : []));
  const details = indexes('detail');
  // The details are placed last: first everything else is made to fit without them.
  for (const index of details) set(index, DROPPED);
  // 1. Warnings go, last first; 2. grouped rows name their first ROW_KEEP changes,
  // longest rows first; 3. rows go, last first.
  for (const index of indexes('warning').reverse()) {
    if (total() <= budget) break;
    set(index, DROPPED);
  }
  const rows = indexes('row');
  for (const index of [...rows].sort((a, b) => (sizes[b] ?? 0) - (sizes[a] ?? 0))) {
    if (total() <= budget) break;
    if ((parts[index]?.items ?? 0) > ROW_KEEP) set(index, ROW_KEEP);
  }
  for (const index of [...rows].reverse()) {
    if (total() <= budget) break;
    set(index, DROPPED);
  }
  // 4. Only when nothing else is left to cut: the names of deletions and outside changes, longest first.
  for (const index of indexes('must').sort((a, b) => (sizes[b] ?? 0) - (sizes[a] ?? 0))) {
    const over = total() - budget;
    if (over <= 0) break;
    const part = parts[index];
    if (part === undefined || part.items === 0) continue;
    set(index, largestKeep(part, (sizes[index] ?? 0) - over, 0));
  }
  // 5. Details: what deletions delete first, then whole ones smallest first (the most
  // changes seen), then the first items of those left.
  const deletes = (index: number): number =>
    Number(!(parts[index]?.covers ?? []).some((change) => change.action === 'delete'));
  const wholeSizes = new Map(details.map((index) => [index, byteSize(parts[index]?.render(parts[index].items) ?? '')]));
  const wholeSize = (index: number): number => wholeSizes.get(index) ?? 0;
  const order = [...details].sort((a, b) => deletes(a) - deletes(b) || wholeSize(a) - wholeSize(b) || a - b);
  for (const index of order) {
    const part = parts[index];
    if (part === undefined) continue;
    if (total() + wholeSize(index) + 1 <= budget) set(index, part.items);
  }
  for (const index of order) {
    const part = parts[index];
    if (part === undefined || keep[index] !== DROPPED || part.items === 0) continue;
    const kept = largestKeep(part, budget - total() - 1, 1);
    if (kept !== DROPPED) set(index, kept);
  }
  const text = assemble(note(leftOutOf(parts, keep)));
  return byteSize(text) <= limit ? text : cutLines(text, limit);
}

/** CUT_MARK ends a comment whose fixed parts alone pass the limit (a plan with thousands of --target selectors). */
const CUT_MARK = '*… cut here to fit one comment: the full plan has the rest.*';

/** cutLines keeps the first whole lines of `text` that fit `limit` bytes with CUT_MARK after them: the last guard. */
function cutLines(text: string, limit: number): string {
  const kept: string[] = [];
  let size = byteSize(CUT_MARK) + 2;
  for (const line of text.split('\n')) {
    size += byteSize(line) + 1;
    if (size > limit) break;
    kept.push(line);
  }
  return `${[...kept, CUT_MARK].join('\n')}\n`;
}

/**
 * largestKeep is the most items of `part` that render within `room` bytes, at least
 * `least`; DROPPED when not even `least` fit (or, for `least` 0, the part without items).
 */
function largestKeep(part: CommentPart, room: number, least: number): number {
  if (byteSize(part.render(least)) > room) return least === 0 ? 0 : DROPPED;
  let low = least;
  let high = part.items;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (byteSize(part.render(middle)) <= room) low = middle;
    else high = middle - 1;
  }
  return low;
}

function leftOutOf(parts: readonly CommentPart[], keep: readonly number[]): LeftOut {
  const leftOut: LeftOut = { details: [], cutDetails: 0, rows: [], cutRows: 0, warnings: 0, cutMust: 0 };
  parts.forEach((part, index) => {
    const kept = keep[index] ?? DROPPED;
    const whole = kept === part.items;
    if (whole) return;
    const covers = part.covers ?? [];
    if (part.role === 'detail') {
      if (kept === DROPPED) leftOut.details.push(...covers);
      else leftOut.cutDetails += 1;
    } else if (part.role === 'row') {
      if (kept === DROPPED) leftOut.rows.push(...covers);
      else leftOut.cutRows += 1;
    } else if (part.role === 'warning') {
      leftOut.warnings += 1;
    } else if (part.role === 'must') {
      leftOut.cutMust += part.items - kept;
    }
  });
  return leftOut;
}

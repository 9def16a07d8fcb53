import { formatCount } from '../text/plural.js';
import { safeText } from '../text/safe-text.js';

/** The escaping rules of the markdown plan, shared by its summary and its details. */

/**
 * mdText is the one escaping rule for markdown (a PR comment): terminal-unsafe
 * characters escaped visibly as in text, markdown punctuation backslash-escaped (no
 * link, image, emphasis or heading can form; `|` so table cells hold), `&`, `<`, `>`
 * as entities (no HTML), the `:` of `scheme://` and the `.` of `www.` escaped so
 * GitHub does not autolink a URL, and a mention (`@octocat`, `@org/team`) broken by a
 * zero-width space after its `@`, so a name made in the app notifies nobody from the
 * bot's comment (an email's `@`, after a letter or digit, is no mention and stays).
 */
export function mdText(text: string): string {
  return safeText(text)
    .replace(/[\\`*_[\]~|#]/g, (char) => `\\${char}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/:(?=\/\/)/g, '\\:')
    .replace(/(www)\./gi, '$1\\.')
    .replace(/(?<![A-Za-z0-9])@(?=[\p{L}\p{N}_-])/gu, '@&#8203;');
}

/**
 * NAME_SHOWN is the most characters of a name the markdown plan shows: far above any
 * name people give a view, far below one that would crowd deletions out of the comment.
 */
export const NAME_SHOWN = 200;

/**
 * mdName is `mdText` for a name made in the app or a manifest (a view, group or
 * workspace name): one longer than NAME_SHOWN characters is cut, saying how long it
 * is, so 40 deletions of 3,000-character names are all named within one comment.
 */
export function mdName(name: string): string {
  const chars = [...name];
  if (chars.length <= NAME_SHOWN) return mdText(name);
  return `${mdText(chars.slice(0, NAME_SHOWN).join(''))}… (cut: ${formatCount(chars.length)} characters)`;
}

/** codeSpan wraps text in a code span that its own backticks cannot close; `|` escaped for tables. */
export function codeSpan(text: string): string {
  const safe = safeText(text).replace(/\|/g, '\\|');
  const longest = longestBacktickRun(safe);
  const ticks = '`'.repeat(longest + 1);
  return longest === 0 ? `${ticks}${safe}${ticks}` : `${ticks} ${safe} ${ticks}`;
}

/** fence is a code fence longer than any backtick run in `body`. */
export function fence(body: string): string {
  return '`'.repeat(Math.max(3, longestBacktickRun(body) + 1));
}

function longestBacktickRun(text: string): number {
  return Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
}

/**
 * linkTarget writes a URL as a markdown link target that cannot end the link early or
 * start HTML: spaces, brackets, quotes and angle brackets percent-encoded.
 */
export function linkTarget(url: string): string {
  return safeText(url).replace(
    /[\s()<>"'`[\]\\|*_~]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

import { formatCount } from '../text/plural.js';
import { safeText } from '../text/safe-text.js';
import { NAME_SHOWN } from './markdown-text.js';

/**
 * htmlText escapes text for a line of HTML in the markdown plan, such as a
 * `<details><summary>` line: GitHub reads such a line as an HTML block, where markdown
 * is not parsed, so a backslash escape would show (`rv\_1`). Terminal-unsafe characters
 * are escaped visibly as in text; `&`, `<`, `>` and `"` become entities (no HTML can
 * form), and the `:` of `scheme://` and the `.` of `www.` entities too, so GitHub does
 * not autolink a URL; an `@mention` gets a zero-width space after its `@`, so a name
 * made in the app notifies no one from the bot's comment (as `mdText`).
 */
export function htmlText(text: string): string {
  return safeText(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/:(?=\/\/)/g, '&#58;')
    .replace(/(www)\./gi, '$1&#46;')
    .replace(/(?<![A-Za-z0-9])@(?=[\p{L}\p{N}_-])/gu, '@&#8203;');
}

/** htmlName is `htmlText` for a name, cut past NAME_SHOWN characters as `mdName` cuts it. */
export function htmlName(name: string): string {
  const chars = [...name];
  if (chars.length <= NAME_SHOWN) return htmlText(name);
  return `${htmlText(chars.slice(0, NAME_SHOWN).join(''))}… (cut: ${formatCount(chars.length)} characters)`;
}

/** htmlCode is text as inline code on an HTML line: `<code>`, since backticks are not parsed there. */
export function htmlCode(text: string): string {
  return `<code>${htmlText(text)}</code>`;
}

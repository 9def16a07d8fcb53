import { safeText } from '../text/safe-text.js';

/**
 * htmlText escapes text for a line of HTML in the markdown plan, such as a
 * `<details><summary>` line: GitHub reads such a line as an HTML block, where markdown
 * is not parsed, so a backslash escape would show (`rv\_1`). Terminal-unsafe characters
 * are escaped visibly as in text; `&`, `<`, `>` and `"` become entities (no HTML can
 * form), and the `:` of `scheme://` and the `.` of `www.` entities too, so GitHub does
 * not autolink a URL.
 */
export function htmlText(text: string): string {
  return safeText(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/:(?=\/\/)/g, '&#58;')
    .replace(/(www)\./gi, '$1&#46;');
}

/** htmlCode is text as inline code on an HTML line: `<code>`, since backticks are not parsed there. */
export function htmlCode(text: string): string {
  return `<code>${htmlText(text)}</code>`;
}

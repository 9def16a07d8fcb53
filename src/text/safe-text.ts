/**
 * `safeText` is the one escaping rule for terminal text: names, emails, paths and
 * messages are user or service data, so a manifest or a live view name can neither
 * rewrite the reviewer's terminal (ESC, CR, other controls) nor hide or reorder text
 * (zero-width and bidi characters).
 */

// Controls (C0, C1), format characters (zero-width, bidi marks, embeddings, overrides
// and isolates, soft hyphen, BOM), line and paragraph separators, lone surrogates,
// and the Hangul fillers, letters that render as nothing.
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u115f\u1160\u3164\uffa0]/gu;

/** safeText replaces every control, invisible and bidi character with a visible `\u{..}` escape. */
export function safeText(text: string): string {
  return text.replace(UNSAFE, (char) => `\\u{${(char.codePointAt(0) ?? 0).toString(16)}}`);
}

/**
 * safeLines is `safeText` for a message of several lines: line feeds stay (the
 * message's own layout), everything else unsafe is escaped, CR included.
 */
export function safeLines(text: string): string {
  return text.split('\n').map(safeText).join('\n');
}

/** quoted is a user-data string in double quotes, made safe. */
export function quoted(text: string): string {
  return `"${safeText(text).replace(/"/g, '\\"')}"`;
}

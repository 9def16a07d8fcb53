// What a terminal or a reviewer's viewer could act on or hide; line feeds outside
// strings are the layout (inside strings JSON.stringify already writes `\n`).
const UNSAFE = /(?!\n)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/**
 * jsonText is the one rule for JSON output: the data as it is (parsing gives back
 * every name exactly), indented, with controls, invisible and bidi characters written
 * as `\uXXXX` escapes, so the bytes printed carry none of them raw. The JSON plan, the
 * plan file and the reports all pass through it.
 */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2).replace(UNSAFE, (char) =>
    [...Array(char.length).keys()].map((at) => `\\u${char.charCodeAt(at).toString(16).padStart(4, '0')}`).join(''),
  )}\n`;
}
